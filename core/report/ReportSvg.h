#pragma once
// The report's charts as standalone SVG (inline in the HTML, rendered to the PDF): memory per
// pipeline stage against capacity, the stacked step-time breakdown, and the run's days, cost
// and energy. Text in them is real <text>, so it can be selected and copied.

#include "report/ComparisonReport.h"

#include <string>

namespace ts::report {

// One scenario's memory per stage, stacked by kind, with the capacity as a dashed line.
std::string memoryPerStageSvg(const ReportScenario& scenario);
// One stacked bar per scenario: the parts of its step time.
std::string stepBreakdownSvg(const ComparisonReport& report);
// Three panels of bars, one bar per scenario: days, cost and energy to train ("n/a" where the
// scenario gives no token count).
std::string runTotalsSvg(const ComparisonReport& report);

// Escapes &, <, >, " and ' for XML and HTML text and attributes.
std::string xmlEscape(const std::string& text);

} // namespace ts::report
