#include "search/PlanEvaluator.h"

#include "energy/EnergyEstimate.h"

#include <algorithm>
#include <cmath>

namespace ts {

PlanEvaluator::PlanEvaluator(const ResolvedScenario& base, const EstimatorSettings& settings,
                             const EstimateCollectives& collectives)
    : sc_(base), settings_(settings), collectives_(collectives.active()) {
    settings_.recordTimeline = false;
}

const LayerCosts& PlanEvaluator::layerCosts(const EstimateContext& ctx) {
    const ParallelConfig& p = sc_.parallel;
    const LayerGroupKey key{p.tp, p.cp, p.ep, p.etp, p.sequenceParallel, sc_.training.microBatch};
    const LayerGroupKey& k = layerKey_;
    if (!layerCosts_ || k.tp != key.tp || k.cp != key.cp || k.ep != key.ep || k.etp != key.etp ||
        k.sequenceParallel != key.sequenceParallel || k.microBatch != key.microBatch) {
        layerCosts_ = computeLayerCosts(ctx);
        layerKey_ = key;
        stageBase_.reset();
        haveParams_ = false;
    }
    return *layerCosts_;
}

void boundStageTimes(const EstimateContext& ctx, const StageCosts& costs, const StepTail& tail,
                     std::vector<double>& busy, std::vector<double>& end) {
    const int pp = ctx.layout.stages, vpp = ctx.layout.chunks;
    const double m = double(ctx.layout.microbatches);
    const double edge = ctx.sc.parallel.overlap.pp ? costs.p2p.seconds : 0.0;
    busy.assign(pp, 0.0);
    end.assign(pp, 0.0);
    using K = PipelineScheduleKind;
    // Every rank ends on its first chunk's backward, which the rank before waits for.
    const bool drains = ctx.schedule != K::ZeroBubble;
    // back: the first chunks' backwards of the ranks before s, summed in rank order.
    double start = 0, drainEnd = 0, back = 0;
    const bool kinds = static_cast<int>(costs.stageKind.size()) == pp;
    for (int s = 0; s < pp; ++s) {
        // A stage of a kind seen before works as long as its first (StageCosts::stageKind).
        const int first = kinds ? costs.kindFirstStage[std::size_t(costs.stageKind[s])] : s;
        if (first < s)
            busy[s] = busy[first];
        else
            for (int c = 0; c < vpp; ++c) {
                const std::size_t idx = static_cast<std::size_t>(s) * vpp + c;
                busy[s] += m * (costs.fwd[idx] + costs.bwd[idx]);
            }
        const double work = start + busy[s];
        end[s] = work + tail.postDp[s] + tail.postOpt[s] + tail.postOffload[s];
        if (drains)
            drainEnd = std::max(drainEnd, work + back);
        back += costs.bwd[static_cast<std::size_t>(s) * vpp] + edge;
        start += costs.fwd[static_cast<std::size_t>(s) * vpp] + edge;
    }
    end[0] = std::max(end[0], drainEnd + tail.postDp[0] + tail.postOpt[0] + tail.postOffload[0]);
}

bool PlanEvaluator::evaluate(const PlanChoice& plan, double memoryLimitBytes, bool withEnergy,
                             PlanBound& out) {
    applyPlanChoice(plan, sc_);
    Diagnostics diags;
    if (!checkPlanSupported(sc_, diags))
        return false;
    // What is reused from the plans before: the context and the stage parameters depend on
    // the inner fields (zero, dp_shard, offload, overlap, recompute) only through the
    // data-parallel groups, the offload plan and the parameters' ZeRO shares (and the LoRA
    // adapters' trainable counts); the stage costs' base not on zero, dp_shard, offload or
    // DP overlap (ZeRO-3's and offload's parts are added when it is finished).
    PlanChoice outer = plan;
    outer.zero = 0;
    outer.dpShard = 0;
    outer.offload = OffloadConfig{};
    outer.overlap = OverlapConfig{};
    outer.recompute = RecomputeMode::None;
    outer.recomputeLayers = 0;
    if (ctx_ && outer == contextKey_) {
        ctx_->updateInnerFields();
    } else {
        ctx_.emplace(sc_, settings_, collectives_);
        contextKey_ = outer;
        haveParams_ = false;
    }
    const EstimateContext& ctx = *ctx_;
    const LayerCosts& lc = layerCosts(ctx);
    StageParams& params = params_;
    if (haveParams_) {
        computeStageShares(ctx, params);
    } else {
        computeStageParams(ctx, lc, params);
        haveParams_ = true;
    }
    PlanChoice key = plan;
    key.zero = 0;
    key.dpShard = 0;
    key.offload = OffloadConfig{};
    key.overlap.dp = false;
    // A fresh bound that keeps the storage of the last one's per-stage vectors.
    std::vector<StageMemory> stages = std::move(out.estimate.stages);
    std::vector<StageTime> stageTimes = std::move(out.estimate.stageTimes);
    out = PlanBound{};
    Estimate& est = out.estimate;
    est.stages = std::move(stages);
    est.stages.clear();
    est.stageTimes = std::move(stageTimes);
    est.stageTimes.clear();
    computeMemory(ctx, lc, params, est, memoryLimitBytes, MemoryDetail::PeakOnly);
    out.peakBytes = est.peakBytes;
    out.capacityBytes = est.capacityBytes;
    if (est.peakBytes > memoryLimitBytes)
        return true; // pruned before any timing
    // The base is of `key`; below ZeRO 3 and without offload the finish depends on none of
    // zero, dp_shard, offload and DP overlap either: the last such plan's stands.
    const bool sameBase = stageBase_ && key == stageKey_;
    if (!sameBase) {
        stageBase_ = computeStageCostsBase(ctx, lc, params);
        stageKey_ = key;
    }
    const bool plain = plan.zero < 3 && !anyOffload(plan.offload);
    // The bound reports no traffic (PlanBound): the bytes sent are not counted.
    if (!(sameBase && plain && finishedPlain_))
        finishStageCosts(ctx, lc, params, *stageBase_, stageCosts_, false);
    else // what computeStepTail added to the last plan's
        std::fill(stageCosts_.stageComm.begin(), stageCosts_.stageComm.end(), CommAccount{});
    finishedPlain_ = plain;
    StageCosts& costs = stageCosts_;
    StepTail& tail = tail_;
    computeStepTail(ctx, params, costs, tail);
    std::vector<double>& busy = busy_;
    std::vector<double>& end = end_;
    boundStageTimes(ctx, costs, tail, busy, end);
    est.microbatches = ctx.layout.microbatches;
    // (The energy model reads every stage's times.)
    fillStepTime(ctx, costs, tail, busy, end, est,
                 withEnergy ? StepTimeDetail::EveryStage : StepTimeDetail::KindsAlike);
    out.timed = true;
    addThroughput(ctx, lc, est);
    if (withEnergy)
        addEnergyAndCost(sc_, est);
    return true;
}

} // namespace ts
