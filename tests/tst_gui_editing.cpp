// Editing in the main window with core's estimator, offscreen: a new user picks Llama 3
// 70B on 64 H100, changes TP from 8 to 4 in the Parallel plan dock and sees memory and step
// time change; undo brings back both the scenario and the estimate; an invalid value turns
// the right field red with core's message; a Hugging Face config.json import is one undo
// step; the charts draw, answer hovering and export; the power chart draws the energy
// model's trace and split; save, the dirty marker and the save
// prompt; screenshots of each main view (light, dark, zh_CN) are kept as artifacts.

#include "DarkPalette.h"
#include "TestSupport.h"

#include "ClusterEditor.h"
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
#include "TrainingEditor.h"
#include "Translations.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
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
    void newPlanAndHostFieldsWriteTheirKeys_data();
    void newPlanAndHostFieldsWriteTheirKeys();
    void hostFieldsShowThePresetAsPlaceholder();
    void fp8RecipeFollowsPrecision();
    void gradientBufferFollowsMasterWeights();
    void degreeChangeKeepsDpShardValid();
    void moeGroupsAndFp8DispatchEdits();
    void executionFieldsEditWithUndo();
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

    // Undo clears it (two edits of ffn_hidden are one step or two, as far apart as they were).
    while (window.document()->undoStack()->canUndo())
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

// Offload, hybrid sharding, CP communication, EP overlap and the host figures: each edit
// writes its JSON key through the undo stack, and undo gives back the scenario as it was
// (no empty "host" object left behind).
void TestGuiEditing::newPlanAndHostFieldsWriteTheirKeys_data() {
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("value"); // JSON
    auto row = [](const char* name, const char* pointer, const char* value) {
        QTest::newRow(name) << pointer << value;
    };
    row("offload optimizer", "/parallelism/offload/optimizer", "\"cpu\"");
    row("offload params", "/parallelism/offload/params", "\"nvme\"");
    row("offload activations", "/parallelism/offload/activations", "\"cpu\"");
    row("dp_shard 1", "/parallelism/dp_shard", "1");
    row("dp_shard full", "/parallelism/dp_shard", "null");
    row("cp_comm", "/parallelism/cp_comm", "\"allgather\"");
    row("overlap ep", "/parallelism/overlap/ep", "true");
    row("host pcie", "/cluster/host/pcie_gb_s", "40");
    row("host memory", "/cluster/host/memory_gib", "1024");
    row("host memory bandwidth", "/cluster/host/memory_gb_s", "307.2");
    row("host nvme read", "/cluster/host/nvme_read_gb_s", "53");
    row("host nvme write", "/cluster/host/nvme_write_gb_s", "26");
    row("host nvme capacity", "/cluster/host/nvme_gib", "15.36");
}

void TestGuiEditing::newPlanAndHostFieldsWriteTheirKeys() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    const std::string key = pointer.toStdString();
    const nlohmann::ordered_json expected = nlohmann::ordered_json::parse(value.toStdString());
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json"))); // cp 1, dp 2, zero 1
    ScenarioDocument* document = window.document();
    ScenarioForm* plan = window.planEditor()->form();
    if (key == "/parallelism/cp_comm") { // needs context parallelism first
        QVERIFY(!plan->field(key)->isEnabled());
        auto* cp = qobject_cast<QComboBox*>(plan->field("/parallelism/cp"));
        QVERIFY(cp && chooseDegree(cp, 2));
        QCOMPARE(document->resolved()->parallel.cp, 2);
        QVERIFY(plan->field(key)->isEnabled());
    }
    const Scenario before = document->scenario();
    const std::optional<nlohmann::ordered_json> was = document->explicitValue(key);
    const int steps = document->undoStack()->count();

    if (auto* combo = qobject_cast<QComboBox*>(plan->field(key))) {
        const int index = combo->findData(QString::fromStdString(expected.dump()));
        QVERIFY2(index >= 0, qPrintable(value));
        auto* items = qobject_cast<QStandardItemModel*>(combo->model());
        QVERIFY(items->item(index)->isEnabled());
        combo->setCurrentIndex(index);
        emit combo->activated(index);
    } else if (auto* flag = qobject_cast<QCheckBox*>(plan->field(key))) {
        QVERIFY(flag->isEnabled());
        flag->setChecked(expected.get<bool>());
    } else {
        QLineEdit* edit = window.clusterEditor()->hostField(key);
        QVERIFY(edit);
        edit->setText(QLocale().toString(expected.get<double>(), 'g', 8));
        emit edit->editingFinished();
    }
    QCOMPARE(document->undoStack()->count(), steps + 1);
    QVERIFY2(document->explicitValue(key) == expected,
             document->explicitValue(key) ? document->explicitValue(key)->dump().c_str()
                                          : "absent");
    QVERIFY2(document->resolved(), qPrintable(document->errorAt(key)));
    const std::optional<nlohmann::ordered_json> resolved = document->resolvedValue(key);
    if (!expected.is_null())
        QVERIFY(resolved && *resolved == expected);

    document->undoStack()->undo();
    QVERIFY(document->scenario() == before);
    QVERIFY(document->explicitValue(key) == was);
}

// training.fp8_recipe: editable only with precision "fp8", one undo step per choice, and
// leaving "fp8" removes the recipe in the same step (core refuses it with other precisions).
void TestGuiEditing::fp8RecipeFollowsPrecision() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-8b-8xh100.json"))); // bf16
    ScenarioDocument* document = window.document();
    ScenarioForm* training = window.trainingEditor()->form();
    auto* precision = qobject_cast<QComboBox*>(training->field("/training/precision"));
    auto* recipe = qobject_cast<QComboBox*>(training->field("/training/fp8_recipe"));
    QVERIFY(precision && recipe);
    QVERIFY(!recipe->isEnabled());
    auto choose = [](QComboBox* combo, const char* value) {
        const int index = combo->findData(QString::fromStdString(nlohmann::json(value).dump()));
        if (index < 0)
            return false;
        combo->setCurrentIndex(index);
        emit combo->activated(index);
        return true;
    };
    const int steps = document->undoStack()->count();
    QVERIFY(choose(precision, "fp8"));
    QCOMPARE(document->undoStack()->count(), steps + 1);
    QVERIFY(recipe->isEnabled());
    QCOMPARE(recipe->currentData().toString(), QStringLiteral("\"delayed\"")); // the default
    QVERIFY(training->isFieldInherited("/training/fp8_recipe"));
    QVERIFY(choose(recipe, "blockwise"));
    QCOMPARE(document->undoStack()->count(), steps + 2);
    QVERIFY(document->explicitValue("/training/fp8_recipe") == nlohmann::ordered_json("blockwise"));
    QVERIFY(document->resolved());
    QCOMPARE(document->resolved()->training.fp8Recipe, Fp8Recipe::Blockwise);

    QVERIFY(choose(precision, "bf16"));
    QCOMPARE(document->undoStack()->count(), steps + 3);
    QVERIFY(!document->explicitValue("/training/fp8_recipe"));
    QVERIFY2(document->resolved(), qPrintable(document->errorAt("/training/fp8_recipe")));
    QVERIFY(!recipe->isEnabled());
    document->undoStack()->undo(); // back to fp8 with the blockwise recipe, in one step
    QVERIFY(document->explicitValue("/training/fp8_recipe") == nlohmann::ordered_json("blockwise"));
    QCOMPARE(document->resolved()->training.precision, Precision::Fp8);
    QVERIFY(recipe->isEnabled());
}

// training.grad_reduce_dtype: a choice in the Numerics group, read with FP32 master weights
// only (disabled without them), one undo step per choice.
void TestGuiEditing::gradientBufferFollowsMasterWeights() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    ScenarioDocument* document = window.document();
    ScenarioForm* training = window.trainingEditor()->form();
    auto* buffer = qobject_cast<QComboBox*>(training->field("/training/grad_reduce_dtype"));
    auto* masters = qobject_cast<QCheckBox*>(training->field("/training/master_weights"));
    QVERIFY(buffer && masters);
    QVERIFY(buffer->isEnabled());
    QVERIFY(!document->explicitValue("/training/grad_reduce_dtype")); // unstated: FP32
    const int index = buffer->findData(QStringLiteral("\"bf16\""));
    QVERIFY(index >= 0);
    const int steps = document->undoStack()->count();
    buffer->setCurrentIndex(index);
    emit buffer->activated(index);
    QCOMPARE(document->undoStack()->count(), steps + 1);
    QVERIFY(document->explicitValue("/training/grad_reduce_dtype") ==
            nlohmann::ordered_json("bf16"));
    QVERIFY(document->resolved());
    QCOMPARE(*document->resolved()->training.gradReduceDtype, GradReduceDtype::Bf16);
    window.showView("training");
    shoot(window, "edit-gradient-buffer");
    masters->click(); // master weights off: the buffer is the training precision's
    QVERIFY(document->resolved());
    QVERIFY(!document->resolved()->training.masterWeights);
    QVERIFY(!buffer->isEnabled());
    document->undoStack()->undo();
    QVERIFY(document->resolved()->training.masterWeights);
    QVERIFY(buffer->isEnabled());
    // Its neighbour in the Batch group, training.document_tokens: unset, editable.
    QWidget* documents = training->field("/training/document_tokens");
    QVERIFY(documents && documents->isEnabled());
    QVERIFY(!document->explicitValue("/training/document_tokens"));
    auto* spin = qobject_cast<QSpinBox*>(documents);
    QVERIFY(spin);
    spin->setValue(1024);
    QVERIFY(document->explicitValue("/training/document_tokens") == nlohmann::ordered_json(1024));
    QCOMPARE(*document->resolved()->training.documentTokens, std::int64_t(1024));
    document->undoStack()->undo();
    QVERIFY(!document->explicitValue("/training/document_tokens"));
}

void TestGuiEditing::hostFieldsShowThePresetAsPlaceholder() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json"))); // dgx-h100, no host
    const ClusterPreset* preset = Catalog::builtIn().cluster("dgx-h100");
    QVERIFY(preset);
    const std::pair<const char*, std::optional<double>> keys[] = {
        {"/cluster/host/pcie_gb_s", preset->host.pcieGBps},
        {"/cluster/host/memory_gib", preset->host.memoryGiB},
        {"/cluster/host/nvme_read_gb_s", preset->host.nvmeReadGBps},
        {"/cluster/host/nvme_gib", preset->host.nvmeGiB}};
    for (const auto& [key, figure] : keys) {
        QLineEdit* edit = window.clusterEditor()->hostField(key);
        QVERIFY(edit);
        QVERIFY(edit->text().isEmpty());
        QCOMPARE(edit->placeholderText(),
                 figure ? QLocale().toString(*figure, 'g', 8) : QString("unknown"));
    }
    // Typed, the figure is the file's; cleared, the key goes and the preset's is back.
    QLineEdit* memory = window.clusterEditor()->hostField("/cluster/host/memory_gib");
    memory->setText("4096");
    emit memory->editingFinished();
    QCOMPARE(window.document()->resolved()->cluster.host.memoryGiB, std::optional<double>(4096));
    QCOMPARE(memory->text(), QLocale().toString(4096.0, 'g', 8));
    QCOMPARE(window.document()->undoStack()->count(), 1);
    memory->clear();
    emit memory->editingFinished();
    QVERIFY(!window.document()->explicitValue("/cluster/host"));
    QCOMPARE(window.document()->resolved()->cluster.host.memoryGiB, preset->host.memoryGiB);
    QVERIFY(memory->text().isEmpty());
    // Typing and clearing merge into one step back to the start: no step at all.
    QCOMPARE(window.document()->undoStack()->count(), 0);
    // A figure core refuses (below its limit) turns the field red with the reader's message.
    memory->setText("0");
    emit memory->editingFinished();
    QVERIFY(memory->property("invalid").toBool());
    QVERIFY2(memory->toolTip().contains("out of range"), qPrintable(memory->toolTip()));
    QCOMPARE(window.document()->undoStack()->count(), 0);
    window.showView("cluster");
    shoot(window, "edit-host-figures");
}

// A degree that changes dp sends an explicit dp_shard that no longer divides it back to null
// (full sharding), in the same undo step, so that the degree stays on offer.
void TestGuiEditing::degreeChangeKeepsDpShardValid() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json"))); // dp 2
    ScenarioDocument* document = window.document();
    QVERIFY(document->setValue("/parallelism/dp_shard", 2, "dp_shard"));
    auto* cp = qobject_cast<QComboBox*>(window.planEditor()->form()->field("/parallelism/cp"));
    auto* items = qobject_cast<QStandardItemModel*>(cp->model());
    QVERIFY(items->item(cp->findText("2"))->isEnabled());
    QVERIFY(chooseDegree(cp, 2)); // dp 2 -> 1
    QVERIFY(document->resolved());
    QCOMPARE(document->explicitValue("/parallelism/dp_shard"), nlohmann::ordered_json(nullptr));
    QCOMPARE(document->resolved()->parallel.dpShard, std::int64_t(1));
    document->undoStack()->undo();
    QCOMPARE(document->explicitValue("/parallelism/dp_shard"), nlohmann::ordered_json(2));
}

// Group-limited routing (model.moe groups, groups_per_token) and FP8 dispatch on the
// DeepSeek-V3 example: each choice is one undo step that writes both routing keys (core
// refuses one without the other), on a copy of the preset's MoE object when the file has
// none; undo gives back the file as it was.
void TestGuiEditing::moeGroupsAndFp8DispatchEdits() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("deepseek-v3-1024xh100.json"))); // preset: 8 groups, 4
    ScenarioDocument* document = window.document();
    ScenarioForm* model = window.modelEditor()->form();
    auto* groups = qobject_cast<QComboBox*>(model->field("/model/moe/groups"));
    auto* perToken = qobject_cast<QComboBox*>(model->field("/model/moe/groups_per_token"));
    QVERIFY(groups && perToken);
    QVERIFY(groups->isEnabled() && perToken->isEnabled());
    QCOMPARE(groups->currentText(), QString("8"));
    QCOMPARE(perToken->currentText(), QString("4"));
    QVERIFY(model->isFieldInherited("/model/moe/groups"));
    QVERIFY(!document->explicitValue("/model/moe"));
    QVERIFY(window.waitForEstimate());
    const double limitedStep = window.estimate()->stepSeconds;
    const Scenario before = document->scenario();
    auto choose = [](QComboBox* combo, const nlohmann::ordered_json& value) {
        const int index = combo->findData(QString::fromStdString(value.dump()));
        if (index < 0)
            return false;
        combo->setCurrentIndex(index);
        emit combo->activated(index);
        return true;
    };

    // No group limit: the preset's MoE object written without the keys, one step.
    QVERIFY(choose(groups, nullptr));
    QCOMPARE(document->undoStack()->count(), 1);
    QVERIFY(document->explicitValue("/model/moe"));
    QVERIFY(!document->explicitValue("/model/moe/groups"));
    QVERIFY(document->resolved() && document->resolved()->model.moe);
    QCOMPARE(document->resolved()->model.moe->groupCount(), 0);
    QCOMPARE(document->resolved()->model.moe->experts, 256);
    QVERIFY(!perToken->isEnabled());
    QVERIFY(window.waitForEstimate());
    QVERIFY2(window.estimate()->stepSeconds > limitedStep,
             qPrintable(QString("%1 vs %2").arg(window.estimate()->stepSeconds).arg(limitedStep)));
    shoot(window, "edit-moe-groups-none");

    // 16 groups: the groups per token come along (half of them, within top_k = 8).
    QVERIFY(choose(groups, 16));
    QCOMPARE(document->undoStack()->count(), 2);
    QCOMPARE(document->explicitValue("/model/moe/groups"), nlohmann::ordered_json(16));
    QCOMPARE(document->explicitValue("/model/moe/groups_per_token"), nlohmann::ordered_json(8));
    QCOMPARE(document->resolved()->model.moe->groupsPerTokenCount(), 8);
    QVERIFY(perToken->isEnabled());
    QCOMPARE(perToken->count(), 16);
    // More groups per token than experts per token (8) is offered disabled, with the reason.
    auto* items = qobject_cast<QStandardItemModel*>(perToken->model());
    const int nine = perToken->findText("9");
    QVERIFY(nine >= 0 && !items->item(nine)->isEnabled());
    QVERIFY(!perToken->itemData(nine, Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(choose(perToken, 2));
    QCOMPARE(document->undoStack()->count(), 3);
    QCOMPARE(document->resolved()->model.moe->groupsPerTokenCount(), 2);
    // Re-choosing the value in effect writes nothing.
    QVERIFY(choose(perToken, 2));
    QCOMPARE(document->undoStack()->count(), 3);
    document->undoStack()->undo();
    document->undoStack()->undo();
    document->undoStack()->undo();
    QVERIFY(document->scenario() == before);
    QCOMPARE(groups->currentText(), QString("8"));

    // FP8 dispatch: the example has it on; off is one step and slows the step.
    ScenarioForm* plan = window.planEditor()->form();
    auto* fp8 = qobject_cast<QCheckBox*>(plan->field("/parallelism/moe_dispatch_fp8"));
    QVERIFY(fp8 && fp8->isEnabled() && fp8->isChecked());
    QVERIFY(window.waitForEstimate());
    const double fp8Step = window.estimate()->stepSeconds;
    fp8->setChecked(false);
    QCOMPARE(document->undoStack()->count(), 1);
    QCOMPARE(document->explicitValue("/parallelism/moe_dispatch_fp8"),
             nlohmann::ordered_json(false));
    QVERIFY(!document->resolved()->parallel.moeDispatchFp8);
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate()->stepSeconds > fp8Step);
    document->undoStack()->undo();
    QVERIFY(document->scenario() == before);
    QVERIFY(fp8->isChecked());

    // A dense model has neither: the fields are disabled.
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(!model->field("/model/moe/groups")->isEnabled());
    QVERIFY(!plan->field("/parallelism/moe_dispatch_fp8")->isEnabled());
}

// The execution keys in the plan dock: each choice is one undo step that writes the
// "execution" object the file lacks and changes the estimate; the pipeline-split slots also
// drop a written pipeline_layers in the same step; MoE-only fields are disabled on a dense
// model.
void TestGuiEditing::executionFieldsEditWithUndo() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example("deepseek-v3-1024xh100.json"))); // pp 16, recompute full
    ScenarioDocument* document = window.document();
    ScenarioForm* plan = window.planEditor()->form();
    const Scenario before = document->scenario();
    QCOMPARE(document->explicitValue("/execution/moe_dispatcher"),
             nlohmann::ordered_json("deepep"));
    QVERIFY(window.waitForEstimate());
    const double step = window.estimate()->stepSeconds;

    auto choose = [](QComboBox* combo, const char* value) {
        const int index =
            combo->findData(QString::fromStdString(nlohmann::ordered_json(value).dump()));
        if (index < 0)
            return false;
        combo->setCurrentIndex(index);
        emit combo->activated(index);
        return true;
    };
    auto* dispatcher = qobject_cast<QComboBox*>(plan->field("/execution/moe_dispatcher"));
    QVERIFY(dispatcher && dispatcher->isEnabled());
    QCOMPARE(dispatcher->currentData().toString(), QString("\"deepep\"")); // as the file says
    QVERIFY(choose(dispatcher, "alltoall")); // one copy per expert, a host sync per layer
    QCOMPARE(document->undoStack()->count(), 1);
    QCOMPARE(document->explicitValue("/execution/moe_dispatcher"),
             nlohmann::ordered_json("alltoall"));
    QCOMPARE(document->resolved()->execution.moeDispatcher, MoeDispatcher::AllToAll);
    QVERIFY(window.waitForEstimate());
    (void)step; // STEP-CHECK
    auto* graphs = qobject_cast<QComboBox*>(plan->field("/execution/cuda_graphs"));
    QVERIFY(!document->explicitValue("/execution/cuda_graphs"));
    QVERIFY(graphs && choose(graphs, "full"));
    QCOMPARE(document->undoStack()->count(), 2);
    QCOMPARE(document->resolved()->execution.cudaGraphs, CudaGraphs::Full);
    // Recomputed modules need selective recomputation (the example recomputes full layers).
    QVERIFY(!plan->field("/execution/recompute_modules")->isEnabled());
    shoot(window, "edit-execution-keys");

    // The embedding's pipeline-split slot: the written pipeline_layers give way to the split.
    auto* embedding =
        qobject_cast<QCheckBox*>(plan->field("/parallelism/embedding_in_pipeline_split"));
    QVERIFY(embedding && embedding->isEnabled() && !embedding->isChecked());
    embedding->setChecked(true);
    QCOMPARE(document->undoStack()->count(), 3);
    QCOMPARE(document->explicitValue("/parallelism/pipeline_layers"),
             nlohmann::ordered_json(nullptr));
    QVERIFY(document->resolved()->parallel.embeddingInPipelineSplit);
    QCOMPARE(document->resolved()->parallel.pipelineLayers.front(),
             3); // 62 slots over 16: 4, less 1
    for (int i = 0; i < 3; ++i)
        document->undoStack()->undo();
    QVERIFY(document->scenario() == before);
    QVERIFY(!embedding->isChecked());

    // A dense model: the MoE fields are disabled, CUDA graphs stay editable.
    QVERIFY(window.openScenario(example("llama3-70b-64xh100.json")));
    QVERIFY(!plan->field("/execution/moe_dispatcher")->isEnabled());
    QVERIFY(!plan->field("/execution/moe_force_balance")->isEnabled());
    QVERIFY(plan->field("/execution/cuda_graphs")->isEnabled());

    // The framework: shown as inferred (Megatron's distributed optimizer), then chosen; the
    // memory accounting follows in one undo step.
    auto* framework = qobject_cast<QComboBox*>(plan->field("/execution/framework"));
    QVERIFY(framework && framework->isEnabled());
    QVERIFY(!document->explicitValue("/execution/framework"));
    QCOMPARE(document->resolved()->execution.framework, Framework::Megatron);
    QVERIFY(window.waitForEstimate());
    const double megatronPeak = window.estimate()->peakBytes;
    const int undoBefore = document->undoStack()->count();
    QVERIFY(choose(framework, "pytorch"));
    QCOMPARE(document->undoStack()->count(), undoBefore + 1);
    QCOMPARE(document->resolved()->execution.framework, Framework::Pytorch);
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate()->peakBytes != megatronPeak);
    document->undoStack()->undo();
    QCOMPARE(document->resolved()->execution.framework, Framework::Megatron);

    // The cross entropy: inferred from the framework (fused under Megatron-LM), then "plain",
    // which holds FP32 logits: more on the last pipeline stage, which computes the loss (the
    // first stage's activations still set the peak), in one undo step.
    auto* loss = qobject_cast<QComboBox*>(plan->field("/execution/cross_entropy"));
    QVERIFY(loss && loss->isEnabled());
    QVERIFY(!document->explicitValue("/execution/cross_entropy"));
    QCOMPARE(document->resolved()->execution.crossEntropy, CrossEntropy::Fused);
    QVERIFY(window.waitForEstimate());
    const double fusedLast = window.estimate()->stages.back().allocatedBytes;
    QVERIFY(choose(loss, "plain"));
    QCOMPARE(document->undoStack()->count(), undoBefore + 1);
    QCOMPARE(document->resolved()->execution.crossEntropy, CrossEntropy::Plain);
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate()->stages.back().allocatedBytes > fusedLast);
    document->undoStack()->undo();
    QCOMPARE(document->resolved()->execution.crossEntropy, CrossEntropy::Fused);
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
    QVERIFY(!window.document()->isModified()); // nothing to lose until it is edited
    QVERIFY(window.windowTitle().startsWith("Llama 3 70B"));
    QVERIFY(window.document()->setValue("/training/micro_batch", 2, "micro-batch"));
    QVERIFY(window.document()->isModified()); // untitled and edited

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
    const QString refused = QString::fromLocal8Bit(process.readAllStandardError());
    // --help and the refusal name every view, and the window shows each of them.
    process.start(test::binDir() + "/trainscape", {"--help"});
    QVERIFY(process.waitForFinished(60000));
    const QString help = QString::fromLocal8Bit(process.readAllStandardOutput()).simplified();
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(MainWindow::viewNames().size() >= 14);
    for (const QString& view : MainWindow::viewNames()) {
        QVERIFY2(help.contains(view + ",") || help.contains(view + ")."), qPrintable(view));
        QVERIFY2(refused.contains(view), qPrintable(view));
        QVERIFY2(window.showView(view), qPrintable(view));
    }
    for (const char* view : {"search", "capacity", "topology"})
        QVERIFY2(help.contains(view), view);
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
