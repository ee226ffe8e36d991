#pragma once
// The invariants every harness whose parser yields a scenario checks (scenario text, the
// launcher imports, the library bundle): an accepted scenario writes back to text that reads to
// the same scenario; it resolves against the built-in catalog or says why not; its estimate is
// refused with a diagnostic, or has a positive step time that its breakdown sums to and a
// finite peak memory. An estimate with a non-finite number is refused by the CLI and the app
// (estimate/EstimateFinite.h), so it passes here.

#include "FuzzChecks.h"

#include "catalog/Catalog.h"
#include "estimate/EstimateFinite.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cmath>

namespace ts::fuzz {

inline void checkScenario(const Scenario& scenario) {
    Diagnostics again;
    auto reread = parseScenarioText(scenarioToText(scenario), again);
    FUZZ_CHECK(reread && *reread == scenario);
    Diagnostics diags;
    auto resolved = resolveScenario(scenario, Catalog::builtIn(), diags);
    if (!resolved) {
        FUZZ_CHECK(diags.hasErrors());
        return;
    }
    EstimatorSettings settings = defaultEstimatorSettings(*resolved);
    settings.recordTimeline = false;
    Diagnostics estimateDiags;
    auto estimate = estimatePlan(*resolved, settings, estimateDiags);
    if (!estimate) {
        FUZZ_CHECK(estimateDiags.hasErrors());
        return;
    }
    if (firstNonFiniteNumber(estimateToJson(*estimate)))
        return; // refused by the CLI (exit 2) and the app; Limits.h keeps this rare
    FUZZ_CHECK(estimate->stepSeconds > 0);
    const double sum = estimate->time.sum();
    FUZZ_CHECK(std::abs(sum - estimate->stepSeconds) <= 1e-6 * estimate->stepSeconds + 1e-12);
    FUZZ_CHECK(estimate->peakBytes >= 0 && estimate->peakBytes <= 1e300);
}

// A scenario document from a converter (an import, a bundle): read it as the CLI does.
inline void checkScenarioJson(const nlohmann::ordered_json& doc) {
    Diagnostics diags;
    auto scenario = scenarioFromJson(doc, diags);
    if (!scenario) {
        FUZZ_CHECK(diags.hasErrors());
        return;
    }
    checkScenario(*scenario);
}

} // namespace ts::fuzz
