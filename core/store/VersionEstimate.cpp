#include "store/VersionEstimate.h"

#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "estimate/EstimatorVersion.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

namespace ts::store {

std::string estimateCacheKey(const std::string& settingsFingerprint) {
    std::string key = estimatorVersion();
    if (!settingsFingerprint.empty())
        key += "+settings:" + settingsFingerprint;
    return key;
}

Result<VersionEstimate> estimateOfVersion(Library& library, ScenarioId id, int number,
                                          const Catalog& catalog,
                                          const CalibrationRegistry& calibrations,
                                          const std::string& settingsFingerprint,
                                          Diagnostics& diags) {
    const std::string key = estimateCacheKey(settingsFingerprint);
    auto cached = library.cachedEstimate(id, number);
    if (!cached)
        return cached.error();
    if (cached->has_value() && (*cached)->estimatorVersion == key)
        return VersionEstimate{(*cached)->estimateJson, key, true};
    auto stored = library.version(id, number);
    if (!stored)
        return stored.error();
    auto scenario = parseScenarioText(stored->scenarioJson, diags);
    std::optional<ResolvedScenario> resolved;
    if (scenario)
        resolved = resolveScenario(*scenario, catalog, calibrations, diags);
    std::optional<Estimate> estimate;
    if (resolved)
        estimate = estimatePlan(*resolved, diags);
    if (!estimate)
        return StoreError{StoreErrorKind::BadInput, "scenario " + std::to_string(id) + " version " +
                                                        std::to_string(number) +
                                                        " cannot be estimated"};
    const std::string json = estimateToJson(*estimate).dump(2);
    // A cache that cannot be written (read-only library) costs only the recomputation.
    (void)library.storeEstimate(id, number, {key, json, utcNow()});
    return VersionEstimate{json, key, false};
}

} // namespace ts::store
