// Fine-tuning in the main window, offscreen: the bundled QLoRA plan of Llama 3.1 8B on one
// RTX 4090 estimates, its memory chart splits the frozen base, the adapters, their
// optimizer states and the activations; the Training dock's Fine-tuning group switches the
// method in one undo step (QLoRA -> LoRA stores the base in 16 bits: more memory); a Hugging
// Face import keeps the fine-tuning plan. Screenshots of the dashboard and the Training dock.

#include "TestSupport.h"

#include "MainWindow.h"
#include "MemoryChart.h"
#include "ModelEditor.h"
#include "ResultsDashboard.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"
#include "Screenshot.h"
#include "Settings.h"
#include "TrainingEditor.h"
#include "Translations.h"

#include "estimate/Estimator.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

EstimateFunction coreEstimator() {
    return [](const ResolvedScenario& scenario, Diagnostics& diags) {
        return estimatePlan(scenario, defaultEstimatorSettings(scenario), diags);
    };
}

QString example() {
    return test::sourceDir() + "/resources/examples/llama3.1-8b-qlora-1xrtx4090.json";
}

void shoot(MainWindow& window, const QString& name) {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QString error;
    QVERIFY2(saveScreenshot(window, dir + "/" + name + ".png", &error, {1600, 1000}),
             qPrintable(error));
}

QStringList legendNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->plottableCount(); ++i)
        names << plot->plottable(i)->name();
    return names;
}

} // namespace

class TestGuiFinetune : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void qloraOnOne4090();
    void methodChangeIsOneUndoStep();
    void huggingFaceImportKeepsTheFinetune();
};

void TestGuiFinetune::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    removeTranslations();
    QVERIFY(!test::sourceDir().isEmpty());
}

void TestGuiFinetune::qloraOnOne4090() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example()));
    QVERIFY(window.waitForEstimate());
    const std::optional<Estimate>& e = window.estimate();
    QVERIFY(e.has_value());
    QVERIFY(e->fits);
    QCOMPARE(e->capacityBytes, 24.0 * double(1ull << 30));
    QVERIFY(e->peakBreakdown.frozenWeights > 0);
    QVERIFY(e->peakBreakdown.weights - e->peakBreakdown.frozenWeights > 0); // the adapters
    const QStringList names = legendNames(window.dashboard()->memoryChart()->plot());
    for (const char* part : {"Frozen base", "Adapters", "Adapter optimizer states", "Activations"})
        QVERIFY2(names.contains(part), part);
    QVERIFY(!names.contains("Weights"));
    shoot(window, "qlora-llama3.1-8b-1xrtx4090-dashboard");
    QVERIFY(window.showView("training"));
    shoot(window, "qlora-llama3.1-8b-1xrtx4090-training");
}

void TestGuiFinetune::methodChangeIsOneUndoStep() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example()));
    QVERIFY(window.waitForEstimate());
    const double qlora = window.estimate()->peakBytes;
    auto* method =
        qobject_cast<QComboBox*>(window.trainingEditor()->form()->field("/finetune/method"));
    QVERIFY(method);
    QCOMPARE(method->currentData().toString(), QString("\"qlora\""));
    const int lora = method->findData(QString("\"lora\""));
    QVERIFY(lora >= 0);
    method->setCurrentIndex(lora);
    emit method->activated(lora);
    QCOMPARE(window.document()->undoStack()->count(), 1);
    QVERIFY(window.waitForEstimate());
    const ResolvedScenario& r = *window.document()->resolved();
    QVERIFY(r.finetune);
    QCOMPARE(r.finetune->baseWeights, BaseWeights::Bf16); // LoRA's default base
    QCOMPARE(r.finetune->loraRank, 16);                   // kept from the file
    QVERIFY(window.estimate()->peakBytes > qlora + 8.0 * double(1ull << 30));
    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->resolved()->finetune->baseWeights, BaseWeights::Nf4);

    const int none = method->findData(QString("null"));
    QVERIFY(none >= 0);
    method->setCurrentIndex(none);
    emit method->activated(none);
    QVERIFY(!window.document()->resolved()->finetune);
}

void TestGuiFinetune::huggingFaceImportKeepsTheFinetune() {
    MainWindow window(coreEstimator());
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(example()));
    QString message;
    QVERIFY2(window.modelEditor()->importHuggingFaceConfig(
                 test::sourceDir() + "/tests/fixtures/hf/llama3-8b/config.json", &message),
             qPrintable(message));
    const ResolvedScenario& r = *window.document()->resolved();
    QCOMPARE(r.model.layers, 32);
    QVERIFY(r.finetune);
    QCOMPARE(r.finetune->method, FinetuneMethod::Qlora);
    QVERIFY(window.waitForEstimate());
    QVERIFY(window.estimate() && window.estimate()->fits);
}

QTEST_MAIN(TestGuiFinetune)
#include "tst_gui_finetune.moc"
