#pragma once
// What one step of a plan puts on the cluster graph, for drawing: bytes per link (a heat map)
// and the GPUs and links of one parallel group (an overlay). Bytes per GPU come from the
// estimate (Estimate::commBytesPerGpu) and are split between scale-up and network as the
// graph's collective model splits them (GraphCollectiveCost), then routed as each group's
// hierarchical ring (linkTraffic, Placement.h); the expert-parallel all-to-all in its two hops
// (GroupTraffic::allToAll), split between them as the estimate's MoE cost splits them.

#include "estimate/Estimate.h"
#include "scenario/PlanConfig.h"
#include "scenario/ResolvedScenario.h"
#include "topology/Placement.h"
#include "topology/TopologyModel.h"

#include <memory>
#include <optional>
#include <vector>

namespace ts {

struct LinkHeat {
    std::vector<double> bytesPerLink; // per Topology link, both directions, whole cluster
    bool sampled = false;             // routed for a sample of ranks, scaled to all
    double stepSeconds = 0;
};

// The plan's groups placed in Megatron-LM's default rank order (Placement.h).
std::optional<GroupPlacements> defaultPlacements(const ParallelConfig& plan, Diagnostics& diags);

// TP, CP, EP, DP and PP traffic of the estimate on `model`'s links. `maxRoutes` bounds the routes
// per group shape (linkTraffic); a sampled map is scaled by the ranks it stands for.
LinkHeat planLinkHeat(std::shared_ptr<const TopologyModel> model, const ResolvedScenario& scenario,
                      const Estimate& estimate, int maxRoutes = 4096);

// Share of a link's capacity in both directions that the step's bytes use.
double linkUtilisation(double bytesPerStep, double gbPerS, double stepSeconds);

// Groups of `group`'s shape among `gpus` ranks, and the ranks of group `index`.
int groupCount(const GroupPlacement& group, int gpus);
std::vector<int> groupRanks(const GroupPlacement& group, int index);
// The links the group's ring uses (each member to the next, along the routes).
std::vector<int> groupRingLinks(const TopologyModel& model, const std::vector<int>& ranks);
// The links the group's two-hop all-to-all uses (GroupTraffic::allToAll): each member to the
// others of its domain and to the members at its place in the other domains; `perDomain`
// members share a domain (GroupProfile::membersPerDomain).
std::vector<int> groupAllToAllLinks(const TopologyModel& model, const std::vector<int>& ranks,
                                    int perDomain);

} // namespace ts
