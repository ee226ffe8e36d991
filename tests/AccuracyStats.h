#pragma once
// Shared by the accuracy tests: quantiles of relative errors and the memory figure a
// published case measured.

#include "accuracy/PublishedRuns.h"
#include "estimate/Estimate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ts::test {

// Linear interpolation between order statistics, numpy's default (accuracy/ErrorBand.h).
using ts::quantile;

// The estimate's figure for a case's measured.memory_metric (shared/spec/scenario-format.md;
// accuracy/PublishedRuns.h, which the memory error band uses too).
inline double memoryFor(const Estimate& e, const std::string& metric) {
    return peakMemoryForMetric(e, metric);
}

// Sets the keys a case's sources state beyond the shared format (tests/data/*-stated-keys.json:
// "cases" maps an id to JSON pointers and their values, beside a "source" note) into its
// scenario; returns how many were set.
inline int applyStatedKeys(nlohmann::json& scenario, const nlohmann::json& stated,
                           const std::string& id) {
    const auto it = stated.at("cases").find(id);
    if (it == stated.at("cases").end())
        return 0;
    int set = 0;
    for (const auto& [pointer, value] : it->items())
        if (pointer != "source") {
            scenario[nlohmann::json::json_pointer(pointer)] = value;
            ++set;
        }
    return set;
}

// A ratchet file's entry `key` ({"median", "p90"}: the best figures so far) against the
// figures now: prints the new best where both improved by more than `tolerance`, and returns
// what got worse ("" when nothing did).
inline std::string ratchetCheck(const nlohmann::json& best, const std::string& key, double median,
                                double p90, double tolerance) {
    const double m = best.at(key).at("median"), p = best.at(key).at("p90");
    if (median < m - tolerance || p90 < p - tolerance)
        std::printf("  %s better than the ratchet: {\"median\": %.4f, \"p90\": %.4f}\n",
                    key.c_str(), std::min(median, m), std::min(p90, p));
    if (median > m + tolerance)
        return key + ": median got worse";
    if (p90 > p + tolerance)
        return key + ": p90 got worse";
    return {};
}

} // namespace ts::test
