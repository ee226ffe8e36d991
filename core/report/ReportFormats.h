#pragma once
// The comparison report's formats. HTML is one self-contained file: inline CSS and SVG, no
// script and nothing fetched, so it opens offline and its text can be copied. Markdown and CSV
// carry the same tables (CSV: one row per figure, one column per scenario). PDF is drawn by Qt
// from the HTML (models/ReportPdf.h; the CLI runs the trainscape-report-pdf tool for it, so
// that trainscape-cli itself links no Qt).

#include "report/ComparisonReport.h"

#include <optional>
#include <string>

namespace ts::report {

enum class ReportFormat { Html, Markdown, Csv, Pdf };

// "html", "md" (or "markdown"), "csv", "pdf".
std::optional<ReportFormat> reportFormatFromName(const std::string& name);

std::string reportToHtml(const ComparisonReport& report);
std::string reportToMarkdown(const ComparisonReport& report);
std::string reportToCsv(const ComparisonReport& report);

} // namespace ts::report
