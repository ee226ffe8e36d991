#pragma once
// One cluster's graph with everything derived from it that plans reuse: the route of every
// group shape, cached. TopologyModel::forCluster keeps the models of recently used clusters,
// so that estimating many plans of one cluster builds its graph once and finds each group
// shape's routes once (a few milliseconds on 32,768 GPUs), then answers in ~100 ns.

#include "common/Diagnostics.h"
#include "parallel/CollectiveCost.h"
#include "scenario/ClusterConfig.h"
#include "topology/Topology.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace ts {

class RouteFinder;

// What a group of one shape (the group of rank 0) gets from the graph. Rates are raw link
// rates in GB/s per direction, before NCCL efficiencies.
struct GroupProfile {
    int size = 1;
    int membersPerDomain = 1;  // k: members in rank 0's scale-up domain
    double scaleUpGBps = 0;    // ring inside the domain, per GPU
    double gpuScaleUpGBps = 0; // the GPU's own scale-up link (for forwarding)
    // Across domains: the hierarchical ring's edges (member i to member i + k).
    double networkGBpsPerGpu = 0; // per GPU: the narrowest edge's flow rate x NICs per GPU
    double networkLatencyUs = 0;  // the links' own latency on the slowest edge
    bool ringForwarded = false;   // some edge forwards over the scale-up domain
    bool crossesWan = false;
    // All-to-all from rank 0 to the members outside its domain.
    double allToAllGBpsPerGpu = 0;
    double allToAllForwardedShare = 0; // of the bytes leaving the domain (rail-only)
    // Point to point to the next member.
    bool sendRecvCrossesNetwork = false;
    double sendRecvGBps = 0;
    bool sendRecvForwarded = false;
    double sendRecvLatencyUs = 0;
    bool reachable = true;
};

class TopologyModel {
public:
    TopologyModel(Topology topology, const ClusterConfig& cluster);
    ~TopologyModel();

    // The cached model of `cluster`, built on first use; nullptr (with errors in `diags`
    // when given) when the cluster cannot be built as a graph.
    static std::shared_ptr<const TopologyModel> forCluster(const ClusterConfig& cluster,
                                                           Diagnostics* diags = nullptr);

    const Topology& topology() const { return topology_; }
    double scaleUpLatencyUs() const { return scaleUpLatencyUs_; }
    double scaleOutLatencyUs() const { return scaleOutLatencyUs_; }
    // Thread-safe; computed once per shape.
    GroupProfile profile(const GroupPlacement& group) const;
    // The links of the route between two ranks (for traffic maps).
    std::vector<int> routeLinks(int srcRank, int dstRank) const;

private:
    GroupProfile computeProfile(const GroupPlacement& group) const;

    Topology topology_;
    double scaleUpLatencyUs_ = 0;
    double scaleOutLatencyUs_ = 0;
    mutable std::mutex mutex_;
    mutable std::unique_ptr<RouteFinder> routes_;
    mutable std::map<std::pair<int, long long>, GroupProfile> profiles_;
};

} // namespace ts
