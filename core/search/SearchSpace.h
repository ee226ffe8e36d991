#pragma once
// The plan space of a scenario: every field of parallelism (and training.micro_batch) that a
// search may change, the values each may take, and the divisibility rules that make a plan
// valid for the model and cluster (the resolver's, core/scenario/ScenarioResolver.cpp).

#include "common/Diagnostics.h"
#include "scenario/ResolvedScenario.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ts {

// One plan of the space: what a search changes in the scenario.
struct PlanChoice {
    int tp = 1, pp = 1, vpp = 1, cp = 1, ep = 1, etp = 1;
    std::int64_t dp = 1;
    std::int64_t dpShard = 0; // 0: dp (full sharding)
    int zero = 0;
    bool sequenceParallel = false;
    RecomputeMode recompute = RecomputeMode::None;
    int recomputeLayers = 0; // with Full: layers per stage recomputed; 0 = all
    std::int64_t microBatch = 1;
    PipelineScheduleKind schedule = PipelineScheduleKind::OneFOneB;
    OffloadConfig offload;
    OverlapConfig overlap;
    bool operator==(const PlanChoice&) const = default;
};

// The plan written into a resolved scenario (layers split as evenly as the resolver splits
// them: the first chunks take one more).
void applyPlanChoice(const PlanChoice& plan, ResolvedScenario& scenario);
PlanChoice planChoiceOf(const ResolvedScenario& scenario);
// "tp 8 · pp 16 · vpp 3 · dp 8 · zero 1 · sp · selective · mb 1 · interleaved"
std::string describePlan(const PlanChoice& plan);

// The values each field may take. An empty list means every valid value (see
// defaultDomain in SearchSpace.cpp for what that is, field by field). Integer flags are
// 0 or 1.
struct SearchDomain {
    std::vector<int> tp, pp, vpp, cp, ep, etp, zero, sequenceParallel, recomputeLayers;
    std::vector<std::int64_t> dpShard, microBatch;
    std::vector<RecomputeMode> recompute;
    std::vector<PipelineScheduleKind> schedule;
    std::vector<OffloadTarget> offloadOptimizer, offloadParams, offloadActivations;
    std::vector<int> overlapTp, overlapDp, overlapPp, overlapEp;
};

// Pins and allowed lists in the command line's form: "tp=8,pp=4|8,recompute=full,zero=1|2"
// (field names as in the scenario format; offload.optimizer, overlap.tp, ...; recompute_layers
// 0 = all). Errors name the field and the values it takes.
bool parseSearchPins(const std::string& text, SearchDomain& domain, Diagnostics& diags);

// Layer-cost groups: the plans that share tp, cp, ep, etp, sequence parallelism and
// micro-batch share one LayerCosts (estimate/EstimateStages.h).
struct LayerGroupKey {
    int tp = 1, cp = 1, ep = 1, etp = 1;
    bool sequenceParallel = false;
    std::int64_t microBatch = 1;
};

// A plan in 24 bytes (a PlanChoice takes 104): its layer-cost group's index in
// SearchSpace::groups() stands for tp, cp, ep, etp, sequence parallelism and micro-batch;
// the widths hold every value the scenario's limits allow (core/scenario/Limits.h: at most
// 1,000,000 GPUs and 10,000 layers). A search keeps one per timed plan.
struct PackedPlan {
    std::uint32_t group = 0;
    std::uint32_t dp = 1, dpShard = 0;
    std::uint16_t pp = 1, vpp = 1, recomputeLayers = 0;
    std::uint16_t choices = 0; // zero, recompute, schedule, offload: 2, 2, 3, 3 x 2 bits
    std::uint8_t overlap = 0;  // tp, dp, pp, ep: one bit each
};

class SearchSpace {
public:
    SearchSpace(const ResolvedScenario& scenario, const SearchDomain& domain);
    const std::vector<LayerGroupKey>& groups() const { return groups_; }
    // `plan`, of group g, packed, and back.
    static PackedPlan pack(std::size_t g, const PlanChoice& plan);
    PlanChoice unpack(const PackedPlan& packed) const;
    // Every valid plan of group g, in a fixed order; `visit` returns false to stop.
    void forEachPlan(std::size_t g, const std::function<bool(const PlanChoice&)>& visit) const;

private:
    std::vector<int> pipelineDegrees(const LayerGroupKey& key) const;
    const ResolvedScenario& sc_;
    SearchDomain domain_;
    std::vector<LayerGroupKey> groups_;
};

} // namespace ts
