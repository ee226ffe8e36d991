// The report as Markdown and as CSV.

#include "report/ReportFormats.h"

#include <sstream>

namespace ts::report {

namespace {

// Pipes and line breaks would break a Markdown table cell.
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

void markdownHeader(std::ostringstream& out, const ComparisonReport& report, const char* first) {
    out << "| | " << first << " |";
    for (const auto& s : report.scenarios)
        out << " " << cell(s.label) << " |";
    out << "\n|---|---|";
    for (std::size_t i = 0; i < report.scenarios.size(); ++i)
        out << "---|";
    out << "\n";
}

// RFC 4180: quote a field holding a comma, quote or line break; double the quotes.
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

std::optional<ReportFormat> reportFormatFromName(const std::string& name) {
    if (name == "html")
        return ReportFormat::Html;
    if (name == "md" || name == "markdown")
        return ReportFormat::Markdown;
    if (name == "csv")
        return ReportFormat::Csv;
    if (name == "pdf")
        return ReportFormat::Pdf;
    return std::nullopt;
}

std::string reportToMarkdown(const ComparisonReport& report) {
    std::ostringstream out;
    out << "# " << report.title << "\n\n## Outputs\n\n"
        << "Rows marked ≠ differ. Expected error: the range of (estimate / measured − 1) that "
           "held for 80% of the most similar published runs.\n\n";
    markdownHeader(out, report, "figure");
    for (const auto& row : outputRows(report)) {
        out << "| " << (row.differs ? "≠" : "") << " | " << cell(row.group + ": " + row.name)
            << " |";
        for (std::size_t i = 0; i < row.text.size(); ++i) {
            std::string value = row.text[i];
            if (row.expectedError[i])
                value += " (" + formatInterval(*row.expectedError[i]) + ")";
            out << " " << (row.differs ? "**" + cell(value) + "**" : cell(value)) << " |";
        }
        out << "\n";
    }
    out << "\n## Inputs\n\n";
    markdownHeader(out, report, "key");
    for (const auto& row : inputRows(report)) {
        out << "| " << (row.differs ? "≠" : "") << " | `" << cell(row.key) << "` |";
        for (const auto& v : row.values)
            out << " " << (row.differs ? "**" + cell(v) + "**" : cell(v)) << " |";
        out << "\n";
    }
    const auto& p = report.provenance;
    out << "\n## Versions\n\n- Trainscape " << p.trainscapeVersion << ", estimator "
        << p.estimatorVersion << "\n- Catalog: " << p.catalog << "\n- Generated " << p.generatedAt
        << "\n";
    for (const auto& s : report.scenarios)
        out << "- " << cell(s.label) << ": " << s.source << "; calibration " << s.calibration
            << "\n";
    out << "\nCharts: see the HTML or PDF format of this report.\n";
    return out.str();
}

std::string reportToCsv(const ComparisonReport& report) {
    std::ostringstream out;
    out << "section,figure,unit,differs";
    for (const auto& s : report.scenarios)
        out << "," << csvField(s.label);
    for (const auto& s : report.scenarios)
        out << "," << csvField("expected error low: " + s.label) << ","
            << csvField("expected error high: " + s.label);
    out << "\r\n";
    for (const auto& row : outputRows(report)) {
        out << csvField(row.group) << "," << csvField(row.name) << "," << csvField(row.unit) << ","
            << (row.differs ? "yes" : "no");
        for (std::size_t i = 0; i < row.values.size(); ++i) {
            out << ",";
            if (row.unit.empty())
                out << csvField(row.text[i]);
            else if (row.values[i])
                out << csvField(row.text[i].substr(0, row.text[i].find(' ')));
        }
        for (const auto& e : row.expectedError)
            out << "," << (e ? std::to_string(e->low) : "") << ","
                << (e ? std::to_string(e->high) : "");
        out << "\r\n";
    }
    for (const auto& row : inputRows(report)) {
        out << "input," << csvField(row.key) << ",," << (row.differs ? "yes" : "no");
        for (const auto& v : row.values)
            out << "," << csvField(v);
        for (std::size_t i = 0; i < row.values.size(); ++i)
            out << ",,";
        out << "\r\n";
    }
    const auto& p = report.provenance;
    out << "version,trainscape,,," << csvField(p.trainscapeVersion) << "\r\n"
        << "version,estimator,,," << csvField(p.estimatorVersion) << "\r\n"
        << "version,catalog,,," << csvField(p.catalog) << "\r\n";
    out << "version,calibration,,";
    for (const auto& s : report.scenarios)
        out << "," << csvField(s.calibration);
    out << "\r\n";
    return out.str();
}

} // namespace ts::report
