// estimate FILE [--json] [--explain]

#include "CliCommands.h"

#include "PublishedErrorBand.h"

#include "estimate/EstimateFinite.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "estimate/Explain.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>

namespace ts::cli {

namespace {
bool explainFlag = false; // --explain (one command line per process)
} // namespace

int runEstimate(const Options& options) {
    Catalog catalog;
    Diagnostics diags;
    int exitCode = kExitOk;
    auto resolved = resolveScenarioArgument(options, "estimate", catalog, diags, exitCode);
    if (!resolved) {
        if (options.positional.size() == 1)
            printDiagnostics(options.positional[0], diags);
        return exitCode;
    }
    const std::string& file = options.positional[0];
    Diagnostics estimateDiags;
    auto estimate = estimatePlan(*resolved, estimateDiags);
    if (!estimate) {
        // A valid scenario outside what the estimator models: say so, invent nothing.
        printDiagnostics(file, estimateDiags);
        return kExitNotModelled;
    }
    // The resolver's warnings (e.g. an uneven layer split) belong with the estimate's.
    std::vector<Message> warnings;
    for (const auto& d : diags.warnings())
        warnings.push_back(plainMessage(d.path + ": " + d.message));
    for (const auto& d : estimateDiags.warnings())
        warnings.push_back(plainMessage(d.path + ": " + d.message));
    estimate->warnings.insert(estimate->warnings.begin(), warnings.begin(), warnings.end());
    attachPublishedErrorBand(*estimate, *resolved); // time.expected_error
    std::optional<Explanation> explanation;
    if (explainFlag) {
        CalibrationRegistry calibrations;
        if (!loadCalibrations(options, calibrations))
            return kExitBadInput;
        explanation = explainEstimate(*resolved, *estimate, catalog, calibrations);
    }
    auto json = estimateToJson(*estimate);
    if (const auto where = firstNonFiniteNumber(json)) {
        std::fprintf(stderr, "%s: error: %s\n", file.c_str(),
                     nonFiniteEstimateMessage(*where).c_str());
        return kExitBadInput;
    }
    if (options.json) {
        if (explanation)
            json["explain"] = explanationToJson(*explanation);
        std::printf("%s\n", json.dump(2).c_str());
    } else {
        std::printf("%s", estimateToText(*estimate).c_str());
        if (explanation)
            std::printf("\n%s", explanationToText(*explanation).c_str());
    }
    return kExitOk;
}

void addEstimateCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* sub = addScenarioFileCommand(
        app, "estimate", "Estimate memory, step time, throughput, energy and cost of a scenario",
        options);
    sub->add_flag("--explain", explainFlag,
                  "Also say what bounds the step (each part's resource, exposed and hidden "
                  "traffic per link class) and which edits change it most (each degree doubled "
                  "and halved, each link twice and half as fast, re-estimated)");
    setRunner(sub, run, [&options] { return runEstimate(options); });
}

} // namespace ts::cli
