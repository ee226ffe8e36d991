// The report as one self-contained HTML page. Differences are marked twice: a coloured cell
// (bgcolor, which Qt's rich text also draws for the PDF) and a "≠" in the row's first column,
// so they survive printing in black and white and copying as text.

#include "report/ReportFormats.h"
#include "report/ReportSvg.h"

#include <sstream>

namespace ts::report {

namespace {

constexpr const char* kDiffColour = "#fff2b3";

const char* kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 13px; color: #1a1a1a;
       margin: 24px; background: #ffffff; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #c8c8c8; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef2f7; }
td.num { text-align: right; white-space: nowrap; }
td.diff { background: #fff2b3; }
td.mark { color: #b00000; font-weight: bold; text-align: center; }
.err { color: #555555; font-size: 11px; }
.charts svg { margin: 6px 12px 6px 0; border: 1px solid #e0e0e0; }
.note { color: #555555; }
)";

void scenarioHeader(std::ostringstream& out, const ComparisonReport& report, const char* first) {
    out << "<tr><th></th><th>" << first << "</th>";
    for (const auto& s : report.scenarios)
        out << "<th>" << xmlEscape(s.label) << "</th>";
    out << "</tr>\n";
}

void provenance(std::ostringstream& out, const ComparisonReport& report) {
    const auto& p = report.provenance;
    out << "<h2>Versions behind these numbers</h2>\n<table border=\"1\" cellspacing=\"0\" "
           "cellpadding=\"3\">\n"
        << "<tr><th>Trainscape</th><td>" << xmlEscape(p.trainscapeVersion) << "</td></tr>\n"
        << "<tr><th>Estimator</th><td>" << xmlEscape(p.estimatorVersion) << "</td></tr>\n"
        << "<tr><th>Catalog</th><td>" << xmlEscape(p.catalog) << "</td></tr>\n"
        << "<tr><th>Generated</th><td>" << xmlEscape(p.generatedAt) << "</td></tr>\n</table>\n"
        << "<table border=\"1\" cellspacing=\"0\" "
           "cellpadding=\"3\">\n<tr><th>Scenario</th><th>Source</th><th>Calibration</th></tr>\n";
    for (const auto& s : report.scenarios)
        out << "<tr><td>" << xmlEscape(s.label) << "</td><td>" << xmlEscape(s.source) << "</td><td>"
            << xmlEscape(s.calibration) << "</td></tr>\n";
    out << "</table>\n";
}

void inputs(std::ostringstream& out, const ComparisonReport& report) {
    out << "<h2>Inputs</h2>\n<p class=\"note\">Every key in effect after presets and defaults; "
           "rows marked ≠ differ between the scenarios.</p>\n<table border=\"1\" cellspacing=\"0\" "
           "cellpadding=\"3\">\n";
    scenarioHeader(out, report, "key");
    for (const auto& row : inputRows(report)) {
        out << "<tr><td class=\"mark\">" << (row.differs ? "≠" : "") << "</td><td>"
            << xmlEscape(row.key) << "</td>";
        for (const auto& v : row.values)
            out << "<td"
                << (row.differs ? std::string(" class=\"diff\" bgcolor=\"") + kDiffColour + "\""
                                : std::string())
                << ">" << xmlEscape(v) << "</td>";
        out << "</tr>\n";
    }
    out << "</table>\n";
}

void outputs(std::ostringstream& out, const ComparisonReport& report) {
    out << "<h2>Outputs</h2>\n<p class=\"note\">Expected error: the range of (estimate / "
           "measured − 1) that held for 80% of the most similar published runs, where there "
           "are such runs.</p>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n";
    scenarioHeader(out, report, "figure");
    std::string group;
    for (const auto& row : outputRows(report)) {
        if (row.group != group) {
            group = row.group;
            out << "<tr><th colspan=\"" << report.scenarios.size() + 2 << "\">" << xmlEscape(group)
                << "</th></tr>\n";
        }
        out << "<tr><td class=\"mark\">" << (row.differs ? "≠" : "") << "</td><td>"
            << xmlEscape(row.name) << "</td>";
        for (std::size_t i = 0; i < row.text.size(); ++i) {
            out << "<td class=\"num"
                << (row.differs ? " diff\" bgcolor=\"" + std::string(kDiffColour) : std::string())
                << "\">" << xmlEscape(row.text[i]);
            if (row.expectedError[i])
                out << "<br/><span class=\"err\">expected error "
                    << xmlEscape(formatInterval(*row.expectedError[i])) << "</span>";
            out << "</td>";
        }
        out << "</tr>\n";
    }
    out << "</table>\n";
}

void charts(std::ostringstream& out, const ComparisonReport& report) {
    out << "<h2>Charts</h2>\n<div class=\"charts\">\n"
        << stepBreakdownSvg(report) << "\n"
        << runTotalsSvg(report) << "\n";
    for (const auto& s : report.scenarios)
        out << memoryPerStageSvg(s) << "\n";
    out << "</div>\n";
}

void warnings(std::ostringstream& out, const ComparisonReport& report) {
    bool any = false;
    for (const auto& s : report.scenarios)
        any = any || !s.estimate.warnings.empty();
    if (!any)
        return;
    out << "<h2>Warnings</h2>\n<ul>\n";
    for (const auto& s : report.scenarios)
        for (const auto& w : s.estimate.warnings)
            out << "<li>" << xmlEscape(s.label) << ": " << xmlEscape(w.english) << "</li>\n";
    out << "</ul>\n";
}

} // namespace

std::string reportToHtml(const ComparisonReport& report) {
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"generator\" content=\"Trainscape "
        << xmlEscape(report.provenance.trainscapeVersion) << "\">\n<title>"
        << xmlEscape(report.title) << "</title>\n<style>" << kStyle
        << "</style>\n</head>\n<body>\n<h1>" << xmlEscape(report.title) << "</h1>\n<p>";
    for (std::size_t i = 0; i < report.scenarios.size(); ++i)
        out << (i ? " · " : "") << "<b>" << xmlEscape(report.scenarios[i].label) << "</b>";
    out << "</p>\n";
    outputs(out, report);
    charts(out, report);
    inputs(out, report);
    warnings(out, report);
    provenance(out, report);
    out << "</body>\n</html>\n";
    return out.str();
}

} // namespace ts::report
