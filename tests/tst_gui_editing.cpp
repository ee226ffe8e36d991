// Editing in the main window with core's estimator, offscreen: a new user picks Llama 3
// 70B on 64 H100, changes TP from 8 to 4 in the Parallel plan dock and sees memory and step
// time change; undo brings back both the scenario and the estimate; an invalid value turns
// the right field red with core's message; a Hugging Face config.json import is one undo
// step; the charts draw, answer hovering and export; the power chart draws the energy
// model's trace and split; save, the dirty marker and the save
// prompt; screenshots of each main view (light, dark, zh_CN) are kept as artifacts.

#include "DarkPalette.h"
#include "TestSupport.h"

#include "CommunicationChart.h"
#include "EstimateBadge.h"
#include "EstimateCards.h"
#include "MainWindow.h"
#include "MemoryChart.h"
#include "ModelEditor.h"
#include "PlanEditor.h"
#include "PowerChart.h"
#include "ResultsDashboard.h"
#include "RunCostCards.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"
#include "Screenshot.h"
#include "Settings.h"
#include "StepTimeChart.h"
#include "TimelineChart.h"
#include "Translations.h"

#include "estimate/Estimator.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

EstimateFunction coreEstimator() {
    return [](const ResolvedScenario& scenario, Diagnostics& diags) {
        EstimatorSettings settings = defaultEstimatorSettings(scenario);
        settings.maxScheduleEvents = TimelineChart::kScheduleEvents;
        return estimatePlan(scenario, settings, diags);
    };
}

QString example(const QString& name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

QString screenshotDir() {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

void shoot(MainWindow& window, const QString& name) {
    QString error;
    QVERIFY2(saveScreenshot(window, screenshotDir() + "/" + name + ".png", &error, {1600, 1000}),
             qPrintable(error));
}

// Picks `degree` in a plan degree combo as a user would (the `activated` signal).
bool chooseDegree(QComboBox* combo, int degree) {
    const int index = combo->findText(QString::number(degree));
    if (index < 0)
        return false;
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    return true;
}

} // namespace

class TestGuiEditing : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void changeTpUpdatesEstimateAndUndoRestoresIt();
    void invalidValueMarksTheField();
    void unavailableDegreesExplainWhy();
    void huggingFaceImportIsOneUndoStep();
    void chartsDrawHoverAndExport();
    void powerChartDrawsTheEnergyModel();
    void saveDirtyMarkerAndPrompt();
    void screenshotsOfEachView();
    void darkAndChineseScreenshots();
    void binaryScreenshotOfAView();
    void settingsAndWindowStatePersist();
};

void TestGuiEditing::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    removeTranslations();
    QVERIFY(!test::sourceDir().isEmpty());
}

void TestGuiEditing::changeTpUpdatesEstimateAndUndoRestoresIt() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QSignalSpy updated(&window, &MainWindow::estimateUpdated);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QTRY_VERIFY(window.estimate().has_value());
    const Estimate before = *window.estimate();
    const QString stepBefore = window.estimateCards()->valueText(EstimateCards::Card::StepTime);
    QVERIFY(!stepBefore.contains(QStringLiteral("—")));

    auto* tp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/tp"));
    QVERIFY(tp);
    QCOMPARE(tp->currentText(), QString("8"));
    updated.clear();
    QVERIFY(chooseDegree(tp, 4));
    QCOMPARE(window.document()->resolved()->parallel.tp, 4);
    QCOMPARE(window.document()->resolved()->parallel.dp, std::int64_t(4)); // 64 / (4 x 4)
    QTRY_VERIFY(updated.count() >= 1);
    const Estimate after = *window.estimate();
    QVERIFY(after.peakBytes != before.peakBytes);
    QVERIFY(after.stepSeconds != before.stepSeconds);
    QVERIFY(window.estimateCards()->valueText(EstimateCards::Card::StepTime) != stepBefore);
    QVERIFY(window.windowTitle().contains("[*]"));
    QVERIFY(window.isWindowModified());
    shoot(window, "edit-tp4-dashboard");

    updated.clear();
    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->resolved()->parallel.tp, 8);
    QCOMPARE(tp->currentText(), QString("8"));
    QTRY_VERIFY(updated.count() >= 1);
    QCOMPARE(window.estimate()->peakBytes, before.peakBytes);
    QCOMPARE(window.estimate()->stepSeconds, before.stepSeconds);
    QCOMPARE(window.estimateCards()->valueText(EstimateCards::Card::StepTime), stepBefore);
    QVERIFY(!window.isWindowModified());
}

void TestGuiEditing::invalidValueMarksTheField() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    ScenarioForm* model = window.modelEditor()->form();
    ScenarioForm* plan = window.planEditor()->form();
    QVERIFY(!plan->isFieldInvalid("/parallelism/tp"));
    QVERIFY(model->isFieldInherited("/model/ffn_hidden")); // from the preset, not the file

    // An FFN size that TP 8 does not divide: the TP field turns red with core's message.
    auto* ffn = qobject_cast<QSpinBox*>(model->field("/model/ffn_hidden"));
    QVERIFY(ffn);
    ffn->setValue(28676);
    QVERIFY(!model->isFieldInherited("/model/ffn_hidden"));
    QVERIFY(plan->isFieldInvalid("/parallelism/tp"));
    QVERIFY2(plan->fieldError("/parallelism/tp").contains("ffn_hidden = 28676 is not divisible"),
             qPrintable(plan->fieldError("/parallelism/tp")));
    QWidget* tp = plan->field("/parallelism/tp");
    const QColor base = tp->palette().color(QPalette::Button);
    QVERIFY2(base.red() > base.green() + 20, qPrintable(base.name()));
    QVERIFY(!model->isFieldInvalid("/model/ffn_hidden"));
    QVERIFY(window.estimateCards()->valueToolTip(EstimateCards::Card::StepTime).contains("valid"));
    window.showView("plan");
    shoot(window, "invalid-field-plan");

    // Heads that the KV heads do not divide: the error is on the KV heads field.
    ffn->setValue(28672);
    qobject_cast<QSpinBox*>(model->field("/model/heads"))->setValue(60);
    QVERIFY(model->isFieldInvalid("/model/kv_heads"));
    QVERIFY(model->fieldError("/model/kv_heads").contains("heads = 60"));
    window.showView("model");
    shoot(window, "invalid-field-model");

    // Undo clears it.
    window.document()->undoStack()->undo();
    window.document()->undoStack()->undo();
    QVERIFY(!model->isFieldInvalid("/model/kv_heads"));
    QVERIFY(!plan->isFieldInvalid("/parallelism/tp"));
    QVERIFY(window.document()->resolved());
}

void TestGuiEditing::unavailableDegreesExplainWhy() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    auto* tp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/tp"));
    auto* items = qobject_cast<QStandardItemModel*>(tp->model());
    QVERIFY(items);
    const int i32 = tp->findText("32");
    QVERIFY(i32 >= 0);
    QVERIFY(!items->item(i32)->isEnabled());
    QVERIFY2(tp->itemData(i32, Qt::ToolTipRole).toString().contains("does not divide"),
             qPrintable(tp->itemData(i32, Qt::ToolTipRole).toString()));
    QVERIFY(items->item(tp->findText("4"))->isEnabled());
    auto* ep = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/ep"));
    const int ep2 = ep->findText("2");
    QVERIFY(ep2 >= 0);
    QVERIFY(ep->itemData(ep2, Qt::ToolTipRole).toString().contains("mixture-of-experts"));
}

void TestGuiEditing::huggingFaceImportIsOneUndoStep() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-8b-8xh100.json")));
    QString message;
    const QString config = test::sourceDir() + "/tests/fixtures/hf/qwen3-30b-a3b/config.json";
    QVERIFY2(window.modelEditor()->importHuggingFaceConfig(config, &message), qPrintable(message));
    const ResolvedScenario& r = *window.document()->resolved();
    QVERIFY(r.model.moe);
    QCOMPARE(r.model.moe->experts, 128);
    QCOMPARE(r.model.headDim, 128);
    QCOMPARE(window.document()->undoStack()->count(), 1);
    auto* layers = qobject_cast<QSpinBox*>(window.modelEditor()->form()->field("/model/layers"));
    QCOMPARE(layers->value(), 48);
    QVERIFY(window.waitForEstimate());
    window.showView("model");
    shoot(window, "hf-import-qwen3-moe");
    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->resolved()->modelPreset, std::string("llama3-8b"));
    QCOMPARE(layers->value(), 32);

    QVERIFY(!window.modelEditor()->importHuggingFaceConfig(
        test::sourceDir() + "/tests/fixtures/hf/broken/config.json", &message));
    QVERIFY(message.contains("num_hidden_layers"));
    QCOMPARE(window.document()->undoStack()->index(), 0);
}

void TestGuiEditing::chartsDrawHoverAndExport() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3.1-405b-2048xh100.json")));
    QVERIFY(window.waitForEstimate());
    QVERIFY2(window.estimate(),
             qPrintable(window.estimateCards()->valueToolTip(EstimateCards::Card::StepTime)));
    shoot(window, "dashboard-llama3.1-405b");
    ResultsDashboard* dashboard = window.dashboard();
    for (EstimateChart* chart : dashboard->charts())
        QVERIFY2(chart->hoverRegionCount() > 0, qPrintable(chart->title()));

    // Hovering stage 0's lowest segment (weights) names the part, its size and unit.
    const QString weights = dashboard->memoryChart()->hoverTextAt(0, 0.5);
    QVERIFY2(weights.contains("Stage 0") && weights.contains("GiB"), qPrintable(weights));
    const QString compute = dashboard->stepTimeChart()->hoverTextAt(9, 1e-6); // top row
    QVERIFY2(compute.startsWith("Compute") && compute.contains(" s"), qPrintable(compute));
    const Estimate& e = *window.estimate();
    QVERIFY(!e.timeline.empty());
    const TimelineEvent& first = e.timeline.front();
    const int pp = window.document()->resolved()->parallel.pp;
    const QString event = dashboard->timelineChart()->hoverTextAt((first.startS + first.endS) / 2,
                                                                  pp - 1 - first.stage);
    QVERIFY2(event.contains("Stage") && event.contains("→"), qPrintable(event));

    // The energy and cost cards: "—" with a tooltip while core leaves them null.
    RunCostCards* cards = dashboard->runCostCards();
    if (!e.trainUsd) {
        QCOMPARE(cards->valueText(RunCostCards::Card::Cost), QString("—"));
        QVERIFY(!cards->valueToolTip(RunCostCards::Card::Cost).isEmpty());
    }

    const QString dir = screenshotDir() + "/charts";
    QDir().mkpath(dir);
    const QStringList names = {"memory",         "step-time", "timeline",
                               "comm-dimension", "comm-link", "power"};
    const std::vector<EstimateChart*> charts = dashboard->charts();
    for (const char* suffix : {"png", "svg", "pdf"}) {
        for (std::size_t i = 0; i < charts.size(); ++i) {
            const QString path = dir + "/" + names.value(int(i)) + "." + suffix;
            QString error;
            QVERIFY2(charts[i]->exportTo(path, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }
    QString error;
    QVERIFY(!dashboard->memoryChart()->exportTo(dir + "/chart.bmpx", &error));
    QVERIFY(error.contains("png"));
}

void TestGuiEditing::powerChartDrawsTheEnergyModel() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate() && window.estimate()->energyReport);
    const EnergyReport& r = *window.estimate()->energyReport;
    QVERIFY(!r.powerTrace.empty());
    PowerChart* chart = window.dashboard()->powerChart();
    QVERIFY(chart->plot()->graphCount() == 1);
    QCOMPARE(chart->plot()->graph(0)->dataCount(), int(r.powerTrace.size()) + 1);
    QVERIFY(chart->hoverRegionCount() > 0);
    const PowerSample& first = r.powerTrace.front();
    const QString hover = chart->hoverTextAt(first.timeS, first.watts / 2000.0);
    QVERIFY2(hover.contains(" kW"), qPrintable(hover));
    QVERIFY2(chart->energyText().contains("GPUs") && chart->energyText().contains("kWh"),
             qPrintable(chart->energyText()));
    QVERIFY2(chart->energyHoverTextAt(r.stepJoules.gpus / 2).startsWith("GPUs"),
             qPrintable(chart->energyHoverTextAt(r.stepJoules.gpus / 2)));
    QCOMPARE(chart->captionText().isEmpty(), r.traceCoversStep);

    // A trace of the simulated part only says so under the trace.
    Estimate partial = *window.estimate();
    partial.energyReport->traceCoversStep = false;
    PowerChart standalone;
    standalone.resize(640, 360);
    standalone.setEstimate(&partial, &*window.document()->resolved());
    QVERIFY2(standalone.captionText().contains("simulated"), qPrintable(standalone.captionText()));
    QString error;
    QVERIFY2(standalone.exportTo(screenshotDir() + "/power-chart-partial-trace.png", &error),
             qPrintable(error));
    partial.energyReport->traceCoversStep = true;
    standalone.setEstimate(&partial, &*window.document()->resolved());
    QVERIFY(standalone.captionText().isEmpty());

    // The dashboard scrolled down to the power chart.
    window.resize(1600, 1000);
    QScrollArea* scroll = nullptr;
    for (QWidget* w = window.dashboard(); w && !scroll; w = w->parentWidget())
        scroll = qobject_cast<QScrollArea*>(w);
    QVERIFY(scroll);
    shoot(window, "dashboard-power-llama3-70b-top");
    scroll->ensureWidgetVisible(chart, 0, 0);
    shoot(window, "dashboard-power-llama3-70b");
}

void TestGuiEditing::saveDirtyMarkerAndPrompt() {
    QTemporaryDir dir;
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.newFromExample(":/examples/llama3-70b-64xh100.json"));
    QVERIFY(window.document()->isModified()); // untitled
    QVERIFY(window.windowTitle().startsWith("Llama 3 70B"));

    window.setSavePromptOverride(QMessageBox::Cancel);
    QVERIFY(!window.close());
    QVERIFY(!window.maybeSave());

    const QString path = dir.filePath("plan.json");
    QVERIFY(window.saveScenarioAs(path));
    QVERIFY(!window.document()->isModified());
    QCOMPARE(window.scenarioPath(), path);
    QVERIFY(window.document()->setValue("/training/seq_len", 4096, "seq"));
    QVERIFY(window.isWindowModified());
    window.setSavePromptOverride(QMessageBox::Save);
    QVERIFY(window.maybeSave()); // saves
    QVERIFY(!window.document()->isModified());

    MainWindow reopened(coreEstimator());
    reopened.setRememberRecentFiles(false);
    QVERIFY(reopened.openScenario(path));
    QCOMPARE(reopened.document()->scenario(), window.document()->scenario());
    QCOMPARE(reopened.document()->resolved()->training.seqLen, std::int64_t(4096));

    QVERIFY(window.document()->setValue("/training/seq_len", 2048, "seq"));
    window.setSavePromptOverride(QMessageBox::Discard);
    QVERIFY(window.close());
}

void TestGuiEditing::screenshotsOfEachView() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate());
    for (const char* view :
         {"dashboard", "model", "cluster", "plan", "training", "summary", "layout", "file"}) {
        QVERIFY(window.showView(view));
        shoot(window, QStringLiteral("view-%1").arg(view));
    }
    QVERIFY(!window.showView("nowhere"));
}

void TestGuiEditing::darkAndChineseScreenshots() {
    const QPalette original = QApplication::palette();
    const QPalette dark = test::darkPalette();
    QApplication::setPalette(dark);
    {
        MainWindow window(coreEstimator());
        window.setRememberRecentFiles(false);
        QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
        QVERIFY(window.waitForEstimate());
        shoot(window, "dark-dashboard");
        // The charts' background follows the palette.
        const QImage chart = window.dashboard()->memoryChart()->grab().toImage();
        QVERIFY(chart.pixelColor(chart.width() / 2, chart.height() / 2).lightnessF() < 0.5);
        qobject_cast<QSpinBox*>(window.modelEditor()->form()->field("/model/ffn_hidden"))
            ->setValue(28676);
        window.showView("plan");
        shoot(window, "dark-invalid-field-plan");
    }
    QApplication::setPalette(original);

    QVERIFY(installTranslations("zh_CN"));
    {
        MainWindow window(coreEstimator());
        window.setRememberRecentFiles(false);
        QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
        QVERIFY(window.waitForEstimate());
        QCOMPARE(window.menuBar()->actions().value(0)->text(), QString("文件(&F)"));
        shoot(window, "zh_CN-dashboard");
        window.showView("plan");
        shoot(window, "zh_CN-plan");
    }
    removeTranslations();
}

void TestGuiEditing::binaryScreenshotOfAView() {
    const QString out = screenshotDir() + "/binary-view-plan.png";
    QProcess process;
    process.start(test::binDir() + "/trainscape",
                  {"--screenshot", out, "--view", "plan", example("llama3-70b-64xh100.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(!QImage(out).isNull());
    process.start(test::binDir() + "/trainscape",
                  {"--screenshot", out, "--view", "bogus", example("llama3-70b-64xh100.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 1);
}

void TestGuiEditing::settingsAndWindowStatePersist() {
    // Test mode (initTestCase): QSettings lives under ~/.qttest, never the user's.
    const Preference<int> answer{"Test/answer", 42};
    answer.clear();
    QCOMPARE(answer.get(), 42);
    answer.set(7);
    QCOMPARE(int(answer), 7);
    answer.clear();

    settings::recentFiles.clear();
    {
        MainWindow window(coreEstimator());
        window.resize(1234, 777);
        QVERIFY(window.openScenario(example("llama3-8b-8xh100.json")));
        QCOMPARE(settings::recentFiles.get().value(0),
                 QFileInfo(example("llama3-8b-8xh100.json")).absoluteFilePath());
        window.showView("training");
        QVERIFY(window.close());
    }
    QVERIFY(!settings::windowGeometry.get().isEmpty());
    QVERIFY(!settings::windowState.get().isEmpty());
    MainWindow restored(coreEstimator());
    restored.restoreWindowState();
    QCOMPARE(restored.size(), QSize(1234, 777));
    settings::recentFiles.clear();
    settings::windowGeometry.clear();
    settings::windowState.clear();
}

QTEST_MAIN(TestGuiEditing)
#include "tst_gui_editing.moc"
