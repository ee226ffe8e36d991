// The main window under the offscreen platform: opening each bundled example fills the
// scenario tree, invalid files put their JSON paths into Messages, the estimate cards show
// "—" until an estimator is wired (its estimate arrives from a worker thread), the UI
// switches to Simplified Chinese, and both the in-process renderer and the real
// `trainscape --screenshot` write PNGs (kept under TRAINSCAPE_TEST_OUT/screenshots).

#include "DarkPalette.h"
#include "TestSupport.h"

#include "DiagnosticsModel.h"
#include "EstimateCards.h"
#include "MainWindow.h"
#include "ScenarioSummaryModel.h"
#include "Screenshot.h"
#include "Translations.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioResolver.h"

#include <QFileInfo>
#include <QImage>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <functional>

using namespace ts;
using namespace ts::gui;
using Card = EstimateCards::Card;

namespace {

const QString kNoValue = QStringLiteral("—");

QString screenshotDir() {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

// Every (property, value) of the tree, as "property=value" lines, for searching.
QStringList allRows(const ScenarioSummaryModel& model) {
    QStringList rows;
    for (int s = 0; s < model.rowCount(); ++s) {
        const QModelIndex section = model.index(s, 0);
        for (int r = 0; r < model.rowCount(section); ++r)
            rows << model.index(r, 0, section).data().toString() + QLatin1Char('=') +
                        model.index(r, 1, section).data().toString();
    }
    return rows;
}

QStringList messagePaths(const DiagnosticsModel& model) {
    QStringList paths;
    for (int r = 0; r < model.rowCount(); ++r)
        paths << model.index(r, DiagnosticsModel::PathColumn).data().toString();
    return paths;
}

QString valueAt(const ScenarioSummaryModel& model, const QString& jsonPath) {
    const QModelIndex index = model.indexForJsonPath(jsonPath);
    return index.isValid() ? index.siblingAtColumn(1).data().toString() : QString();
}

QString exampleName(const QString& path) {
    return QFileInfo(path).completeBaseName();
}

// The first bundled example, patched by `patch` and written to `dir`.
QString writePatchedExample(const QTemporaryDir& dir, const QString& name,
                            const std::function<void(nlohmann::ordered_json&)>& patch) {
    auto doc = nlohmann::ordered_json::parse(test::readAll(test::exampleFiles().value(0)));
    patch(doc);
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QByteArray::fromStdString(doc.dump(2)));
    return path;
}

// A stand-in estimate, to check how the window shows one (the real one is core's).
Estimate sampleEstimate() {
    Estimate e;
    e.fits = true;
    e.capacityBytes = 80.0 * (1ull << 30);
    e.peakBytes = 71.2 * (1ull << 30);
    e.peakBreakdown.weights = e.peakBytes;
    e.stepSeconds = 8.41;
    e.time.compute = 8.41;
    e.tokensPerS = 1.25e6;
    e.tokensPerSPerGpu = 1220;
    e.modelTflopsPerGpu = 400;
    e.mfu = 0.405;
    return e;
}

} // namespace

class TestGuiMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void openExample_data();
    void openExample();
    void invalidFile_data();
    void invalidFile();
    void cardsWithoutEstimate();
    void cardsWithEstimate();
    void estimatorIsUsed();
    void estimatorFailureIsReported();
    void jsonPathFindsField();
    void chineseTranslation();
    void translationsComplete();
    void darkPalette();
    void binaryScreenshot_data();
    void binaryScreenshot();
    void binaryScreenshotExitCodes();
};

void TestGuiMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // recent files never touch the user's settings
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    removeTranslations();
    QVERIFY2(!test::sourceDir().isEmpty(), "TRAINSCAPE_SOURCE_DIR is not set");
    QVERIFY2(test::exampleFiles().size() >= 5, "resources/examples holds too few scenarios");
}

void TestGuiMainWindow::openExample_data() {
    QTest::addColumn<QString>("path");
    for (const QString& path : test::exampleFiles())
        QTest::newRow(qPrintable(exampleName(path))) << path;
}

void TestGuiMainWindow::openExample() {
    QFETCH(QString, path);
    Diagnostics expectedDiagnostics;
    const auto expected =
        resolveScenarioFile(path.toStdString(), Catalog::builtIn(), expectedDiagnostics);
    QVERIFY(expected);

    MainWindow window;
    window.setRememberRecentFiles(false);
    QSignalSpy opened(&window, &MainWindow::scenarioOpened);
    QVERIFY(window.openScenario(path));
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QCOMPARE(window.diagnosticsModel()->errorCount(), 0);

    const ScenarioSummaryModel& model = *window.summaryModel();
    QCOMPARE(model.rowCount(), 6); // scenario, model, cluster, training, plan, costs
    QCOMPARE(model.columnCount(), 2);
    for (int s = 0; s < model.rowCount(); ++s)
        QVERIFY(model.rowCount(model.index(s, 0)) >= 2);
    QVERIFY(model.rowCount(model.indexForJsonPath("/cluster")) >= 15);

    const QStringList rows = allRows(model);
    const QString gpuName = QString::fromStdString(expected->cluster.gpu.name);
    QVERIFY(!gpuName.isEmpty());
    QVERIFY2(rows.contains(QStringLiteral("GPU=") + gpuName), qPrintable(rows.join('\n')));
    const qlonglong gpus = expected->cluster.numGpus;
    QCOMPARE(valueAt(model, "/cluster/num_gpus"),
             (gpus == 1 ? QStringLiteral("%1 GPU") : QStringLiteral("%1 GPUs"))
                 .arg(QLocale().toString(gpus)));
    QCOMPARE(valueAt(model, "/model/layers"),
             QStringLiteral("%1 layers").arg(expected->model.layers));
    QCOMPARE(valueAt(model, "/parallelism/tp"),
             QStringLiteral("%1-way").arg(expected->parallel.tp));
    QVERIFY(valueAt(model, "/cluster/gpu").endsWith(" GiB") ||
            valueAt(model, "/cluster/gpu") == gpuName);
    QVERIFY(rows.filter(QRegularExpression("^GPU memory=[0-9.,]+ GiB$")).size() == 1);
    QVERIFY(rows.filter(QRegularExpression("^BF16 dense peak=[0-9.,]+ TFLOPS$")).size() == 1);
    QVERIFY(valueAt(model, "/cluster/scale_up/bandwidth_gb_s").contains(" GB/s per GPU"));
    QVERIFY(valueAt(model, "/cluster/scale_out/nic_gbit_s").contains(" Gbit/s per NIC"));
    QVERIFY(valueAt(model, "/training/seq_len").endsWith(" tokens"));
    for (const QString& row : rows)
        QVERIFY2(!row.endsWith('='), qPrintable("empty value: " + row));

    for (int c = 0; c < EstimateCards::kCardCount; ++c) {
        QCOMPARE(window.estimateCards()->valueText(Card(c)), kNoValue);
        QCOMPARE(window.estimateCards()->valueToolTip(Card(c)), QString("estimator not available"));
    }

    const QString out = screenshotDir() + '/' + exampleName(path) + ".png";
    QString error;
    QVERIFY2(saveScreenshot(window, out, &error), qPrintable(error));
    const QImage shot(out);
    QVERIFY(!shot.isNull());
    QCOMPARE(shot.size(), kScreenshotSize);
}

void TestGuiMainWindow::invalidFile_data() {
    using Patch = std::function<void(nlohmann::ordered_json&)>;
    QTest::addColumn<Patch>("patch");
    QTest::addColumn<QString>("expectedPath");
    QTest::newRow("unknown key") << Patch([](auto& d) { d["model"]["bogus_key"] = 1; })
                                 << "/model/bogus_key";
    QTest::newRow("wrong type") << Patch([](auto& d) { d["training"]["seq_len"] = "long"; })
                                << "/training/seq_len";
    QTest::newRow("zero") << Patch([](auto& d) { d["cluster"]["num_gpus"] = 0; })
                          << "/cluster/num_gpus";
    QTest::newRow("missing required")
        << Patch([](auto& d) { d["training"].erase("global_batch"); }) << "/training/global_batch";
    QTest::newRow("inconsistent degrees") << Patch([](auto& d) {
        d["parallelism"]["tp"] = 3;
        d["parallelism"]["dp"] = nullptr;
    }) << "/parallelism";
}

void TestGuiMainWindow::invalidFile() {
    QFETCH(std::function<void(nlohmann::ordered_json&)>, patch);
    QFETCH(QString, expectedPath);
    QTemporaryDir dir;
    const QString path = writePatchedExample(dir, "bad.json", patch);
    QVERIFY(!path.isEmpty());

    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(!window.openScenario(path));
    QVERIFY(window.diagnosticsModel()->errorCount() >= 1);
    const QStringList paths = messagePaths(*window.diagnosticsModel());
    QVERIFY2(std::any_of(paths.begin(), paths.end(),
                         [&](const QString& p) { return p.startsWith(expectedPath); }),
             qPrintable(paths.join(", ")));
    QCOMPARE(window.summaryModel()->rowCount(), 0);
    QCOMPARE(window.estimateCards()->valueText(Card::StepTime), kNoValue);
    QVERIFY(window.estimateCards()->valueToolTip(Card::StepTime).contains("not valid"));

    const QString tag = QString(QTest::currentDataTag()).replace(' ', '-');
    QString error;
    QVERIFY2(saveScreenshot(window, screenshotDir() + "/invalid-" + tag + ".png", &error),
             qPrintable(error));
}

void TestGuiMainWindow::cardsWithoutEstimate() {
    EstimateCards cards;
    cards.setEstimate(nullptr);
    QVERIFY(!cards.hasEstimate());
    for (int c = 0; c < EstimateCards::kCardCount; ++c) {
        QCOMPARE(cards.valueText(Card(c)), kNoValue);
        QCOMPARE(cards.valueToolTip(Card(c)), QString("not computed"));
    }
    cards.setEstimate(nullptr, "estimator not available");
    QCOMPARE(cards.valueToolTip(Card::Mfu), QString("estimator not available"));
}

void TestGuiMainWindow::cardsWithEstimate() {
    EstimateCards cards;
    const Estimate estimate = sampleEstimate();
    cards.setEstimate(&estimate);
    QCOMPARE(cards.valueText(Card::StepTime), QString("8.41 s"));
    QCOMPARE(cards.valueText(Card::Throughput), QString("1,220 tokens/s"));
    QCOMPARE(cards.valueText(Card::Mfu), QString("40.5 %"));
    QCOMPARE(cards.valueText(Card::Memory), QString("71.2 GiB / 80 GiB"));
    QVERIFY(cards.detailText(Card::Memory).startsWith("✔ fits"));
    cards.setEstimate(nullptr);
    QCOMPARE(cards.valueText(Card::StepTime), kNoValue);
}

void TestGuiMainWindow::estimatorIsUsed() {
    std::atomic<int> calls = 0; // the estimator runs on the worker thread
    MainWindow window([&](const ResolvedScenario& scenario, Diagnostics&) {
        ++calls;
        Estimate e = sampleEstimate();
        e.warnings.push_back(plainMessage("sample warning for " + scenario.name));
        return std::optional<Estimate>(e);
    });
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::exampleFiles().value(0)));
    QVERIFY(window.waitForEstimate());
    QVERIFY(calls >= 1);
    QCOMPARE(window.estimateCards()->valueText(Card::StepTime), QString("8.41 s"));
    QCOMPARE(window.diagnosticsModel()->warningCount() >= 1, true);
}

void TestGuiMainWindow::estimatorFailureIsReported() {
    MainWindow window([](const ResolvedScenario&, Diagnostics& diagnostics) {
        diagnostics.error("/parallelism/recompute", "this mode cannot be estimated yet");
        return std::optional<Estimate>();
    });
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::exampleFiles().value(0)));
    QVERIFY(window.waitForEstimate());
    QCOMPARE(window.estimateCards()->valueText(Card::Mfu), kNoValue);
    QVERIFY(window.estimateCards()->valueToolTip(Card::Mfu).contains("cannot be estimated"));
    QVERIFY(messagePaths(*window.diagnosticsModel()).contains("/parallelism/recompute"));
}

void TestGuiMainWindow::jsonPathFindsField() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::exampleFiles().value(0)));
    const ScenarioSummaryModel& model = *window.summaryModel();
    const QModelIndex tp = model.indexForJsonPath("/parallelism/tp");
    QVERIFY(tp.isValid());
    QCOMPARE(tp.data().toString(), QString("Tensor parallel (TP)"));
    QCOMPARE(model.indexForJsonPath("/parallelism/tp/deeper"), tp); // nearest ancestor
    QCOMPARE(model.indexForJsonPath("/cluster").data().toString(), QString("Cluster"));
    QVERIFY(!model.indexForJsonPath("/nowhere").isValid());
}

void TestGuiMainWindow::chineseTranslation() {
    MainWindow window;
    window.setRememberRecentFiles(false);
    QVERIFY(window.openScenario(test::exampleFiles().value(0)));
    const QList<QAction*> menus = window.menuBar()->actions();
    QCOMPARE(menus.size(), 5);
    QCOMPARE(menus[0]->text(), QString("&File"));
    QCOMPARE(menus[1]->text(), QString("&Edit"));
    QCOMPARE(menus[2]->text(), QString("&Model"));

    QVERIFY(installTranslations("zh_CN"));
    QCoreApplication::processEvents();
    QCOMPARE(menus[0]->text(), QString("文件(&F)"));
    QCOMPARE(menus[1]->text(), QString("编辑(&E)"));
    QCOMPARE(menus[2]->text(), QString("模型(&M)"));
    QCOMPARE(menus[3]->text(), QString("视图(&V)"));
    QCOMPARE(menus[4]->text(), QString("帮助(&H)"));
    QCOMPARE(window.summaryModel()->indexForJsonPath("/model").data().toString(), QString("模型"));
    QCOMPARE(window.estimateCards()->valueToolTip(Card::StepTime), QString("估算器不可用"));
    QString error;
    QVERIFY2(saveScreenshot(window,
                            screenshotDir() + "/zh_CN-" +
                                exampleName(test::exampleFiles().value(0)) + ".png",
                            &error),
             qPrintable(error));

    removeTranslations();
    QCoreApplication::processEvents();
    QCOMPARE(menus[0]->text(), QString("&File"));
    QCOMPARE(window.summaryModel()->indexForJsonPath("/model").data().toString(), QString("Model"));
}

void TestGuiMainWindow::translationsComplete() {
    // Every string lupdate found has a finished Simplified Chinese translation.
    const QString path = test::sourceDir() + "/translations/trainscape_zh_CN.ts";
    QFile ts(path);
    QVERIFY(ts.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(ts.readAll());
    QVERIFY(text.count("<message") > 100);
    QCOMPARE(text.count("type=\"unfinished\""), 0);
    QCOMPARE(text.count("type=\"vanished\""), 0);

    // And the file is in step with the code: lupdate (qt6-l10n-tools, installed by
    // scripts/install-deps.sh) run over the sources into a copy finds no new string.
    const QString lupdate = QLibraryInfo::path(QLibraryInfo::BinariesPath) + "/lupdate";
    QVERIFY2(QFileInfo(lupdate).isExecutable(), qPrintable(lupdate + " is missing"));
    QTemporaryDir dir;
    const QString copy = dir.filePath("copy.ts");
    QVERIFY(QFile::copy(path, copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    QProcess run;
    run.setWorkingDirectory(test::sourceDir());
    run.start(lupdate, {"-silent", "-no-obsolete", "app", "widgets", "models", "-ts", copy});
    QVERIFY(run.waitForFinished(120000));
    QCOMPARE(run.exitCode(), 0);
    QFile updated(copy);
    QVERIFY(updated.open(QIODevice::ReadOnly));
    const QString fresh = QString::fromUtf8(updated.readAll());
    QVERIFY2(fresh.count("type=\"unfinished\"") == 0,
             "strings in the code are missing from translations/trainscape_zh_CN.ts: run lupdate "
             "-no-obsolete app widgets models -ts translations/trainscape_zh_CN.ts and translate");
    QCOMPARE(fresh.count("<message"), text.count("<message"));
}

void TestGuiMainWindow::darkPalette() {
    // A dark palette must reach every surface: no hard-coded light backgrounds.
    const QPalette original = QApplication::palette();
    const QPalette dark = test::darkPalette();
    QApplication::setPalette(dark);
    {
        MainWindow window;
        window.setRememberRecentFiles(false);
        QVERIFY(window.openScenario(test::exampleFiles().value(0)));
        const QString out =
            screenshotDir() + "/dark-" + exampleName(test::exampleFiles().value(0)) + ".png";
        QString error;
        QVERIFY2(saveScreenshot(window, out, &error), qPrintable(error));
        const QImage shot(out);
        QVERIFY(!shot.isNull());
        auto* cards = window.estimateCards();
        const QPoint inCard =
            cards->mapTo(&window, QPoint(cards->width() / 8, cards->height() - 8));
        QVERIFY(shot.pixelColor(inCard).lightnessF() < 0.5);
        QVERIFY(
            shot.pixelColor(window.summaryView()->mapTo(&window, QPoint(300, 400))).lightnessF() <
            0.5);
    }
    QApplication::setPalette(original);
}

void TestGuiMainWindow::binaryScreenshot_data() {
    openExample_data();
}

void TestGuiMainWindow::binaryScreenshot() {
    QFETCH(QString, path);
    const QString out = screenshotDir() + "/cli-" + exampleName(path) + ".png";
    QFile::remove(out);
    QProcess process;
    process.start(test::binDir() + "/trainscape", {"--screenshot", out, path});
    QVERIFY(process.waitForFinished(60000));
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             process.readAllStandardError().constData());
    const QImage shot(out);
    QVERIFY(!shot.isNull());
    QCOMPARE(shot.size(), kScreenshotSize);
}

void TestGuiMainWindow::binaryScreenshotExitCodes() {
    QTemporaryDir dir;
    const QString bad =
        writePatchedExample(dir, "bad.json", [](auto& d) { d["model"]["bogus_key"] = 1; });
    const QString out = screenshotDir() + "/cli-invalid.png";
    QProcess process;
    process.start(test::binDir() + "/trainscape", {"--screenshot", out, bad});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2); // invalid scenario; the PNG still shows the errors
    QVERIFY(process.readAllStandardError().contains("/model/bogus_key"));
    QVERIFY(!QImage(out).isNull());

    process.start(
        test::binDir() + "/trainscape",
        {"--screenshot", dir.filePath("no/such/folder/out.png"), test::exampleFiles().value(0)});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 1); // the PNG cannot be written

    process.start(test::binDir() + "/trainscape", {"--version"});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(process.readAllStandardOutput().contains(TRAINSCAPE_VERSION));
}

QTEST_MAIN(TestGuiMainWindow)
#include "tst_gui_mainwindow.moc"
