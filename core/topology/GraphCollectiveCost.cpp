#include "topology/GraphCollectiveCost.h"

#include "topology/TopologyBuilder.h"

#include <algorithm>
#include <cmath>

namespace ts {

namespace {
// NVLink SHARP all-reduce bus bandwidth over the ring's on 8x H100: ~480 vs ~370 GB/s
// (nccl-tests issues 212 and 290; shared/reference/catalog.md B2).
constexpr double kNvlsAllReduceGain = 480.0 / 370.0;
} // namespace

GraphCollectiveCost::GraphCollectiveCost(std::shared_ptr<const TopologyModel> model,
                                         CollectiveEfficiency eff, GraphCollectiveOptions options)
    : model_(std::move(model)), eff_(eff), options_(options) {}

CollectiveTime GraphCollectiveCost::cost(Collective kind, double bytes,
                                         const GroupPlacement& group) const {
    if (group.size <= 1 || bytes <= 0)
        return {};
    const GroupProfile& p = profile(group);
    CollectiveTime t = modelCost(kind, bytes, p);
    // A calibration profile's measured time replaces the modelled one, as in
    // AlphaBetaCollectiveCost; the bytes per link class stay as modelled.
    if (eff_.measured) {
        const int k = p.membersPerDomain;
        if (auto seconds = eff_.measured->seconds(kind, bytes, p.size, k, p.size > k,
                                                  p.scaleUpGBps * eff_.scaleUp))
            t.seconds = *seconds;
    }
    return t;
}

const GroupProfile& GraphCollectiveCost::profile(const GroupPlacement& group) const {
    const auto key = std::make_pair(group.size, group.stride);
    for (const auto& [k, p] : memo_)
        if (k == key)
            return p;
    memo_.emplace_back(key, model_->profile(group));
    return memo_.back().second;
}

CollectiveTime GraphCollectiveCost::modelCost(Collective kind, double bytes,
                                              const GroupProfile& p) const {
    CollectiveTime t;
    const int n = p.size;
    const int k = p.membersPerDomain;
    const double nd = n;
    const double domains = std::ceil(nd / k);
    const bool spans = domains > 1;
    const double up = p.scaleUpGBps * eff_.scaleUp * 1e9;         // bytes/s per GPU
    const double gpuUp = p.gpuScaleUpGBps * eff_.scaleUp * 1e9;   // for forwarding
    const double out = p.networkGBpsPerGpu * eff_.scaleOut * 1e9; // bytes/s per GPU
    const double alphaUp = model_->scaleUpLatencyUs() * 1e-6;
    double alphaOut = (model_->scaleOutLatencyUs() + p.networkLatencyUs) * 1e-6;
    if (p.ringForwarded)
        alphaOut += alphaUp;

    if (kind == Collective::SendRecv) {
        if (!p.sendRecvCrossesNetwork) {
            t.seconds = alphaUp + bytes / (p.sendRecvGBps * eff_.scaleUp * 1e9);
            t.scaleUpBytes = bytes;
            return t;
        }
        t.seconds = (model_->scaleOutLatencyUs() + p.sendRecvLatencyUs) * 1e-6 +
                    bytes / (p.sendRecvGBps * eff_.scaleOut * 1e9);
        t.scaleOutBytes = bytes;
        if (p.sendRecvForwarded) {
            // Over NVLink to the GPU on the destination's rail first.
            t.seconds += alphaUp + bytes / gpuUp;
            t.scaleUpBytes = bytes;
        }
        return t;
    }

    const auto [factor, steps] = ringTraffic(kind, n, k);
    const double sent = factor * bytes;
    const bool nvls = options_.nvls && kind == Collective::AllReduce;
    if (!spans) {
        t.seconds = steps * alphaUp + sent / (up * (nvls ? kNvlsAllReduceGain : 1.0));
        t.scaleUpBytes = sent;
        return t;
    }
    if (kind == Collective::AllToAll) {
        // (n - k)/n of the buffer leaves the domain, (k - 1)/n stays. On rail-only, the share
        // bound for another rail first crosses NVLink to the GPU on that rail; Wang et al.
        // (arXiv 2307.12169) charge it in series, a slowdown of ~ B_NIC / B_HB.
        const double a2a = p.allToAllGBpsPerGpu * eff_.scaleOut * 1e9;
        const double outBytes = bytes * (nd - k) / nd;
        const double upBytes = bytes * (k - 1.0) / nd;
        const double fwdBytes = outBytes * p.allToAllForwardedShare;
        t.seconds = std::max(outBytes / a2a, k > 1 ? upBytes / up : 0.0) +
                    (fwdBytes > 0 ? fwdBytes / gpuUp : 0.0) + (domains - 1) * alphaOut;
        t.scaleOutBytes = outBytes;
        t.scaleUpBytes = upBytes + fwdBytes;
        return t;
    }
    double busBps = k * out;
    if (options_.sharp && kind == Collective::AllReduce)
        busBps *= 2.0; // each GPU's data goes up once, not reduce-scatter + all-gather
    if (k > 1)
        busBps = std::min(busBps, up * (nvls ? kNvlsAllReduceGain : 1.0));
    const double treeSteps = (kind == Collective::AllReduce ? 2.0 : 1.0) * std::log2(domains);
    t.seconds = steps * alphaUp + treeSteps * alphaOut + sent / busBps;
    t.scaleOutBytes = sent / k;
    t.scaleUpBytes = sent * (k - 1.0) / k;
    if (p.ringForwarded) {
        // Edges between different rails forward their share over NVLink as well.
        t.scaleUpBytes += sent / k;
        t.seconds += (sent / k) / gpuUp;
    }
    return t;
}

std::shared_ptr<const CollectiveCost> topologyCollectiveCost(const ClusterConfig& cluster,
                                                             const CollectiveEfficiency& eff,
                                                             Diagnostics* diags) {
    if (cluster.numGpus > kMaxEstimateGraphGpus) {
        if (diags)
            diags->warning("/cluster/num_gpus",
                           "more than " + std::to_string(kMaxEstimateGraphGpus) +
                               " GPUs: collectives use the two-level model, not the graph");
        return nullptr;
    }
    auto model = TopologyModel::forCluster(cluster, diags);
    if (!model)
        return nullptr;
    return std::make_shared<GraphCollectiveCost>(std::move(model), eff);
}

} // namespace ts
