#pragma once
// Collective cost on the cluster graph, behind the estimator's CollectiveCost seam. Per
// group shape, the graph gives the members per scale-up domain, the scale-up rate and the
// network rate of the hierarchical ring's slowest edge (with oversubscription and WAN links
// on its route), and whether traffic must be forwarded over the scale-up domain (rail-only).
// The formulas are AlphaBetaCollectiveCost's (NCCL bus-bandwidth factors, hierarchical
// across domains), so that a non-blocking rail-optimized cluster costs exactly the same.

#include "parallel/CollectiveCost.h"
#include "topology/TopologyModel.h"

#include <memory>
#include <utility>
#include <vector>

namespace ts {

struct GraphCollectiveOptions {
    // In-switch reduction inside the scale-up domain (NVLink SHARP): all-reduce bus bandwidth
    // ~ 480 GB/s instead of ~ 370 on 8x H100 (nccl-tests issues 212/290, catalog.md B2).
    bool nvls = false;
    // In-network reduction on the scale-out switches (InfiniBand SHARP): a GPU sends its data
    // up once instead of twice. Assumption, not calibrated: off by default.
    bool sharp = false;
};

class GraphCollectiveCost final : public CollectiveCost {
public:
    GraphCollectiveCost(std::shared_ptr<const TopologyModel> model, CollectiveEfficiency eff = {},
                        GraphCollectiveOptions options = {});
    CollectiveTime cost(Collective kind, double bytes, const GroupPlacement& group) const override;
    int membersPerDomain(const GroupPlacement& group) const override {
        return group.size <= 1 ? 1 : profile(group).membersPerDomain;
    }

    const TopologyModel& model() const { return *model_; }

private:
    CollectiveTime modelCost(Collective kind, double bytes, const GroupProfile& profile) const;

    const GroupProfile& profile(const GroupPlacement& group) const;

    std::shared_ptr<const TopologyModel> model_;
    CollectiveEfficiency eff_;
    GraphCollectiveOptions options_;
    // The few shapes one estimate asks for, without the model's lock: an instance serves
    // one thread (the estimator makes one per estimate).
    mutable std::vector<std::pair<std::pair<int, long long>, GroupProfile>> memo_;
};

// The estimator's collective model for `cluster`: on its graph when it can be built, else
// nullptr, with the reason in `diags` (the caller keeps the alpha-beta model).
std::shared_ptr<const CollectiveCost> topologyCollectiveCost(const ClusterConfig& cluster,
                                                             const CollectiveEfficiency& eff,
                                                             Diagnostics* diags = nullptr);

} // namespace ts
