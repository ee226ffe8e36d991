// Stages 0-3 of one estimate (estimate/EstimateStages.h): the plan's context, one layer's
// costs, the parameters per stage and the micro-batch seconds of every pipeline chunk.

#include "estimate/EstimateStages.h"

#include "estimate/FinetuneMemory.h"
#include "estimate/RecomputeModulesMemory.h"
#include "hardware/KernelTime.h"
#include "model/MoeArithmetic.h"
#include "topology/GraphCollectiveCost.h"

#include <algorithm>

namespace ts {

EstimateCollectives::EstimateCollectives(const ClusterConfig& cluster, const EstimatorSettings& set)
    : alphaBeta(cluster, set.collectives),
      onGraph(set.topologyCollectives
                  ? topologyCollectiveCost(cluster, set.collectives, &topologyDiags)
                  : nullptr) {}

namespace {

// Gradients are reduced in FP32 for BF16 and FP8 training (Megatron-LM arguments.py forces
// accumulate_allreduce_grads_in_fp32 with bf16; torchtitan's FSDP2 reduce_dtype is float32);
// FP16 training (Megatron 2021) reduced its 16-bit gradients. Without master weights the
// gradients stay in the parameters' dtype: torchtune shards with fully_shard and no
// MixedPrecisionPolicy (torchtune/training/_distributed.py shard_model at 30b8519e8), whose
// reduce_dtype None reduces in the parameter dtype, and its unsharded gradients are bf16.
double gradientReduceBytes(const TrainingConfig& t, const StateBytesPerParam& states) {
    if (!t.masterWeights)
        return states.gradients;
    if (t.gradReduceDtype) // training.grad_reduce_dtype: the buffer reduces in its own dtype
        return states.gradients;
    return t.precision == Precision::Fp16 ? 2.0 : 4.0;
}

} // namespace

EstimateContext::EstimateContext(const ResolvedScenario& scenario,
                                 const EstimatorSettings& settings, const CollectiveCost& coll)
    : sc(scenario), set(settings),
      collectives(coll), cost{scenario, settings.hardware, coll,
                              settings.activations.flashAttention, settings.activations.dropout},
      layout(pipelineLayout(scenario)), schedule(effectiveSchedule(scenario.parallel)),
      strides(groupStrides(scenario.parallel)),
      dpg(dataParallelGroups(scenario.parallel, strides)), ppGroup{layout.stages, strides.pp} {
    const ParallelConfig& plan = sc.parallel;
    const TrainingConfig& train = sc.training;
    const int pp = layout.stages, vpp = layout.chunks;
    stateBytes = stateBytesPerParam(train, sc.execution.framework); // MemoryModel.h
    gradBytes = gradientReduceBytes(train, stateBytes);
    weightBytes = stateBytes.weights;
    actBytes = train.precision == Precision::Fp32 ? 4.0 : 2.0;
    gatherBytesPerParam = weightBytes;
    reduceBytesPerParam = gradBytes;
    adapters = sc.finetune && sc.finetune->adapters();
    if (adapters) {
        const FinetuneLayer l = finetuneLayer(sc.model, *sc.finetune, plan.tp, plan.ep, false);
        const double per = std::max(1.0, l.frozenLinearParams);
        gatherBytesPerParam = (l.frozenLinearBytes + l.adapterParams * weightBytes) / per;
        reduceBytesPerParam = l.adapterParams * gradBytes / per;
    }
    // Routed experts are replicated over the expert-data-parallel ranks, tp cp dp / (etp ep)
    // (Megatron-Core parallel_state expert groups).
    expertDp = std::max<std::int64_t>(1, plan.tp * std::max(1, plan.cp) * plan.dp /
                                             (std::int64_t(plan.ep) * std::max(1, plan.etp)));
    expertDpGroup = GroupPlacement{static_cast<int>(expertDp),
                                   static_cast<long long>(plan.ep) * std::max(1, plan.etp)};
    // First model layer of each (stage, chunk), walking the chunks in model order: chunk-major
    // (looping placement) or, for ZB-V, down the ranks and back up (PipelineSchedule.h).
    nModelChunks = pp * vpp;
    firstStage = stageOfModelChunk(0);
    lastStage = stageOfModelChunk(nModelChunks - 1);
    chunkStart.assign(static_cast<std::size_t>(pp) * vpp, 0);
    for (int k = 0, at = 0; k < nModelChunks; ++k) {
        const ChunkPlace place = modelChunkPlace(schedule, pp, vpp, k);
        chunkStart[static_cast<std::size_t>(place.stage) * vpp + place.chunk] = at;
        at += plan.pipelineLayers[static_cast<std::size_t>(k)];
    }
    offloading = anyOffload(plan.offload);
    offload = offloadPlan(sc, stateBytes);
    inFlight.resize(static_cast<std::size_t>(pp));
    for (int s = 0; s < pp; ++s)
        inFlight[static_cast<std::size_t>(s)] =
            microbatchesInFlight(schedule, pp, vpp, s, layout.microbatches);
}

void EstimateContext::updateInnerFields() {
    dpg = dataParallelGroups(sc.parallel, strides);
    offloading = anyOffload(sc.parallel.offload);
    offload = offloadPlan(sc, stateBytes);
}

int EstimateContext::modelIndex(int s, int c) const {
    return chunkModelIndex(schedule, layout.stages, layout.chunks, s, c);
}

int EstimateContext::stageOfModelChunk(int k) const {
    return modelChunkPlace(schedule, layout.stages, layout.chunks, k).stage;
}

LayerCosts computeLayerCosts(const EstimateContext& ctx) {
    const ResolvedScenario& sc = ctx.sc;
    const ParallelConfig& plan = sc.parallel;
    const ModelConfig& model = sc.model;
    const TrainingConfig& train = sc.training;
    const double tp = plan.tp;
    LayerCosts lc;
    lc.layer = transformerLayerCost(ctx.cost);
    lc.embed = embeddingCost(ctx.cost);
    lc.output = outputLayerCost(ctx.cost);
    lc.params = countParameters(model);
    lc.sparse = model.moe || model.mla;
    lc.sp = sparseLayerParams(model);
    // --moe-router-force-load-balancing (execution.moe_force_balance) routes tokens evenly.
    if (ctx.sc.execution.moeForceBalance)
        lc.imbalance = 1.0;
    lc.denseLayer = lc.sparse ? sparseLayerCost(ctx.cost, false, lc.imbalance) : lc.layer;
    lc.moeLayer = lc.sparse ? sparseLayerCost(ctx.cost, true, lc.imbalance) : lc.layer;
    // Local parameters per layer: those sharded over tp and replicated over dp x cp, and the
    // routed experts, sharded over ep x etp and replicated over the expert-data-parallel
    // ranks.
    const SparseLayerParams& sp = lc.sp;
    lc.attnLocal =
        sp.attention.sharded / tp + sp.attention.replicated + sp.attention.norms + sp.norms;
    lc.denseLayerLocal = lc.attnLocal + sp.denseMlp / tp;
    lc.moeLayerLocal = lc.attnLocal + sp.router + (model.moe ? sp.sharedExperts / tp : 0.0);
    lc.expertLayerLocal =
        model.moe ? sp.experts * sp.routedExpert / (double(plan.ep) * std::max(1, plan.etp)) : 0.0;
    lc.perLayerParamsLocal = lc.params.perLayer.tensorParallel / tp +
                             (lc.params.perLayer.total() - lc.params.perLayer.tensorParallel);

    // Memory per stage: activations.
    // Context parallelism divides every activation by cp (each rank holds s/cp tokens).
    lc.actLayout = ActivationLayout{train.seqLen / std::max(1, plan.cp), train.microBatch, plan.tp,
                                    plan.sequenceParallel};
    // MoE / MLA: the same accounting on an equivalent dense layer. MLA keeps Q and K of
    // d_qk, V and the attention output of d_v per head (the latents are small): 4 d_qk + 4 d_v
    // bytes per head and token, what a dense MHA layer of head_dim (d_qk + d_v) / 2 holds.
    // MoE: an MLP of width k x imbalance x expert_ffn + shared x expert_ffn, plus the
    // permuted token copies (2 k h bytes per token = 6 bytes x k h / 3).
    ModelConfig actModel = model;
    if (model.mla) {
        const AttentionHeadDims d = attentionHeadDims(model);
        actModel.headDim = (d.qk + d.v) / 2;
        actModel.kvHeads = model.heads;
    }
    if (model.moe)
        actModel.ffnHidden = static_cast<std::int64_t>(
            model.moe->topK * lc.imbalance * double(model.moe->expertFfnHidden) +
            model.moe->sharedExperts * double(model.moe->expertFfnHidden) +
            model.moe->topK * double(model.hidden) / 3.0);
    lc.actAssumptions = activationAssumptionsFor(sc, ctx.set.activations);
    const ActivationAssumptions& aa = lc.actAssumptions;
    lc.actNone = layerActivationBytes(actModel, lc.actLayout, aa);
    lc.actSelective = layerActivationBytesSelective(actModel, lc.actLayout, aa);
    lc.actFull = layerActivationBytesFull(actModel, lc.actLayout);
    // Megatron-Core --recompute-modules (execution.recompute_modules) frees what the listed
    // modules compute inside; PyTorch's op-level policy has its own save list.
    if (!aa.opLevelSelective && !sc.execution.recomputeModules.empty())
        lc.actSelective = recomputeModulesActivationBytes(
            RecomputedLayer{model, actModel, lc.actLayout, aa, lc.imbalance, lc.actNone,
                            lc.actSelective, lc.actFull},
            sc.execution.recomputeModules);
    return lc;
}

StageParams computeStageParams(const EstimateContext& ctx, const LayerCosts& lc) {
    StageParams out;
    computeStageParams(ctx, lc, out);
    return out;
}

void computeStageParams(const EstimateContext& ctx, const LayerCosts& lc, StageParams& out) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const ModelConfig& model = ctx.sc.model;
    const PipelineLayout& layout = ctx.layout;
    const int pp = layout.stages, vpp = layout.chunks;
    const double tp = plan.tp;
    out.chunkParams.assign(static_cast<std::size_t>(pp) * vpp, 0.0);
    out.chunkMoeLayers.assign(static_cast<std::size_t>(pp) * vpp, 0.0);
    out.stageParams.assign(pp, 0.0);
    out.stageExpertParams.assign(pp, 0.0);
    out.stageLinearParams.assign(pp, 0.0);
    out.stageLocalParams.assign(pp, 0.0);
    out.stageTrainable.assign(pp, 0.0);
    out.stageMoeLayers.assign(pp, 0.0);
    for (int s = 0; s < pp; ++s) {
        for (int c = 0; c < vpp; ++c) {
            const std::size_t idx = static_cast<std::size_t>(s) * vpp + c;
            const double l = layout.layersOf(s, c);
            double lMoe = 0;
            if (lc.sparse && l > 0)
                lMoe = std::max(0.0, l - std::max(0, lc.sp.denseLayers - ctx.chunkStart[idx]));
            const int k = ctx.modelIndex(s, c);
            double chunkParams = lc.sparse
                                     ? (l - lMoe) * lc.denseLayerLocal + lMoe * lc.moeLayerLocal
                                     : l * lc.perLayerParamsLocal;
            out.stageExpertParams[s] += lMoe * lc.expertLayerLocal;
            out.stageLinearParams[s] += chunkParams + lMoe * lc.expertLayerLocal;
            if (k == 0)
                chunkParams += lc.params.embedding / tp;
            if (k == ctx.nModelChunks - 1) {
                // Untied: the output matrix; tied with pp > 1: Megatron keeps a copy of the
                // embedding on the last stage (its gradient is all-reduced with the first).
                const bool ownCopy = !model.tiedEmbeddings || ctx.firstStage != ctx.lastStage;
                chunkParams +=
                    (ownCopy ? double(model.vocab) * model.hidden / tp : 0.0) + lc.params.finalNorm;
            }
            out.stageParams[s] += chunkParams;
            out.chunkParams[idx] = chunkParams;
            out.chunkMoeLayers[idx] = lMoe;
            out.stageMoeLayers[s] += lMoe;
        }
    }
    out.likeStageBefore.assign(pp, 0);
    const auto edge = [&](int s) { return s == ctx.firstStage || s == ctx.lastStage; };
    for (int s = 1; s < pp; ++s) {
        const auto same = [s](const std::vector<double>& v) {
            return v[static_cast<std::size_t>(s)] == v[static_cast<std::size_t>(s - 1)];
        };
        out.likeStageBefore[s] = !edge(s) && !edge(s - 1) &&
                                 layout.stageLayers[s] == layout.stageLayers[s - 1] &&
                                 same(out.stageParams) && same(out.stageExpertParams) &&
                                 same(out.stageLinearParams) && same(out.stageMoeLayers);
    }
    computeStageShares(ctx, out);
}

void computeStageShares(const EstimateContext& ctx, StageParams& out) {
    const ParallelConfig& plan = ctx.sc.parallel;
    for (int s = 0; s < ctx.layout.stages; ++s) {
        out.stageTrainable[s] =
            ctx.adapters
                ? finetuneStageMemory(ctx.sc, finetuneStageInput(ctx, out, s), ctx.stateBytes)
                      .adapterParams
                : out.stageParams[s];
        out.stageLocalParams[s] =
            out.stageTrainable[s] / (plan.zero >= 1 ? double(ctx.dpg.shardRanks) : 1.0) +
            out.stageExpertParams[s] / (plan.zero >= 1 ? double(ctx.expertDp) : 1.0);
    }
}

FinetuneStageInput finetuneStageInput(const EstimateContext& ctx, const StageParams& params,
                                      int s) {
    FinetuneStageInput fi;
    fi.moeLayers = params.stageMoeLayers[s];
    fi.denseLayers = ctx.layout.stageLayers[s] - fi.moeLayers;
    fi.embedding = s == ctx.firstStage;
    fi.output = s == ctx.lastStage;
    fi.ownOutputMatrix = !ctx.sc.model.tiedEmbeddings || ctx.firstStage != ctx.lastStage;
    fi.shardRanks = ctx.dpg.shardRanks;
    fi.zero = ctx.sc.parallel.zero;
    return fi;
}

StageActivations stageActivations(const EstimateContext& ctx, const LayerCosts& lc, int s) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const int stageLayers = ctx.layout.stageLayers[s];
    StageActivations a;
    switch (plan.recompute) {
    case RecomputeMode::None:
        a.perMicrobatch = stageLayers * lc.actNone;
        break;
    case RecomputeMode::Selective:
        a.perMicrobatch = stageLayers * lc.actSelective;
        break;
    case RecomputeMode::Full: {
        const int recomputed =
            plan.recomputeLayers ? std::min(*plan.recomputeLayers, stageLayers) : stageLayers;
        a.perMicrobatch = recomputed * lc.actFull + (stageLayers - recomputed) * lc.actNone;
        // The layer being recomputed holds its full activations during its backward.
        a.workingSet = recomputed > 0 ? lc.actNone : 0.0;
        break;
    }
    }
    return a;
}

} // namespace ts
