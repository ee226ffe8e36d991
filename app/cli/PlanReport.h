#pragma once
// What `search` and `capacity` print for a plan: the plan as a complete v1 scenario, and what
// `estimate` prints for that scenario (re-read and re-resolved, so that the two agree).

#include "CliCommon.h"
#include "common/TextFormat.h"
#include "scenario/Scenario.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ts::cli {

// The catalog and calibration profiles a scenario FILE was resolved with.
struct ScenarioInputs {
    Catalog catalog;
    CalibrationRegistry calibrations;
    ResolvedScenario scenario;
    std::string file;
};
// Reads options.positional[0]; on failure prints why and sets `exitCode`.
std::optional<ScenarioInputs> loadScenarioInputs(const Options& options, const char* command,
                                                 int& exitCode);

// {"scenario": {...}, "estimate": {...}}; nullopt (with `error`) when the written scenario does
// not resolve or estimate, which a search result never should.
std::optional<nlohmann::ordered_json>
planReportJson(const ResolvedScenario& plan, const ScenarioInputs& inputs, std::string& error);

// The same for a scenario as written (a plan over pools, which has no uniform form).
std::optional<nlohmann::ordered_json> scenarioReportJson(const Scenario& written,
                                                         const Catalog& catalog,
                                                         const CalibrationRegistry& calibrations,
                                                         std::string& error);

// Progress on standard error, only when it is a terminal: "search: 42% · 1,234,567 plans".
class TerminalProgress {
public:
    explicit TerminalProgress(std::string label);
    ~TerminalProgress();
    void show(double fraction, long long plans);

private:
    std::string label_;
    bool terminal_ = false;
    int lastPercent_ = -1;
};

} // namespace ts::cli
