#pragma once
// A comparison of 2 to 8 scenarios (files or library versions): their inputs side by side with
// the differences marked, their outputs side by side with each figure's expected error where
// the estimate gives one, and the versions behind every number. The formats (HTML with inline
// SVG, Markdown, CSV; PDF through Qt) render this one model (ReportFormats.h).

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "estimate/Estimate.h"

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::report {

inline constexpr int kMinScenarios = 2;
inline constexpr int kMaxScenarios = 8;

struct ReportScenario {
    std::string label;             // the scenario's name, else its file name
    std::string source;            // "file.json", or "library 3 version 2 (sqlite:/...)"
    nlohmann::ordered_json inputs; // the explicit scenario: every key in effect
    Estimate estimate;
    nlohmann::ordered_json estimateJson; // "trainscape.estimate/1" (expected_error lives here)
    std::string calibration;             // the profile behind the numbers, or "built-in defaults"
};

struct ReportProvenance {
    std::string trainscapeVersion;
    std::string estimatorVersion;
    std::string catalog; // "built-in" plus the user's catalog files
    std::string generatedAt;
};

struct ComparisonReport {
    std::string title;
    std::vector<ReportScenario> scenarios;
    ReportProvenance provenance;
};

// One scenario to compare: its text and where it came from.
struct ScenarioSource {
    std::string text;
    std::string source;
    std::string fallbackLabel; // when the scenario has no name
};

// Resolves and estimates each scenario. Problems name the scenario's source and the JSON path;
// a scenario outside what the estimator models is an error too (a report invents nothing).
std::optional<ComparisonReport> buildReport(const std::vector<ScenarioSource>& sources,
                                            const Catalog& catalog,
                                            const CalibrationRegistry& calibrations,
                                            const std::string& catalogDescription,
                                            Diagnostics& diags);

// An input key ("parallelism.tp") with its value in each scenario ("" where absent).
struct InputRow {
    std::string key;
    std::vector<std::string> values;
    bool differs = false;
};
std::vector<InputRow> inputRows(const ComparisonReport& report);

// A relative error interval: the figure is within [low, high] of the truth (predicted /
// measured - 1) for 80% of the similar published runs.
struct ErrorInterval {
    double low = 0, high = 0;
    int cases = 0;
};

struct OutputRow {
    std::string group;                         // "Memory", "Step time", "Throughput", "Run"
    std::string name;                          // "Peak memory"
    std::string unit;                          // "GiB"; "" for text rows
    std::vector<std::optional<double>> values; // nullopt: not computed (e.g. no token count)
    std::vector<std::string> text;             // the values as shown, with their unit
    std::vector<std::optional<ErrorInterval>> expectedError;
    bool differs = false;
};
std::vector<OutputRow> outputRows(const ComparisonReport& report);

// time.expected_error of an estimate, if it has one.
std::optional<ErrorInterval> stepTimeExpectedError(const nlohmann::ordered_json& estimateJson);

// "−8% … +5%".
std::string formatInterval(const ErrorInterval& interval);

} // namespace ts::report
