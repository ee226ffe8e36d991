#include "calibration/CalibratedSettings.h"

#include "calibration/LogInterpolation.h"
#include "hardware/KernelTime.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ts {

namespace {

// The model's own view of how efficient an M x N x K multiply is relative to a large one:
// small multiplies cannot fill the GPU (size roll-off), and tiles and waves quantize
// (KernelTime.cpp).
double modelledStructure(const HardwareProfile& hw, double m, double n, double k) {
    const double flops = 2.0 * m * n * k;
    const double size =
        hw.gemmHalfEfficiencyFlops > 0 ? flops / (flops + hw.gemmHalfEfficiencyFlops) : 1.0;
    return size * matmulShapeEfficiency(hw, m, n, k);
}

class ProfileKernels final : public MeasuredKernels {
public:
    ProfileKernels(const CalibrationProfile& profile, const HardwareProfile& hw) {
        for (const MatmulPoint& p : profile.matmul) {
            const double peak = hw.forDtype(p.dtype).peakTflops;
            if (peak <= 0)
                continue;
            const double m = double(p.m), n = double(p.n), k = double(p.k);
            const double efficiency = p.tflops / peak;
            auto& table = matmul_[p.dtype];
            table.efficiency.push_back({{m, n, k}, efficiency});
            table.structure.push_back({{m, n, k}, modelledStructure(hw, m, n, k)});
            table.best = std::max(table.best, efficiency);
        }
        for (const AttentionPoint& a : profile.attention) {
            auto& table = attention_[a.causal];
            table.forward.push_back({{double(a.seqLen), double(a.headDim)}, a.forwardTflops});
            if (a.backwardTflops)
                table.backward.push_back(
                    {{double(a.seqLen), double(a.headDim)}, *a.backwardTflops});
        }
    }
    bool empty() const { return matmul_.empty() && attention_.empty(); }

    // The measured efficiencies interpolated between the points; exact at a point. The model
    // only lowers a query that it judges worse than its measured neighbours (smaller, or
    // quantizing worse): measured points already hold the effects of their own shapes (and
    // cuBLAS often beats the model's tile choice, as at a MAMF shape), so the model never
    // raises a query above them, and nothing is predicted above the best measured point (a
    // MAMF is the best of a search).
    std::optional<double> matmulEfficiency(const HardwareProfile& hw, MatmulDtype dtype, double m,
                                           double n, double k) const override {
        auto it = matmul_.find(dtype);
        if (it == matmul_.end())
            return std::nullopt;
        const MatmulTable& t = it->second;
        const double measured = interpolateInLogSpace<3>(t.efficiency, {m, n, k});
        const double neighbours = interpolateInLogSpace<3>(t.structure, {m, n, k});
        const double relative =
            neighbours > 0 ? std::min(1.0, modelledStructure(hw, m, n, k) / neighbours) : 1.0;
        return std::min(t.best, measured * relative);
    }

    std::optional<double> attentionTflops(std::int64_t seqLen, int headDim, bool causal,
                                          bool backward) const override {
        auto it = attention_.find(causal);
        if (it == attention_.end())
            return std::nullopt;
        const auto& points = backward ? it->second.backward : it->second.forward;
        if (points.empty())
            return std::nullopt;
        const double tflops = interpolateInLogSpace<2>(points, {double(seqLen), double(headDim)});
        return tflops > 0 ? std::optional<double>(tflops) : std::nullopt;
    }

private:
    struct AttentionTable {
        std::vector<LogSpacePoint<2>> forward, backward;
    };
    struct MatmulTable {
        std::vector<LogSpacePoint<3>> efficiency, structure;
        double best = 0; // the highest measured efficiency: no shape is predicted above it
    };
    std::map<MatmulDtype, MatmulTable> matmul_;
    std::map<bool, AttentionTable> attention_;
};

class ProfileCollectives final : public MeasuredCollectives {
public:
    explicit ProfileCollectives(const CalibrationProfile& profile) : entries_(profile.collectives) {
        for (const auto& e : entries_)
            if (e.scope == CollectiveScope::ScaleUp && e.collective != Collective::SendRecv)
                scaleUpBusGBps_ = std::max(scaleUpBusGBps_, e.busbwGBps);
    }
    bool empty() const { return entries_.empty(); }

    std::optional<double> seconds(Collective kind, double bytes, int ranks, int membersPerDomain,
                                  bool spansDomains, double modelScaleUpBusGBps) const override {
        const CollectiveScope scope =
            spansDomains ? CollectiveScope::ScaleOut : CollectiveScope::ScaleUp;
        const CollectiveMeasurement* entry = pick(kind, scope, ranks, membersPerDomain);
        if (!entry)
            return std::nullopt;
        // Bus bandwidth normalises the group size away (nccl-tests doc/PERFORMANCE.md), so a
        // figure measured on one group applies to another of the same scope; across nodes it
        // scales with the members per node that share the traffic, up to the NVLink domain's.
        double scale = 1.0;
        if (spansDomains) {
            const double measuredMembers = double(entry->ranks) / entry->nodes;
            scale = double(membersPerDomain) / measuredMembers;
        }
        const double factor = busBandwidthFactor(kind, ranks);
        const double ceiling = scaleUpBusGBps_ > 0 ? scaleUpBusGBps_ : modelScaleUpBusGBps;
        auto busbwAt = [&](double busbw) {
            double b = busbw * scale;
            if (spansDomains && scale > 1.0 && ceiling > 0)
                b = std::min(b, std::max(ceiling, busbw));
            return b;
        };
        const double latencyS = entry->latencyUs.value_or(0.0) * 1e-6;
        const auto& pts = entry->points;
        if (pts.size() >= 2 && bytes >= pts.front().bytes && bytes <= pts.back().bytes) {
            std::vector<LogCurvePoint> curve;
            curve.reserve(pts.size());
            for (const auto& p : pts)
                curve.push_back({p.bytes, p.busbwGBps});
            const double busbw = busbwAt(interpolateOnLogSize(curve, bytes));
            if (busbw > 0)
                return std::max(latencyS, factor * bytes / (busbw * 1e9));
        }
        if (!pts.empty() && bytes < pts.front().bytes)
            // Below the smallest measured message: latency-bound, no faster than that row.
            return std::max(latencyS, pts.front().timeUs * 1e-6);
        return latencyS + factor * bytes / (busbwAt(entry->busbwGBps) * 1e9);
    }

private:
    // Same collective and scope, the nearest group shape; else all-reduce of that scope (its
    // bus bandwidth is the link's, comparable across collectives); send/recv only itself.
    const CollectiveMeasurement* pick(Collective kind, CollectiveScope scope, int ranks,
                                      int membersPerDomain) const {
        const CollectiveMeasurement* best = nullptr;
        double bestDistance = 0;
        for (int pass = 0; pass < 2 && !best; ++pass) {
            for (const auto& e : entries_) {
                if (e.scope != scope)
                    continue;
                const bool match = pass == 0 ? e.collective == kind
                                             : (kind != Collective::SendRecv &&
                                                e.collective == Collective::AllReduce);
                if (!match)
                    continue;
                const double distance =
                    scope == CollectiveScope::ScaleUp
                        ? std::abs(std::log2(double(e.ranks) / ranks))
                        : std::abs(std::log2(double(e.ranks) / e.nodes / membersPerDomain)) +
                              0.01 * std::abs(std::log2(double(e.ranks) / ranks));
                if (!best || distance < bestDistance) {
                    best = &e;
                    bestDistance = distance;
                }
            }
        }
        return best;
    }

    std::vector<CollectiveMeasurement> entries_;
    double scaleUpBusGBps_ = 0;
};

} // namespace

void applyCalibration(const CalibrationProfile& profile, EstimatorSettings& settings) {
    HardwareProfile& hw = settings.hardware;
    if (profile.hbm && hw.hbmGBps > 0)
        hw.hbmEfficiency = profile.hbm->achievedGBps / hw.hbmGBps;
    if (profile.kernelOverheadUs)
        hw.kernelOverheadUs = *profile.kernelOverheadUs;
    auto kernels = std::make_shared<ProfileKernels>(profile, hw);
    if (!kernels->empty())
        hw.measured = std::move(kernels);
    auto collectives = std::make_shared<ProfileCollectives>(profile);
    if (!collectives->empty())
        settings.collectives.measured = std::move(collectives);
}

EstimatorSettings calibratedEstimatorSettings(const ResolvedScenario& scenario,
                                              const CalibrationProfile& profile) {
    // The defaults without the scenario's own selection, then this profile.
    ResolvedScenario plain = scenario;
    plain.calibrationProfile.reset();
    EstimatorSettings settings = defaultEstimatorSettings(plain);
    applyCalibration(profile, settings);
    return settings;
}

} // namespace ts
