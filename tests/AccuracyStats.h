#pragma once
// Shared by the accuracy tests: quantiles of relative errors and the memory figure a
// published case measured.

#include "estimate/Estimate.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ts::test {

// Linear interpolation between order statistics (numpy's default).
inline double quantile(std::vector<double> v, double q) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double pos = q * double(v.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

// The estimate's figure for a case's measured.memory_metric (shared/spec/scenario-format.md):
// "allocated" and "active" are torch's allocated peak, "reserved" its reserved peak, and
// "nvidia-smi" or an unstated metric the device's whole use (peak_bytes).
inline double memoryFor(const Estimate& e, const std::string& metric) {
    if (metric == "allocated" || metric == "active")
        return e.peakAllocatedBytes;
    if (metric == "reserved")
        return e.peakReservedBytes;
    return e.peakBytes;
}

} // namespace ts::test
