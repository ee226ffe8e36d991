// Comparison reports: the model (inputs with differences marked, outputs with expected
// errors), the formats (self-contained HTML, Markdown, CSV), the HTML as headless Chromium
// draws it and the PDF as pdftoppm draws it, both kept under test-output/report/.

#include "TestSupport.h"

#include "ReportPdf.h"
#include "report/ComparisonReport.h"
#include "report/ReportFormats.h"
#include "scenario/ScenarioIO.h"

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace ts;
using namespace ts::report;

namespace {

QString reportDir() {
    const QString dir = test::outputDir() + "/report";
    QDir().mkpath(dir);
    return dir;
}

std::vector<ScenarioSource> exampleSources(const QStringList& names) {
    std::vector<ScenarioSource> sources;
    for (const QString& name : names) {
        const QString path = test::sourceDir() + "/resources/examples/" + name;
        sources.push_back({test::readAll(path), path.toStdString(), name.toStdString()});
    }
    return sources;
}

std::optional<ComparisonReport> exampleReport() {
    Diagnostics diags;
    return buildReport(exampleSources({"llama3-70b-64xh100.json", "gpt3-175b-1024xa100.json",
                                       "mixtral-8x7b-64xh100.json"}),
                       Catalog::builtIn(), CalibrationRegistry::builtIn(), "built-in", diags);
}

// The share of pixels that are not (nearly) white, and whether the diff colour is there.
double inkShare(const QImage& image, bool* hasDiffColour = nullptr) {
    qint64 ink = 0, diff = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QColor c = image.pixelColor(x, y);
            ink += c.red() + c.green() + c.blue() < 3 * 235;
            diff += std::abs(c.red() - 0xff) < 6 && std::abs(c.green() - 0xf2) < 6 &&
                    std::abs(c.blue() - 0xb3) < 8;
        }
    if (hasDiffColour)
        *hasDiffColour = diff > 100;
    return 4.0 * double(ink) / double(std::max<qint64>(1, qint64(image.width()) * image.height()));
}

std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            fields.back() += line[++i];
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            fields.emplace_back();
        else
            fields.back() += c;
    }
    return fields;
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void inputsAndOutputsSideBySide();
    void expectedErrorWhereTheEstimateGivesOne();
    void refusesBadSets();
    void htmlIsSelfContained();
    void markdownAndCsv();
    void htmlRendersInChromium();
    void pdfRendersToPages();
};

void TestReport::inputsAndOutputsSideBySide() {
    auto report = exampleReport();
    QVERIFY(report);
    QCOMPARE(report->scenarios.size(), size_t(3));
    QCOMPARE(report->provenance.trainscapeVersion, std::string(TRAINSCAPE_VERSION));
    QVERIFY(report->provenance.estimatorVersion.find('+') != std::string::npos);
    std::map<std::string, InputRow> inputs;
    for (const auto& row : inputRows(*report))
        inputs[row.key] = row;
    QVERIFY(inputs.count("parallelism.tp") && inputs.count("model.layers"));
    QVERIFY(inputs["model.layers"].differs);
    QCOMPARE(inputs["model.layers"].values, (std::vector<std::string>{"80", "96", "32"}));
    QVERIFY(!inputs["training.precision"].differs ||
            inputs["training.precision"].values[0] != inputs["training.precision"].values[1]);
    QVERIFY(!inputs.count("format"));
    std::map<std::string, OutputRow> outputs;
    for (const auto& row : outputRows(*report))
        outputs[row.name] = row;
    for (const char* name : {"Fits in memory", "Peak memory", "Capacity", "Step time", "Tokens/s",
                             "MFU", "Time to train", "Cost", "Energy", "CO2"})
        QVERIFY2(outputs.count(name), name);
    const auto& step = outputs["Step time"];
    QCOMPARE(step.values.size(), size_t(3));
    QCOMPARE(*step.values[1], report->scenarios[1].estimate.stepSeconds);
    QVERIFY(step.differs);
    QCOMPARE(outputs["Capacity"].differs, false);                   // all 80 GiB
    QCOMPARE(outputs["Time to train"].text[0], std::string("n/a")); // no training.tokens
}

void TestReport::expectedErrorWhereTheEstimateGivesOne() {
    auto report = exampleReport();
    QVERIFY(report);
    report->scenarios[0].estimateJson["time"]["expected_error"] = {
        {"low", -0.08}, {"high", 0.05}, {"cases", 49}, {"basis", "dense, cp = 1"}};
    report->scenarios[1].estimateJson["time"]["expected_error"] = nullptr;
    std::map<std::string, OutputRow> outputs;
    for (const auto& row : outputRows(*report))
        outputs[row.name] = row;
    const auto& step = outputs["Step time"].expectedError;
    QVERIFY(step[0] && !step[1] && !step[2]);
    QCOMPARE(step[0]->low, -0.08);
    QCOMPARE(step[0]->cases, 49);
    // A rate inverts the interval: 1 / (1 + e) - 1.
    const auto& rate = outputs["Tokens/s"].expectedError[0];
    QVERIFY(rate);
    QVERIFY(std::abs(rate->low - (1 / 1.05 - 1)) < 1e-12);
    QVERIFY(std::abs(rate->high - (1 / 0.92 - 1)) < 1e-12);
    QVERIFY(!outputs["Peak memory"].expectedError[0]); // the estimate gives none for memory
    const std::string html = reportToHtml(*report);
    QVERIFY(html.find("expected error -8% … +5%") != std::string::npos);
    QVERIFY(reportToMarkdown(*report).find("(-8% … +5%)") != std::string::npos);
}

void TestReport::refusesBadSets() {
    Diagnostics one;
    QVERIFY(!buildReport(exampleSources({"llama3-8b-8xh100.json"}), Catalog::builtIn(),
                         CalibrationRegistry::builtIn(), "", one));
    QVERIFY(one.all().front().message.find("2 to 8") != std::string::npos);
    QStringList nine;
    for (int i = 0; i < 9; ++i)
        nine << "llama3-8b-8xh100.json";
    Diagnostics many;
    QVERIFY(!buildReport(exampleSources(nine), Catalog::builtIn(), CalibrationRegistry::builtIn(),
                         "", many));
    auto sources = exampleSources({"llama3-8b-8xh100.json", "llama3-8b-8xh100.json"});
    sources[1].text = R"({"format": "trainscape.scenario/1", "model": {"preset": "llama3-8b"},
        "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 64}, "parallelism": {"tp": 3}})";
    sources[1].source = "bad.json";
    Diagnostics bad;
    QVERIFY(!buildReport(sources, Catalog::builtIn(), CalibrationRegistry::builtIn(), "", bad));
    QVERIFY(bad.hasErrorAt("bad.json:/parallelism/tp") ||
            bad.all().front().path.rfind("bad.json:", 0) == 0);
}

void TestReport::htmlIsSelfContained() {
    auto report = exampleReport();
    QVERIFY(report);
    report->scenarios[2].label = "<b>Mixtral & co</b>";
    const std::string html = reportToHtml(*report);
    QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0);
    for (const char* forbidden : {"<script", "src=\"http", "href=", "@import", "url("})
        QVERIFY2(html.find(forbidden) == std::string::npos, forbidden);
    std::size_t charts = 0;
    for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
        ++charts;
    QCOMPARE(charts, size_t(2 + 3)); // breakdown, totals, one memory chart per scenario
    QVERIFY(html.find("&lt;b&gt;Mixtral &amp; co&lt;/b&gt;") != std::string::npos);
    QVERIFY(html.find("<b>Mixtral") == std::string::npos);
    QVERIFY(html.find("class=\"diff\"") != std::string::npos);
    QVERIFY(html.find("Estimator</th><td>" + report->provenance.estimatorVersion) !=
            std::string::npos);
    QVERIFY(html.find("built-in defaults") != std::string::npos); // calibration per scenario
}

void TestReport::markdownAndCsv() {
    auto report = exampleReport();
    QVERIFY(report);
    report->scenarios[0].label = "a|b, \"c\"";
    const std::string md = reportToMarkdown(*report);
    QVERIFY(md.find("| | figure | a\\|b, \"c\" |") != std::string::npos);
    QVERIFY(md.find("| ≠ | Step time: Step time |") != std::string::npos);
    const std::string csv = reportToCsv(*report);
    std::vector<std::vector<std::string>> rows;
    std::size_t start = 0;
    for (auto end = csv.find("\r\n"); end != std::string::npos; end = csv.find("\r\n", start)) {
        rows.push_back(csvFields(csv.substr(start, end - start)));
        start = end + 2;
    }
    QVERIFY(rows.size() > 30);
    QCOMPARE(rows[0][4], std::string("a|b, \"c\""));
    for (const auto& row : rows)
        if (row[0] != "version")
            QCOMPARE(row.size(), size_t(4 + 3 * 3));
    bool step = false;
    for (const auto& row : rows)
        if (row[1] == "Step time") {
            step = true;
            QCOMPARE(std::stod(row[5]),
                     std::round(report->scenarios[1].estimate.stepSeconds * 1000) / 1000);
        }
    QVERIFY(step);
}

void TestReport::htmlRendersInChromium() {
    const QString chromium = QStandardPaths::findExecutable("chromium");
    if (chromium.isEmpty())
        QSKIP("chromium is not installed (scripts/install-deps.sh installs it)");
    auto report = exampleReport();
    QVERIFY(report);
    const QString html = reportDir() + "/comparison.html";
    std::string error;
    QVERIFY(writeTextFileAtomically(html.toStdString(), reportToHtml(*report), error));
    QTemporaryDir profile; // a new empty profile: nothing of the machine's own
    const QString png = reportDir() + "/comparison-chromium.png";
    QFile::remove(png);
    QProcess browser;
    browser.start(chromium, {"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                             "--no-first-run", "--disable-background-networking",
                             "--disable-component-update", "--disable-sync",
                             "--user-data-dir=" + profile.path(), "--hide-scrollbars",
                             "--window-size=1280,2000", "--screenshot=" + png,
                             QUrl::fromLocalFile(html).toString()});
    QVERIFY(browser.waitForFinished(120000));
    QVERIFY2(QFile::exists(png), browser.readAllStandardError().right(600).constData());
    QImage image(png);
    QCOMPARE(image.size(), QSize(1280, 2000));
    bool diffColour = false;
    const double ink = inkShare(image, &diffColour);
    qInfo("Chromium screenshot %s: %.1f%% ink", qPrintable(png), ink * 100);
    QVERIFY(ink > 0.05);
    QVERIFY(diffColour); // the marked differences were drawn
}

void TestReport::pdfRendersToPages() {
    const QString pdftoppm = QStandardPaths::findExecutable("pdftoppm");
    auto report = exampleReport();
    QVERIFY(report);
    const QString pdf = reportDir() + "/comparison.pdf";
    QString error;
    QVERIFY2(writeReportPdf(reportToHtml(*report), pdf, error), qPrintable(error));
    QVERIFY(test::readAll(pdf).rfind("%PDF-", 0) == 0);
    // And through the CLI, which runs trainscape-report-pdf.
    const QString cliPdf = reportDir() + "/comparison-cli.pdf";
    QFile::remove(cliPdf);
    const QString examples = test::sourceDir() + "/resources/examples/";
    QProcess cli;
    cli.start(test::binDir() + "/trainscape-cli",
              {"report", examples + "llama3-8b-8xh100.json", examples + "llama3-70b-64xh100.json",
               "--format", "pdf", "--out", cliPdf});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QVERIFY(test::readAll(cliPdf).rfind("%PDF-", 0) == 0);
    if (pdftoppm.isEmpty())
        QSKIP("pdftoppm is not installed (poppler-utils; scripts/install-deps.sh installs it)");
    for (const QString& file : QDir(reportDir()).entryList({"comparison-page-*.png"}))
        QFile::remove(reportDir() + "/" + file);
    QProcess render;
    render.start(pdftoppm, {"-r", "60", "-png", pdf, reportDir() + "/comparison-page"});
    QVERIFY(render.waitForFinished(120000));
    QCOMPARE(render.exitCode(), 0);
    const QStringList pages =
        QDir(reportDir()).entryList({"comparison-page-*.png"}, QDir::Files, QDir::Name);
    qInfo("PDF %s: %lld pages as PNG in %s", qPrintable(pdf), qlonglong(pages.size()),
          qPrintable(reportDir()));
    QVERIFY(pages.size() >= 2);
    bool diffColour = false;
    QVERIFY(inkShare(QImage(reportDir() + "/" + pages.first()), &diffColour) > 0.03);
    QVERIFY(diffColour);
}

QTEST_MAIN(TestReport)
#include "tst_gui_report.moc"
