#include "PlanReport.h"

#include "PublishedErrorBand.h"

#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>
#include <unistd.h>

namespace ts::cli {

std::optional<ScenarioInputs> loadScenarioInputs(const Options& options, const char* command,
                                                 int& exitCode) {
    exitCode = kExitBadInput;
    if (options.positional.size() != 1) {
        std::fprintf(stderr, "trainscape-cli %s: expected exactly one scenario FILE\n", command);
        return std::nullopt;
    }
    ScenarioInputs in;
    in.file = options.positional[0];
    if (!loadCatalog(options, in.catalog) || !loadCalibrations(options, in.calibrations))
        return std::nullopt;
    Diagnostics diags;
    auto resolved = resolveScenarioFile(in.file, in.catalog, in.calibrations, diags);
    if (!resolved) {
        printDiagnostics(in.file, diags);
        return std::nullopt;
    }
    in.scenario = std::move(*resolved);
    exitCode = kExitOk;
    return in;
}

std::optional<nlohmann::ordered_json>
planReportJson(const ResolvedScenario& plan, const ScenarioInputs& inputs, std::string& error) {
    return scenarioReportJson(explicitScenario(plan), inputs.catalog, inputs.calibrations, error);
}

std::optional<nlohmann::ordered_json> scenarioReportJson(const Scenario& written,
                                                         const Catalog& catalog,
                                                         const CalibrationRegistry& calibrations,
                                                         std::string& error) {
    Diagnostics diags;
    const auto again = resolveScenario(written, catalog, calibrations, diags);
    if (!again) {
        error = diags.errors().empty() ? "does not resolve" : diags.errors().front().toString();
        return std::nullopt;
    }
    Diagnostics estimateDiags;
    auto estimate = estimatePlan(*again, estimateDiags);
    if (!estimate) {
        error = estimateDiags.errors().empty() ? "not modelled"
                                               : estimateDiags.errors().front().toString();
        return std::nullopt;
    }
    // As `estimate` prints it: the resolver's warnings first (EstimateCommand.cpp).
    std::vector<Message> warnings;
    for (const auto& d : diags.warnings())
        warnings.push_back(plainMessage(d.path + ": " + d.message));
    for (const auto& d : estimateDiags.warnings())
        warnings.push_back(plainMessage(d.path + ": " + d.message));
    estimate->warnings.insert(estimate->warnings.begin(), warnings.begin(), warnings.end());
    attachPublishedErrorBand(*estimate, *again); // as `estimate` prints it
    nlohmann::ordered_json out;
    out["scenario"] = scenarioToJson(written);
    out["estimate"] = estimateToJson(*estimate);
    return out;
}

TerminalProgress::TerminalProgress(std::string label)
    : label_(std::move(label)), terminal_(isatty(STDERR_FILENO) == 1) {}

TerminalProgress::~TerminalProgress() {
    if (terminal_ && lastPercent_ >= 0)
        std::fputs("\r\033[K", stderr);
}

void TerminalProgress::show(double fraction, long long plans) {
    const int percent = static_cast<int>(fraction * 100);
    if (!terminal_ || percent == lastPercent_)
        return;
    lastPercent_ = percent;
    std::fprintf(stderr, "\r%s: %3d%% · %s plans", label_.c_str(), percent,
                 withThousands(plans).c_str());
    std::fflush(stderr);
}

} // namespace ts::cli
