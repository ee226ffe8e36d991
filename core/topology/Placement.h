#pragma once
// Placement of the parallel groups onto GPUs. Ranks are GPUs in order (rank r is the r-th GPU
// of the graph: domain-major), and each parallel dimension varies with a stride given by the
// rank order, fastest first: Megatron-LM's default "tp-cp-ep-dp-pp" (parallel_state.py
// order). Expert parallelism splits the data-parallel dimension (ep divides dp): in the rank
// order "dp" stands for the expert data-parallel part dp / ep, and the dense data-parallel
// group is ep x dp/ep, a single stride when ep and dp are neighbours in the order.

#include "common/Diagnostics.h"
#include "parallel/CollectiveCost.h"
#include "scenario/PlanConfig.h"
#include "topology/TopologyModel.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

enum class ParallelDim { Tp, Cp, Ep, Dp, Pp };

struct RankOrder {
    std::array<ParallelDim, 5> dims = {ParallelDim::Tp, ParallelDim::Cp, ParallelDim::Ep,
                                       ParallelDim::Dp, ParallelDim::Pp};
    std::string toString() const;
};

// "tp-cp-ep-dp-pp" or any permutation of those five names.
std::optional<RankOrder> parseRankOrder(std::string_view text, const std::string& path,
                                        Diagnostics& diags);

struct GroupPlacements {
    GroupPlacement tp, cp, ep, expertDp, dp, pp;
};

// Returns nullopt with an error when the dense data-parallel group is not one stride (ep
// and dp apart in the order with other dimensions > 1 between them).
std::optional<GroupPlacements> placeGroups(const ParallelConfig& plan, const RankOrder& order,
                                           Diagnostics& diags);

// The ranks of the group of `group`'s shape that holds `rank`.
std::vector<int> groupMembers(const GroupPlacement& group, int rank);

// Traffic of one kind of group, per member and step, split as the collective model splits it.
struct GroupTraffic {
    std::string dimension; // "tp", "dp", ...
    GroupPlacement group;
    double scaleUpBytes = 0; // per member, inside the scale-up domain
    double networkBytes = 0; // per member, across domains
    // An all-to-all in two hops (the expert dispatch and combine as DeepEP runs them, and as
    // estimate/MoeLayerCost.h costs them): scaleUpBytes in equal shares to the other members
    // of the member's domain, networkBytes in equal shares to the members at its place (its
    // rail) in the group's other domains.
    bool allToAll = false;
};

// Peers of one member each hop of an all-to-all routes: at most this many, evenly spread,
// each standing for its share of the others.
inline constexpr int kAllToAllRoutedPeers = 8;

struct LinkTraffic {
    std::vector<double> bytesPerLink; // indexed like Topology::links, both directions summed
    // Summed over links (a byte crossing two links counts twice), for the whole cluster.
    double scaleUpBytes = 0, scaleOutBytes = 0, wanBytes = 0;
    // Large clusters: only a sample of ranks is routed; bytesPerLink then holds the sample's
    // traffic alone (a heat map of those routes) and the class totals are scaled to all.
    bool sampled = false;
};

// Every group of each shape runs its hierarchical ring: scale-up bytes to the next member in
// its domain, network bytes to the member at the same place in the next domain, each along
// its route; an all-to-all group sends to its peers (GroupTraffic::allToAll). Clusters with
// more than `maxRoutes` ring edges per shape route a sample of the ranks.
LinkTraffic linkTraffic(const TopologyModel& model, const std::vector<GroupTraffic>& traffic,
                        int maxRoutes = 4096);

} // namespace ts
