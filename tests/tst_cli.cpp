// trainscape-cli as a user runs it: exit codes, messages naming JSON paths, and hostile
// input that must neither crash nor hang.

#include "TestSupport.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

struct Run {
    int exitCode = -1;
    bool crashed = false;
    QString out, err;
};

Run runCli(const QStringList& args, int timeoutMs = 60000) {
    QProcess process;
    process.start(ts::test::binDir() + "/trainscape-cli", args);
    Run run;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.crashed = true;
        run.err = "timed out";
        return run;
    }
    run.crashed = process.exitStatus() != QProcess::NormalExit;
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(bytes);
    return path;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersion();
    void validateExamples_data();
    void validateExamples();
    void estimateExamples_data();
    void estimateExamples();
    void badInput_data();
    void badInput();
    void usageErrors_data();
    void usageErrors();
    void catalogCommands();
    void userCatalogOption();
    void catalogColumnsAlign();
    void networkCountsServersAndScalesBytes();
    void estimateExplains();
    void estimateCarriesErrorBand();
};

void TestCli::helpAndVersion() {
    Run help = runCli({"--help"});
    QCOMPARE(help.exitCode, 0);
    for (const char* command : {"estimate", "validate", "catalog", "network", "calibrate"})
        QVERIFY2(help.out.contains(command), command);
    // Every subcommand has its own help (CLI11), naming its arguments and options.
    Run estimateHelp = runCli({"estimate", "--help"});
    QCOMPARE(estimateHelp.exitCode, 0);
    QVERIFY(estimateHelp.out.contains("FILE"));
    QVERIFY(estimateHelp.out.contains("--json"));
    Run gemmHelp = runCli({"calibrate", "import-gemm", "--help"});
    QCOMPARE(gemmHelp.exitCode, 0);
    QVERIFY(gemmHelp.out.contains("--write"));
    Run version = runCli({"--version"});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith("trainscape-cli "));
}

void TestCli::validateExamples_data() {
    QTest::addColumn<QString>("file");
    const QStringList files = ts::test::exampleFiles();
    QVERIFY(files.size() >= 5);
    for (const QString& file : files)
        QTest::newRow(qPrintable(QFileInfo(file).fileName())) << file;
}

void TestCli::validateExamples() {
    QFETCH(QString, file);
    Run run = runCli({"validate", file});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains("valid scenario"));
    Run resolvedRun = runCli({"validate", file, "--resolved"});
    QCOMPARE(resolvedRun.exitCode, 0);
    const json resolved = json::parse(resolvedRun.out.toStdString());
    QVERIFY(resolved["parallelism"].contains("dp")); // defaults written out
    QVERIFY(resolved["model"].contains("layers"));
    Run jsonRun = runCli({"validate", file, "--json"});
    QCOMPARE(jsonRun.exitCode, 0);
    QCOMPARE(json::parse(jsonRun.out.toStdString())["valid"], json(true));
}

void TestCli::estimateExamples_data() {
    validateExamples_data();
}

void TestCli::estimateExamples() {
    QFETCH(QString, file);
    Run run = runCli({"estimate", file, "--json"});
    QVERIFY2(!run.crashed, qPrintable(run.err));
    if (run.exitCode == 3) { // valid, but outside what the estimator models: said plainly
        QVERIFY2(run.err.contains("not modelled") || run.err.contains("not built"),
                 qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        return;
    }
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const json estimate = json::parse(run.out.toStdString());
    QCOMPARE(estimate["format"], json("trainscape.estimate/1"));
    QVERIFY(estimate["time"]["step_s"].get<double>() > 0);
    Run text = runCli({"estimate", file});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(!text.out.isEmpty());
    // A small run's totals are shown in a unit it fills (a LoRA run: kWh and dollars), never as
    // zeros of a larger one.
    for (const char* zero : {"train: 0.00 MWh", "0.00 t CO2", "$0.00M", "0.00M GPU-hours"})
        QVERIFY2(!text.out.contains(zero), qPrintable(text.out));
}

void TestCli::badInput_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected"); // a JSON path or message piece on stderr
    const QByteArray base = QByteArray::fromStdString(
        ts::test::readAll(ts::test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json"));
    json doc = json::parse(base.toStdString());
    for (const char* command : {"validate", "estimate"}) {
        auto row = [&](const char* name, const QByteArray& bytes, const char* expected) {
            QTest::newRow(qPrintable(QString("%1: %2").arg(command, name)))
                << command << bytes << expected;
        };
        json bad = doc;
        bad["parallelism"]["tp"] = "eight";
        row("tp is a string", QByteArray::fromStdString(bad.dump()), "/parallelism/tp");
        bad = doc;
        bad["cluster"]["num_gpus"] = 1e15;
        row("1e15 GPUs", QByteArray::fromStdString(bad.dump()), "/cluster/num_gpus");
        bad = doc;
        bad["training"]["sequence_length"] = 4096;
        row("unknown key", QByteArray::fromStdString(bad.dump()), "/training/sequence_length");
        row("deeply nested", QByteArray(1 << 20, '[') + QByteArray(1 << 20, ']'), "nested deeper");
        row("non-UTF-8", QByteArray("{\"format\": \"\xc3\x28\"}"), "UTF-8");
        row("non-JSON", QByteArray("format = scenario"), "not valid JSON");
        row("empty", QByteArray(), "empty");
        row("binary", QByteArray("\x00\x01\x02\x7f", 4), "not valid JSON");
    }
}

void TestCli::badInput() {
    QFETCH(QString, command);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = writeFile(dir, "bad.json", bytes);
    Run run = runCli({command, path}, 30000);
    QVERIFY2(!run.crashed, qPrintable(run.err));
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
}

void TestCli::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no command") << QStringList{};
    QTest::newRow("unknown command") << QStringList{"simulate", "x.json"};
    QTest::newRow("unknown option") << QStringList{"validate", "--fast", "x.json"};
    QTest::newRow("missing file") << QStringList{"validate", "/nonexistent/scenario.json"};
    QTest::newRow("folder") << QStringList{"estimate", "/"};
    QTest::newRow("two files") << QStringList{"validate", "a.json", "b.json"};
    QTest::newRow("catalog kind") << QStringList{"catalog", "list", "switches"};
    QTest::newRow("catalog show unknown") << QStringList{"catalog", "show", "h900"};
    QTest::newRow("--catalog without file") << QStringList{"validate", "x.json", "--catalog"};
    QTest::newRow("catalog without subcommand") << QStringList{"catalog"};
    QTest::newRow("calibrate unknown") << QStringList{"calibrate", "import-foo", "x.log"};
    QTest::newRow("import-gemm two files")
        << QStringList{"calibrate", "import-gemm", "a.csv", "b.csv"};
    QTest::newRow("estimate --resolved") << QStringList{"estimate", "x.json", "--resolved"};
}

void TestCli::usageErrors() {
    QFETCH(QStringList, args);
    Run run = runCli(args);
    QVERIFY(!run.crashed);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(!run.err.isEmpty());
}

void TestCli::catalogCommands() {
    const std::pair<const char*, std::size_t> kinds[] = {{"gpus", 13},   {"clusters", 8},
                                                         {"models", 14}, {"servers", 4},
                                                         {"prices", 4},  {"network", 8}};
    for (const auto& [kind, least] : kinds) {
        Run run = runCli({"catalog", "list", kind});
        QCOMPARE(run.exitCode, 0);
        Run jsonRun = runCli({"catalog", "list", kind, "--json"});
        QCOMPARE(jsonRun.exitCode, 0);
        QVERIFY2(json::parse(jsonRun.out.toStdString()).size() >= least, kind);
    }
    Run show = runCli({"catalog", "show", "h100-sxm-80gb", "--json"});
    QCOMPARE(show.exitCode, 0);
    const json entry = json::parse(show.out.toStdString());
    QCOMPARE(entry["kind"], json("gpu"));
    QCOMPARE(entry["entry"]["bf16_tflops"].get<double>(), 989.4);
    QVERIFY(!entry["sources"].empty());
    Run text = runCli({"catalog", "show", "llama3-70b"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("sources:"));
}

void TestCli::userCatalogOption() {
    QTemporaryDir dir;
    const QString catalog = writeFile(dir, "user.json", R"({"format": "trainscape.catalog/1",
      "sources": {"lab": {"title": "Lab", "url": "https://example.org"}},
      "models": [{"id": "tiny", "name": "Tiny", "layers": 2, "hidden": 256, "ffn_hidden": 1024,
                  "heads": 4, "kv_heads": 4, "head_dim": 64, "vocab": 1000, "mlp": "gelu",
                  "tied_embeddings": true, "mla": null, "moe": null, "sources": {"*": "lab"}}]})");
    Run run = runCli({"--catalog", catalog, "catalog", "show", "tiny"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString broken = writeFile(dir, "broken.json", R"({"format": "trainscape.catalog/1",
      "models": [{"id": "tiny"}]})");
    Run bad = runCli({"--catalog", broken, "catalog", "list", "models"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("/models/0/"), qPrintable(bad.err));
}

// Every column of `catalog list gpus` starts where its heading starts (issue 18).
void TestCli::catalogColumnsAlign() {
    Run run = runCli({"catalog", "list", "gpus"});
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 10);
    // The numbers are right-aligned under their headings: every line ends at the same column,
    // and "MEM GiB" ends where each memory figure ends.
    const qsizetype width = lines.front().size();
    const qsizetype memEnd = lines.front().indexOf("MEM GiB") + 7;
    for (const QString& line : lines) {
        QCOMPARE(line.size(), width);
        QVERIFY2(line.at(memEnd - 1) != ' ' && line.at(memEnd) == ' ', qPrintable(line));
    }
}

// `network` counts servers, lists the EP group and scales bytes (issue 18).
void TestCli::networkCountsServersAndScalesBytes() {
    const QString file = ts::test::sourceDir() + "/resources/examples/deepseek-v3-1024xh100.json";
    Run run = runCli({"network", file});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("128 servers of 8 GPUs"), qPrintable(run.out));
    QVERIFY2(run.out.contains("  ep  group of 64"), qPrintable(run.out));
    QVERIFY(run.out.indexOf("  ep  group") < run.out.indexOf("  dp  group"));
    QVERIFY(run.out.contains(QRegularExpression(R"(scale-out [0-9.]+ (TB|PB))")));
    Run jsonRun = runCli({"network", file, "--json"});
    QCOMPARE(jsonRun.exitCode, 0);
    const auto j = json::parse(jsonRun.out.toStdString());
    QCOMPARE(j["topology"]["servers"].get<int>(), 128);
}

void TestCli::estimateExplains() {
    const QString file = ts::test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json";
    Run text = runCli({"estimate", file, "--explain"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("What bounds the step"));
    QVERIFY(text.out.contains("tp 8 -> 4"));
    Run plain = runCli({"estimate", file});
    QVERIFY(!plain.out.contains("What bounds the step"));
    Run jsonRun = runCli({"estimate", file, "--json", "--explain"});
    QCOMPARE(jsonRun.exitCode, 0);
    const auto j = json::parse(jsonRun.out.toStdString());
    QVERIFY(j.contains("explain"));
    QVERIFY(!j["explain"]["sensitivity"].empty());
    QCOMPARE(j["format"].get<std::string>(), std::string("trainscape.estimate/1"));
}

// time.expected_error (shared/spec/scenario-format.md): {"low", "high", "cases", "basis"} from
// the residual table built with this estimator, in the JSON and in the text; null where no
// published run is similar (a QLoRA fine-tune on one RTX 4090: no fine-tuning and no Ada run).
// And memory.expected_error, from the published memory figures.
void TestCli::estimateCarriesErrorBand() {
    const QString dense = ts::test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json";
    Run run = runCli({"estimate", dense, "--json"});
    QCOMPARE(run.exitCode, 0);
    const auto time = nlohmann::ordered_json::parse(run.out.toStdString()).at("time");
    QVERIFY(time.contains("expected_error"));
    const auto& band = time.at("expected_error");
    QVERIFY2(band.is_object(), band.dump().c_str());
    QCOMPARE(band.size(), std::size_t(4));
    const std::vector<std::string> keys = {"low", "high", "cases", "basis"};
    std::size_t i = 0;
    for (const auto& [key, value] : band.items())
        QCOMPARE(key, keys[i++]);
    QVERIFY(band.at("low").is_number() && band.at("high").is_number());
    QVERIFY(band.at("low").get<double>() <= band.at("high").get<double>());
    QVERIFY(band.at("low").get<double>() > -1.0);
    QVERIFY(band.at("cases").is_number_integer());
    QVERIFY(band.at("cases").get<int>() >= 8); // ErrorBandRule::minCases
    QVERIFY(band.at("basis").get<std::string>().find("dense") != std::string::npos);
    QVERIFY(band.at("basis").get<std::string>().find("Hopper") != std::string::npos);
    Run text = runCli({"estimate", dense});
    QCOMPARE(text.exitCode, 0);
    const QString cases = QString::number(band.at("cases").get<int>());
    QVERIFY2(text.out.contains(" on " + cases + " similar runs"), qPrintable(text.out));
    QVERIFY2(text.out.contains(QString::fromUtf8("\u2026")), qPrintable(text.out));

    const QString qlora =
        ts::test::sourceDir() + "/resources/examples/llama3.1-8b-qlora-1xrtx4090.json";
    Run none = runCli({"estimate", qlora, "--json"});
    QCOMPARE(none.exitCode, 0);
    const json noneTime = json::parse(none.out.toStdString()).at("time");
    QVERIFY(noneTime.contains("expected_error"));
    QVERIFY(noneTime.at("expected_error").is_null());
    const QString qloraText = runCli({"estimate", qlora}).out;
    const QString stepLine = qloraText.mid(qloraText.indexOf("step: ")).section('\n', 0, 0);
    QVERIFY2(!stepLine.contains("similar runs"), qPrintable(stepLine));

    // memory.expected_error (project key): the same shape, from the published memory figures:
    // the QLoRA plan has one (torchtune's), the Megatron-LM plan none (none was published).
    const auto memoryBand = json::parse(none.out.toStdString()).at("memory").at("expected_error");
    QVERIFY2(memoryBand.is_object() && memoryBand.size() == 4, memoryBand.dump().c_str());
    QVERIFY(memoryBand.at("low").get<double>() <= memoryBand.at("high").get<double>());
    QVERIFY(memoryBand.at("basis").get<std::string>().find("memory figures") != std::string::npos);
    const QString fitsLine = qloraText.section('\n', 0, 0);
    QVERIFY2(fitsLine.contains(" on " + QString::number(memoryBand.at("cases").get<int>()) +
                               " similar runs"),
             qPrintable(fitsLine));
    const auto denseMemory =
        nlohmann::ordered_json::parse(run.out.toStdString()).at("memory").at("expected_error");
    QVERIFY(denseMemory.is_null());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
