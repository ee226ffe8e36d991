// File > Export launch configuration… and File > Import job…, driven offscreen: the target
// list, the live preview that follows an edit, refusals shown in place, Save (atomic) and
// Copy; the import dialog reading a launch script into a new document. Screenshots go to
// build/test-output/screenshots/export-*.png.

#include "TestSupport.h"

#include "ExportDialog.h"
#include "ImportJobDialog.h"
#include "MainWindow.h"
#include "ScenarioDocument.h"
#include "Screenshot.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFontMetricsF>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

QString screenshotDir() {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

void shoot(QWidget& widget, const QString& name) {
    QString error;
    QVERIFY2(saveScreenshot(widget, screenshotDir() + "/" + name + ".png", &error, {1100, 720}),
             qPrintable(error));
}

QAction* fileMenuAction(MainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text().remove('&').startsWith(text))
                    return a;
    return nullptr;
}

} // namespace

class TestGuiExport : public QObject {
    Q_OBJECT
private slots:
    void menuHasBothActions();
    void previewFollowsTargetAndEdits();
    void refusalShownInPlace();
    void saveAndCopy();
    void adaptControl();
    void torchtuneRecipe();
    void importJobDialogReadsScript();
};

void TestGuiExport::menuHasBothActions() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(fileMenuAction(window, "Export Launch Configuration"));
    QVERIFY(fileMenuAction(window, "Import Job"));
}

void TestGuiExport::previewFollowsTargetAndEdits() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json"));
    ExportDialog dialog(window.document());
    QVERIFY(dialog.selectTarget("megatron"));
    auto* tabs = dialog.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 1);
    QCOMPARE(tabs->tabText(0), QString("train_megatron.sh"));
    QVERIFY(dialog.currentFileText().contains("--tensor-model-parallel-size 8"));
    auto* view = qobject_cast<QPlainTextEdit*>(tabs->widget(0));
    // The property that matters: every character advances as far as every other (a fixed
    // font). QFontInfo::fixedPitch() reads fontconfig's spacing, which some monospace fonts
    // (Noto Mono, pulled in by ImageMagick) leave unset, so it is not asked.
    const QFontMetricsF metrics(view->font());
    const qreal advance = metrics.horizontalAdvance(QLatin1Char('m'));
    QVERIFY(advance > 0);
    for (const QChar c : QStringLiteral("il.-W0 _|"))
        QCOMPARE(metrics.horizontalAdvance(c), advance);
    // Highlighted: the flag has a format of its own.
    const QTextBlock block = view->document()->findBlock(
        int(view->toPlainText().indexOf("--tensor-model-parallel-size")));
    QVERIFY(!block.layout()->formats().isEmpty());
    dialog.show();
    shoot(dialog, "export-megatron-llama3-70b");

    // An edit in the document re-renders the preview at once.
    QVERIFY(window.document()->setValue("/training/global_batch", nlohmann::ordered_json(256),
                                        "batch 256"));
    QVERIFY(dialog.currentFileText().contains("--global-batch-size 256"));
    QVERIFY(window.document()->undoStack()->canUndo());
    window.document()->undoStack()->undo();
    QVERIFY(dialog.currentFileText().contains("--global-batch-size 128"));

    QVERIFY(dialog.selectTarget("k8s"));
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->tabText(0), QString("trainjob.yaml"));
    QVERIFY(dialog.currentFileText().contains("kind: TrainJob"));
    shoot(dialog, "export-k8s-llama3-70b");
}

void TestGuiExport::refusalShownInPlace() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json"));
    ExportDialog dialog(window.document());
    QVERIFY(dialog.selectTarget("torchtitan"));
    QVERIFY(!dialog.result().ok());
    auto* refusals = dialog.findChild<QLabel*>("refusals");
    QVERIFY(refusals);
    QVERIFY(refusals->text().contains("/parallelism/zero"));
    QCOMPARE(dialog.findChild<QStackedWidget*>()->currentWidget(), refusals);
    for (auto* b : dialog.findChildren<QPushButton*>())
        if (b->text().contains("Save") || b->text().contains("Copy"))
            QVERIFY(!b->isEnabled());
    dialog.show();
    shoot(dialog, "export-torchtitan-refused");
    // Fix the field the refusal names: the preview appears.
    QVERIFY(window.document()->setValue("/parallelism/zero", nlohmann::ordered_json(3), "zero 3"));
    QVERIFY(window.document()->setValue("/parallelism/pp", nlohmann::ordered_json(1), "pp 1"));
    QVERIFY(window.document()->setValue("/parallelism/dp", nlohmann::ordered_json(8), "dp 8"));
    QVERIFY(window.document()->setValue("/parallelism/vpp", nlohmann::ordered_json(1), "vpp 1"));
    QVERIFY(window.document()->setValue("/parallelism/schedule", nlohmann::ordered_json("1f1b"),
                                        "1f1b"));
    // torchtitan's async TP runs under torch.compile only (distributed/tensor_parallel.py).
    QVERIFY(
        window.document()->setValue("/training/compile", nlohmann::ordered_json(true), "compile"));
    QVERIFY2(dialog.result().ok(), qPrintable(refusals->text()));
    QVERIFY(dialog.currentFileText().contains("fsdp_reshard_after_forward = 'always'"));
    shoot(dialog, "export-torchtitan-after-fix");
}

void TestGuiExport::saveAndCopy() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(
        window.openScenario(test::sourceDir() + "/resources/examples/gpt3-175b-1024xa100.json"));
    ExportDialog dialog(window.document());
    QVERIFY(dialog.selectTarget("slurm"));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(dialog.saveTo(dir.filePath("job"), &error), qPrintable(error));
    QVERIFY(QFileInfo(dir.filePath("job/train.sbatch")).isExecutable());
    QCOMPARE(QString::fromStdString(test::readAll(dir.filePath("job/train.sbatch"))),
             dialog.currentFileText());
    for (auto* b : dialog.findChildren<QPushButton*>())
        if (b->text().contains("Copy"))
            b->click();
    QCOMPARE(QApplication::clipboard()->text(), dialog.currentFileText());
    // A refused target writes nothing.
    QVERIFY(dialog.selectTarget("torchtitan"));
    QVERIFY(!dialog.saveTo(dir.filePath("refused"), &error));
    QVERIFY(!QDir(dir.filePath("refused")).exists());
}

// "Adapt plan to this target": DeepSpeed refuses the 70B plan (selective recompute, VPP, TP
// with PP, SP); adapted, the dialog shows its files with ADAPTATION.md and the adapted
// scenario, lists the changes with the re-estimate, and saves them all.
void TestGuiExport::adaptControl() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json"));
    ExportDialog dialog(window.document());
    QVERIFY(dialog.selectTarget("deepspeed"));
    QVERIFY(!dialog.result().ok());
    auto* refusals = dialog.findChild<QLabel*>("refusals");
    QVERIFY(refusals->text().contains("Adapt plan to this target"));
    QCheckBox* adapt = nullptr;
    for (auto* box : dialog.findChildren<QCheckBox*>())
        if (box->text().remove('&') == "Adapt plan to this target")
            adapt = box;
    QVERIFY(adapt);
    QVERIFY(!adapt->isChecked());
    adapt->click();
    QVERIFY(dialog.adapting());
    QVERIFY2(dialog.result().ok(), qPrintable(refusals->text()));
    QVERIFY(dialog.adaptation());
    QVERIFY(!dialog.adaptation()->changes.empty());
    auto* tabs = dialog.findChild<QTabWidget*>();
    QStringList names;
    for (int i = 0; i < tabs->count(); ++i)
        names << tabs->tabText(i);
    QVERIFY(names.contains("ds_config.json"));
    QVERIFY(names.contains("ADAPTATION.md"));
    QVERIFY(names.contains("adapted-scenario.json"));
    QString summary;
    for (auto* label : dialog.findChildren<QLabel*>())
        if (label->text().contains("Adapted plan"))
            summary = label->text();
    QVERIFY2(summary.contains("/parallelism/recompute"), qPrintable(summary));
    QVERIFY(summary.contains("GiB"));
    dialog.show();
    shoot(dialog, "export-deepspeed-adapted");
    QTemporaryDir dir;
    QString error;
    QVERIFY2(dialog.saveTo(dir.filePath("ds"), &error), qPrintable(error));
    QVERIFY(QFile::exists(dir.filePath("ds/adapted-scenario.json")));
    QVERIFY(QFile::exists(dir.filePath("ds/ADAPTATION.md")));
    // The adapted scenario opens in Trainscape.
    MainWindow other;
    other.setRememberRecentFiles(false);
    QVERIFY(other.openScenario(dir.filePath("ds/adapted-scenario.json")));
    QVERIFY(other.document()->resolved());
    QCOMPARE(other.document()->resolved()->parallel.recompute, RecomputeMode::Full);
    // Off again: the refusal stands.
    adapt->click();
    QVERIFY(!dialog.result().ok());
    QVERIFY(!dialog.adaptation());
}

// The QLoRA example on one RTX 4090 exports to torchtune as it is: the recipe config and the
// `tune run` script in the preview, and an edit of the rank reaches the YAML at once.
void TestGuiExport::torchtuneRecipe() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::sourceDir() +
                                "/resources/examples/llama3.1-8b-qlora-1xrtx4090.json"));
    ExportDialog dialog(window.document());
    QVERIFY(dialog.selectTarget("torchtune"));
    QVERIFY(dialog.result().ok());
    auto* tabs = dialog.findChild<QTabWidget*>();
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->tabText(0), QString("torchtune.yaml"));
    QCOMPARE(tabs->tabText(1), QString("run_torchtune.sh"));
    tabs->setCurrentIndex(0);
    QVERIFY(dialog.currentFileText().contains(
        "_component_: torchtune.models.llama3_1.qlora_llama3_1_8b"));
    QVERIFY(dialog.currentFileText().contains("lora_rank: 16"));
    QVERIFY(dialog.currentFileText().contains("PLACEHOLDER"));
    dialog.show();
    shoot(dialog, "export-torchtune-qlora");
    QVERIFY(
        window.document()->setValue("/finetune/lora_rank", nlohmann::ordered_json(32), "rank 32"));
    QVERIFY(dialog.currentFileText().contains("lora_rank: 32"));
    tabs->setCurrentIndex(1);
    QVERIFY(dialog.currentFileText().contains("tune run lora_finetune_single_device --config"));
}

void TestGuiExport::importJobDialogReadsScript() {
    ImportJobDialog dialog;
    dialog.setJob(test::sourceDir() + "/tests/fixtures/import/megatron-handwritten.sh",
                  ImportFormat::Megatron);
    QVERIFY2(dialog.scenario(), qPrintable(dialog.messages()));
    QVERIFY(dialog.messages().contains("--my-custom-flag 7"));
    QCOMPARE(dialog.scenario()->parallelism->tp.value_or(0), 4);
    dialog.show();
    shoot(dialog, "import-job-megatron");

    // DeepSpeed needs the model: without the Hugging Face config the dialog says so.
    QTemporaryDir dir;
    QFile ds(dir.filePath("ds_config.json"));
    QVERIFY(ds.open(QIODevice::WriteOnly));
    ds.write(R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 1,
                 "gradient_accumulation_steps": 8, "bf16": {"enabled": true},
                 "zero_optimization": {"stage": 3}})");
    ds.close();
    dialog.setJob(ds.fileName(), ImportFormat::DeepSpeed);
    QVERIFY(!dialog.scenario());
    QVERIFY(dialog.messages().contains("--hf-config"));
    dialog.setSequenceLength(4096);
    dialog.setHuggingFaceConfig(test::sourceDir() + "/tests/fixtures/hf/llama3-8b/config.json");
    QVERIFY2(dialog.scenario(), qPrintable(dialog.messages()));
    QCOMPARE(dialog.scenario()->parallelism->zero.value_or(-1), 3);
}

QTEST_MAIN(TestGuiExport)
#include "tst_gui_export.moc"
