#pragma once
// A stored version's estimate through the library's cache: the cached one when the estimator
// (and the catalog and calibration settings) that made it are today's, else computed afresh
// and cached (a read-only library still gets the estimate, only uncached).

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "store/Library.h"

#include <string>

namespace ts::store {

struct VersionEstimate {
    std::string estimateJson; // "trainscape.estimate/1"
    std::string estimatorVersion;
    bool fromCache = false;
};

// The cache key: estimatorVersion(), plus `settingsFingerprint` when the caller uses catalog
// or calibration files beyond the built-in ones (their contents change the numbers too).
std::string estimateCacheKey(const std::string& settingsFingerprint);

// Errors of the stored scenario itself (invalid, not modelled) land in `diags` and give a
// BadInput StoreError.
Result<VersionEstimate> estimateOfVersion(Library& library, ScenarioId id, int number,
                                          const Catalog& catalog,
                                          const CalibrationRegistry& calibrations,
                                          const std::string& settingsFingerprint,
                                          Diagnostics& diags);

} // namespace ts::store
