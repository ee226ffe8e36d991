#pragma once
// The estimate as "trainscape.estimate/1" JSON (shared/spec/scenario-format.md) and as a
// readable text summary for the command line.

#include "estimate/Estimate.h"

#include <string>

#include <nlohmann/json.hpp>

namespace ts {

inline constexpr const char* kEstimateFormat = "trainscape.estimate/1";

// Exactly the spec's shape and key order; values the estimator does not compute (energy,
// cost, train) are null.
nlohmann::ordered_json estimateToJson(const Estimate& estimate);

// Multi-line summary: fits and peak memory against capacity, step time and its breakdown,
// throughput, MFU, communication, warnings.
std::string estimateToText(const Estimate& estimate);

} // namespace ts
