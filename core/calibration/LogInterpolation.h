#pragma once
// Interpolation between measured points on log-size: kernel and collective throughput vary
// with the logarithm of the problem size far more evenly than with the size itself (a matmul
// sweep doubles its dimensions; nccl-tests doubles its message size).

#include <array>
#include <cstddef>
#include <vector>

namespace ts {

struct LogCurvePoint {
    double x = 0; // size (> 0)
    double y = 0;
};

// Piecewise-linear in log(x) through points sorted by x; constant beyond the ends (no
// extrapolation past what was measured). Empty input gives 0.
double interpolateOnLogSize(const std::vector<LogCurvePoint>& sortedPoints, double x);

// Scattered points in a space of D sizes (M, N, K; or sequence length and head dim).
template <std::size_t D> struct LogSpacePoint {
    std::array<double, D> size{};
    double value = 0;
};

// Inverse-distance weighting in log2-space (Shepard 1968) over the `neighbours` nearest
// points, weights 1/d^2: exact at a measured point and bounded by its neighbours' values
// between them. A query beyond the measured range of a dimension is moved to the edge of that
// range first (no extrapolation).
template <std::size_t D>
double interpolateInLogSpace(const std::vector<LogSpacePoint<D>>& points,
                             const std::array<double, D>& at, std::size_t neighbours = 4);

extern template double interpolateInLogSpace<2>(const std::vector<LogSpacePoint<2>>&,
                                                const std::array<double, 2>&, std::size_t);
extern template double interpolateInLogSpace<3>(const std::vector<LogSpacePoint<3>>&,
                                                const std::array<double, 3>&, std::size_t);

} // namespace ts
