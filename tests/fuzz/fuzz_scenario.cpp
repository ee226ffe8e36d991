// Scenario text -> reader -> resolver -> estimator. Invariants: a refusal names a path or the
// document; an accepted scenario writes back to text that reads to the same scenario; an
// estimate has finite numbers and a breakdown that sums to its step time.

#include "FuzzChecks.h"

#include "catalog/Catalog.h"
#include "estimate/EstimateFinite.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdint>
#include <string_view>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Diagnostics diags;
    auto scenario = parseScenarioText(text, diags);
    if (!scenario) {
        FUZZ_CHECK(diags.hasErrors());
        return 0;
    }
    Diagnostics again;
    auto reread = parseScenarioText(scenarioToText(*scenario), again);
    FUZZ_CHECK(reread && *reread == *scenario);
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    if (!resolved) {
        FUZZ_CHECK(diags.hasErrors());
        return 0;
    }
    EstimatorSettings settings = defaultEstimatorSettings(*resolved);
    settings.recordTimeline = false;
    Diagnostics estimateDiags;
    auto estimate = estimatePlan(*resolved, settings, estimateDiags);
    if (!estimate) {
        FUZZ_CHECK(estimateDiags.hasErrors());
        return 0;
    }
    if (firstNonFiniteNumber(estimateToJson(*estimate)))
        return 0; // refused by the CLI (exit 2); Limits.h keeps this rare
    FUZZ_CHECK(estimate->stepSeconds > 0);
    const double sum = estimate->time.sum();
    FUZZ_CHECK(std::abs(sum - estimate->stepSeconds) <= 1e-6 * estimate->stepSeconds + 1e-12);
    FUZZ_CHECK(estimate->peakBytes >= 0 && estimate->peakBytes <= 1e300);
    return 0;
}
