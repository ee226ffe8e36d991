#include "calibration/LogInterpolation.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ts {

double interpolateOnLogSize(const std::vector<LogCurvePoint>& points, double x) {
    if (points.empty())
        return 0.0;
    if (x <= points.front().x)
        return points.front().y;
    if (x >= points.back().x)
        return points.back().y;
    auto upper = std::upper_bound(points.begin(), points.end(), x,
                                  [](double value, const LogCurvePoint& p) { return value < p.x; });
    const LogCurvePoint& hi = *upper;
    const LogCurvePoint& lo = *(upper - 1);
    const double span = std::log(hi.x) - std::log(lo.x);
    if (span <= 0)
        return hi.y;
    const double t = (std::log(x) - std::log(lo.x)) / span;
    return lo.y + t * (hi.y - lo.y);
}

template <std::size_t D>
double interpolateInLogSpace(const std::vector<LogSpacePoint<D>>& points,
                             const std::array<double, D>& at, std::size_t neighbours) {
    if (points.empty())
        return 0.0;
    // Beyond the measured range in a dimension, the edge of the range: no extrapolation.
    std::array<double, D> lo = points.front().size, hi = points.front().size;
    for (const auto& p : points)
        for (std::size_t d = 0; d < D; ++d) {
            lo[d] = std::min(lo[d], p.size[d]);
            hi[d] = std::max(hi[d], p.size[d]);
        }
    std::array<double, D> logAt{};
    for (std::size_t d = 0; d < D; ++d)
        logAt[d] = std::log2(std::max(std::clamp(at[d], lo[d], hi[d]), 1e-30));
    std::vector<std::pair<double, double>> byDistance; // squared distance, value
    byDistance.reserve(points.size());
    for (const auto& p : points) {
        double d2 = 0;
        for (std::size_t d = 0; d < D; ++d) {
            const double delta = std::log2(std::max(p.size[d], 1e-30)) - logAt[d];
            d2 += delta * delta;
        }
        if (d2 < 1e-18)
            return p.value; // a measured point
        byDistance.emplace_back(d2, p.value);
    }
    const std::size_t k = std::clamp<std::size_t>(neighbours, 1, byDistance.size());
    std::partial_sort(byDistance.begin(), byDistance.begin() + static_cast<std::ptrdiff_t>(k),
                      byDistance.end());
    double weightSum = 0, sum = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const double w = 1.0 / byDistance[i].first;
        weightSum += w;
        sum += w * byDistance[i].second;
    }
    return sum / weightSum;
}

template double interpolateInLogSpace<2>(const std::vector<LogSpacePoint<2>>&,
                                         const std::array<double, 2>&, std::size_t);
template double interpolateInLogSpace<3>(const std::vector<LogSpacePoint<3>>&,
                                         const std::array<double, 3>&, std::size_t);

} // namespace ts
