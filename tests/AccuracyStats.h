#pragma once
// Shared by the accuracy tests: quantiles of relative errors and the memory figure a
// published case measured.

#include "accuracy/PublishedRuns.h"
#include "estimate/Estimate.h"

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

} // namespace ts::test
