#pragma once
// The search's inner loop: one plan's memory (exactly as the estimator computes it, by the
// same stages) and a lower bound on its step time that replaces the schedule simulation.
//
// The bound: rank s cannot start before micro-batch 0 has passed the ranks before it, and
// then works busy_s = m x (its forward + backward seconds) before its gradient reduction and
// optimizer step; for the schedules whose every rank ends on the backward of its first chunk
// (GPipe, 1F1B, interleaved, breadth-first), rank 0 also waits for that last backward to come
// back down. For 1F1B with equal stages this is (m + p - 1)(f + b), the exact makespan
// (Narayanan et al. 2021 sec. 2.2.1); it is never above the simulation (tst_search checks
// it on every plan of a space), so a search that fully estimates plans in the order of their
// bound and stops when the bound passes the K-th best full estimate returns exactly the top K
// of an exhaustive run.

#include "estimate/EstimateStages.h"
#include "search/MemoCollectiveCost.h"
#include "search/SearchSpace.h"

#include <optional>

namespace ts {

struct PlanBound {
    double peakBytes = 0; // exact when timed (see PlanEvaluator::evaluate)
    double capacityBytes = 0;
    bool timed = false; // step time computed (the plan passed the memory limit)
    // A lower bound on the full estimate, with the time breakdown, throughput and (with
    // energy) energy and cost computed from it; no communication bytes.
    Estimate estimate;
};

class PlanEvaluator {
public:
    PlanEvaluator(const ResolvedScenario& base, const EstimatorSettings& settings,
                  const EstimateCollectives& collectives);
    // Evaluates `plan`; false when the estimator does not model it (checkPlanSupported).
    // Above `memoryLimitBytes` only memory is computed, up to the first stage above it
    // (peakBytes is then that stage's: at least the limit, not necessarily the peak).
    bool evaluate(const PlanChoice& plan, double memoryLimitBytes, bool withEnergy, PlanBound& out);
    const ResolvedScenario& scenario() const { return sc_; }

private:
    const LayerCosts& layerCosts(const EstimateContext& ctx);
    ResolvedScenario sc_;
    EstimatorSettings settings_;
    MemoCollectiveCost collectives_;
    // The last plan's context and stage parameters, of contextKey_ (the plan, its inner
    // fields cleared: see evaluate).
    std::optional<EstimateContext> ctx_;
    PlanChoice contextKey_;
    std::optional<LayerCosts> layerCosts_;
    LayerGroupKey layerKey_;
    // The last plan's stage costs and their base (see evaluate).
    std::shared_ptr<const StageCostsBase> stageBase_;
    PlanChoice stageKey_; // the base's plan, zero, dp_shard, offload and DP overlap cleared
    StageCosts stageCosts_;
    bool finishedPlain_ = false; // stageCosts_ is of a plan below ZeRO 3 without offload
    StageParams params_;
    bool haveParams_ = false;
    // Scratch of every plan, kept for its storage.
    StepTail tail_;
    std::vector<double> busy_, end_;
};

// The bound's per-stage busy and end seconds (PlanEvaluator uses it; tests check it).
void boundStageTimes(const EstimateContext& ctx, const StageCosts& costs, const StepTail& tail,
                     std::vector<double>& busy, std::vector<double>& end);

} // namespace ts
