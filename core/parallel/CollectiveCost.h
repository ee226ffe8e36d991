#pragma once
// Cost of NCCL-style collectives on a parallel group. The interface is what the estimator
// needs; the alpha-beta model below covers a two-level network (scale-up domain + NICs).
// The topology issue replaces it with graph-based costs behind the same interface.

#include "scenario/ClusterConfig.h"

#include <memory>
#include <optional>

namespace ts {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv };

// A group of `size` ranks spaced `stride` apart in the global rank order (Megatron order:
// tensor parallel fastest, then context, data, and pipeline slowest).
struct GroupPlacement {
    int size = 1;
    long long stride = 1;
};

struct CollectiveTime {
    double seconds = 0;
    // Bytes each GPU of the group sends, by link class.
    double scaleUpBytes = 0;
    double scaleOutBytes = 0;
};

class CollectiveCost {
public:
    virtual ~CollectiveCost() = default;
    // `bytes` follows the nccl-tests convention (doc/PERFORMANCE.md): the full buffer for
    // all-reduce, the output for all-gather, the input for reduce-scatter, the per-rank
    // send buffer for all-to-all, the message for send/recv.
    virtual CollectiveTime cost(Collective kind, double bytes,
                                const GroupPlacement& group) const = 0;
    // Members of `group` in one scale-up domain (its first rank's), for collectives that a
    // library runs in two hops, over the network to one GPU per domain and then over the
    // scale-up links (DeepEP's internode dispatch, estimate/MoeLayerCost.h).
    virtual int membersPerDomain(const GroupPlacement& group) const = 0;
};

// A ring collective of n ranks, k of them in each scale-up domain: the bytes each rank
// sends per byte of the nccl-tests buffer (NCCL's bus-bandwidth factor, nccl-tests
// doc/PERFORMANCE.md: all-reduce 2(n-1)/n; all-gather, reduce-scatter and all-to-all
// (n-1)/n) and the latency steps of the ring inside a domain (2(k-1) for all-reduce,
// k-1 otherwise). Send/recv is point to point: zero for both.
struct RingTraffic {
    double busFactor = 0;
    double domainSteps = 0;
};
RingTraffic ringTraffic(Collective kind, int n, int k);

// NCCL's bus-bandwidth factors (nccl-tests doc/PERFORMANCE.md): all-reduce 2(n-1)/n,
// all-gather and reduce-scatter (n-1)/n, all-to-all (n-1)/n. Inside one scale-up domain the
// bus bandwidth is the NVLink bandwidth times an achievable fraction; a group spanning
// domains runs NCCL's ring across them, with every member's NIC carrying a share, so its
// bus bandwidth is min(scale-up, members-per-domain x NIC bandwidth per GPU).
// Collective times measured with nccl-tests (a calibration profile; core/calibration
// implements it). nullopt = not measured for this collective and group shape: the model decides.
class MeasuredCollectives {
public:
    virtual ~MeasuredCollectives() = default;
    // A group of `ranks`, `membersPerDomain` of them in each scale-up domain; `spansDomains`
    // when it crosses the scale-out network. `modelScaleUpBusGBps` is the model's scale-up bus
    // bandwidth, the ceiling for a cross-domain figure scaled from another group shape.
    virtual std::optional<double> seconds(Collective kind, double bytes, int ranks,
                                          int membersPerDomain, bool spansDomains,
                                          double modelScaleUpBusGBps) const = 0;
};

struct CollectiveEfficiency {
    // nccl-tests all_reduce_perf on 8x H100 SXM: bus bandwidth ~ 370 GB/s of the 450 GB/s
    // NVLink4 per direction (NVIDIA; ml-engineering network/README.md "intra-node").
    double scaleUp = 370.0 / 450.0;
    // A 400 Gbit/s NIC (50 GB/s) delivers ~ 46-48 GB/s of NCCL bus bandwidth
    // (ml-engineering network/README.md, inter-node all-reduce measurements).
    double scaleOut = 47.0 / 50.0;
    // Measured times from a calibration profile; null = the model alone.
    std::shared_ptr<const MeasuredCollectives> measured;
};

class AlphaBetaCollectiveCost final : public CollectiveCost {
public:
    explicit AlphaBetaCollectiveCost(const ClusterConfig& cluster, CollectiveEfficiency eff = {});
    CollectiveTime cost(Collective kind, double bytes, const GroupPlacement& group) const override;

    // Members of the group inside one scale-up domain.
    int membersPerDomain(const GroupPlacement& group) const override;
    double scaleUpGBps() const { return scaleUpGBps_; }
    double nicGBpsPerGpu() const { return nicGBpsPerGpu_; }

private:
    CollectiveTime modelCost(Collective kind, double bytes, const GroupPlacement& group) const;

    std::shared_ptr<const MeasuredCollectives> measured_;
    int domainGpus_ = 8;
    double scaleUpGBps_ = 0;   // achievable, per GPU per direction
    double nicGBpsPerGpu_ = 0; // achievable, per GPU per direction
    double alphaUpS_ = 0;
    double alphaOutS_ = 0;
};

} // namespace ts
