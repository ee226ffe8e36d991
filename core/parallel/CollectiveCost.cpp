#include "parallel/CollectiveCost.h"

#include <algorithm>
#include <cmath>

namespace ts {

AlphaBetaCollectiveCost::AlphaBetaCollectiveCost(const ClusterConfig& cluster,
                                                 CollectiveEfficiency eff) {
    domainGpus_ = std::max(1, cluster.scaleUp.domainGpus);
    scaleUpGBps_ = cluster.scaleUp.bandwidthGBps * eff.scaleUp;
    const double nicGBps = cluster.scaleOut.nicGbitPerS / 8.0;
    const double nicsPerGpu =
        cluster.gpusPerNode > 0 ? double(cluster.scaleOut.nicsPerNode) / cluster.gpusPerNode : 0;
    const double oversub = std::max(1.0, cluster.scaleOut.oversubscription);
    nicGBpsPerGpu_ = nicGBps * nicsPerGpu * eff.scaleOut / oversub;
    alphaUpS_ = cluster.scaleUp.latencyUs * 1e-6;
    alphaOutS_ = cluster.scaleOut.latencyUs * 1e-6;
    measured_ = eff.measured;
}

int AlphaBetaCollectiveCost::membersPerDomain(const GroupPlacement& g) const {
    if (g.size <= 1)
        return 1;
    if (g.stride >= domainGpus_)
        return 1;
    const long long fit = domainGpus_ / std::max(1LL, g.stride);
    return static_cast<int>(std::clamp<long long>(fit, 1, g.size));
}

RingTraffic ringTraffic(Collective kind, int n, int k) {
    const double nd = n;
    switch (kind) {
    case Collective::AllReduce:
        return {2.0 * (nd - 1) / nd, 2.0 * (k - 1)};
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
        return {(nd - 1) / nd, double(k - 1)};
    case Collective::SendRecv:
        break;
    }
    return {};
}

CollectiveTime AlphaBetaCollectiveCost::cost(Collective kind, double bytes,
                                             const GroupPlacement& g) const {
    CollectiveTime t = modelCost(kind, bytes, g);
    // A calibration profile's measured time replaces the modelled one; the bytes per link
    // class stay as modelled.
    if (measured_ && g.size > 1 && bytes > 0) {
        const int k = membersPerDomain(g);
        if (auto seconds = measured_->seconds(kind, bytes, g.size, k, g.size > k, scaleUpGBps_))
            t.seconds = *seconds;
    }
    return t;
}

CollectiveTime AlphaBetaCollectiveCost::modelCost(Collective kind, double bytes,
                                                  const GroupPlacement& g) const {
    CollectiveTime t;
    const int n = g.size;
    if (n <= 1 || bytes <= 0)
        return t;
    const int k = membersPerDomain(g);
    const double domains = std::ceil(double(n) / k);
    const bool spans = domains > 1;
    const double nd = n;

    if (kind == Collective::SendRecv) {
        // Point to point between neighbouring ranks of the group.
        const double bw = spans ? nicGBpsPerGpu_ : scaleUpGBps_;
        t.seconds = (spans ? alphaOutS_ : alphaUpS_) + bytes / (bw * 1e9);
        (spans ? t.scaleOutBytes : t.scaleUpBytes) = bytes;
        return t;
    }

    const auto [factor, steps] = ringTraffic(kind, n, k);
    const double sent = factor * bytes; // per GPU
    if (!spans) {
        t.seconds = steps * alphaUpS_ + sent / (scaleUpGBps_ * 1e9);
        t.scaleUpBytes = sent;
        return t;
    }
    // Across domains: the ring's inter-domain hops are spread over the k members' NICs.
    double busGBps = k * nicGBpsPerGpu_;
    if (k > 1)
        busGBps = std::min(busGBps, scaleUpGBps_);
    if (kind == Collective::AllToAll) {
        // Each rank sends (n - k)/n of its buffer over the NICs, (k - 1)/n over NVLink.
        const double outBytes = bytes * (nd - k) / nd;
        const double upBytes = bytes * (k - 1.0) / nd;
        t.seconds = std::max(outBytes / (nicGBpsPerGpu_ * 1e9),
                             k > 1 ? upBytes / (scaleUpGBps_ * 1e9) : 0.0) +
                    (domains - 1) * alphaOutS_;
        t.scaleOutBytes = outBytes;
        t.scaleUpBytes = upBytes;
        return t;
    }
    // Latency: ring steps inside the domain plus a tree (log depth) across domains, as NCCL
    // picks trees/NVLS-tree at scale (NCCL 2.x "Massively Scale Your Deep Learning Training
    // with NCCL 2.4", NVIDIA blog 2019).
    const double treeSteps = (kind == Collective::AllReduce ? 2.0 : 1.0) * std::log2(domains);
    t.seconds = steps * alphaUpS_ + treeSteps * alphaOutS_ + sent / (busGBps * 1e9);
    t.scaleOutBytes = sent / k;
    t.scaleUpBytes = sent * (k - 1.0) / k;
    return t;
}

} // namespace ts
