#include "estimate/Estimator.h"

#include "calibration/CalibratedSettings.h"
#include "energy/EnergyEstimate.h"
#include "estimate/AllocatorMemory.h"
#include "estimate/DataParallelCost.h"
#include "estimate/FinetuneMemory.h"
#include "estimate/MoeLayerCost.h"
#include "estimate/Offload.h"
#include "estimate/PrecisionMemory.h"
#include "hardware/KernelTime.h"
#include "hardware/PowerLimit.h"
#include "model/MoeArithmetic.h"
#include "model/TransformerArithmetic.h"
#include "parallel/PipelineSchedule.h"
#include "parallel/PlanSupport.h"
#include "topology/GraphCollectiveCost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ts {

namespace {

// Gradients are reduced in FP32 for BF16 and FP8 training (Megatron-LM arguments.py forces
// accumulate_allreduce_grads_in_fp32 with bf16; torchtitan's FSDP2 reduce_dtype is float32);
// FP16 training (Megatron 2021) reduced its 16-bit gradients.
double gradientReduceBytes(Precision p) {
    return p == Precision::Fp16 ? 2.0 : 4.0;
}

struct CommAccount {
    double tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
    double scaleUp = 0, scaleOut = 0;
    void add(double& dim, const CollectiveTime& c, double times) {
        dim += times * (c.scaleUpBytes + c.scaleOutBytes);
        scaleUp += times * c.scaleUpBytes;
        scaleOut += times * c.scaleOutBytes;
    }
};

// The per-stage pieces of a micro-batch, by breakdown category (seconds).
struct StageParts {
    double compute = 0, recompute = 0, tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
    double offload = 0;     // exposed CPU/NVMe offload transfers (estimate/Offload.h)
    double memoryBound = 0; // of compute + recompute: elementwise work (for the power model)
    double total() const { return compute + recompute + tp + cp + ep + pp + dp + offload; }
};

std::string formatGiB(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / double(1ull << 30));
    return buf;
}

} // namespace

EstimatorSettings defaultEstimatorSettings(const ResolvedScenario& scenario) {
    EstimatorSettings s;
    s.hardware = defaultHardwareProfile(scenario.cluster.gpu);
    if (scenario.calibrationProfile) // the scenario's "calibration" (issue 6)
        applyCalibration(*scenario.calibrationProfile, s);
    return s;
}

std::optional<Estimate> estimatePlan(const ResolvedScenario& scenario, Diagnostics& diags) {
    return estimatePlan(scenario, defaultEstimatorSettings(scenario), diags);
}

std::optional<Estimate> estimatePlan(const ResolvedScenario& sc, const EstimatorSettings& set,
                                     Diagnostics& diags) {
    if (!checkPlanSupported(sc, diags))
        return std::nullopt;
    const ParallelConfig& plan = sc.parallel;
    const ModelConfig& model = sc.model;
    const TrainingConfig& train = sc.training;
    const HardwareProfile& hw = set.hardware;
    const AlphaBetaCollectiveCost alphaBeta(sc.cluster, set.collectives);
    Diagnostics topologyDiags;
    const std::shared_ptr<const CollectiveCost> onGraph =
        set.topologyCollectives
            ? topologyCollectiveCost(sc.cluster, set.collectives, &topologyDiags)
            : nullptr;
    const CollectiveCost& collectives = onGraph ? *onGraph : alphaBeta;
    const CostContext ctx{sc, hw, collectives, set.activations.flashAttention,
                          set.activations.dropout};
    const OverlapModel& ov = set.overlap;

    const PipelineLayout layout = pipelineLayout(sc);
    const int pp = layout.stages, vpp = layout.chunks;
    const std::int64_t m = layout.microbatches;
    const double md = static_cast<double>(m);
    const PipelineScheduleKind schedule = effectiveSchedule(plan);
    const GroupStrides strides = groupStrides(plan);
    // Gradients span the data- and context-parallel ranks together (CP ranks hold the same
    // weights: Megatron-Core's dp-cp group, torchtitan's dp_shard_cp mesh); ZeRO shards span
    // dp_shard x cp of them (hybrid sharding; estimate/DataParallelCost.h).
    const DataParallelGroups dpg = dataParallelGroups(plan, strides);
    const std::int64_t dpCp = dpg.dpCp;
    const GroupPlacement ppGroup{pp, strides.pp};
    const double tp = plan.tp;
    const double gradBytes = gradientReduceBytes(train.precision);
    const StateBytesPerParam stateBytes = stateBytesPerParam(train);
    const double weightBytes = stateBytes.weights; // what ZeRO gathers
    const double actBytes = train.precision == Precision::Fp32 ? 4.0 : 2.0;

    const LayerCost layer = transformerLayerCost(ctx);
    const EdgeLayerCost embed = embeddingCost(ctx);
    const EdgeLayerCost output = outputLayerCost(ctx);
    const ParameterCounts params = countParameters(model);

    // Mixture-of-experts and MLA models (estimate/MoeLayerCost.h): dense-MLP and MoE layers.
    const bool sparse = model.moe || model.mla;
    const double imbalance = kDefaultExpertImbalance;
    const SparseLayerParams sp = sparseLayerParams(model);
    const LayerCost denseLayer = sparse ? sparseLayerCost(ctx, false, imbalance) : layer;
    const LayerCost moeLayer = sparse ? sparseLayerCost(ctx, true, imbalance) : layer;
    // Local parameters per layer: those sharded over tp and replicated over dp x cp, and the
    // routed experts, sharded over ep x etp and replicated over the expert-data-parallel
    // ranks, tp cp dp / (etp ep) (Megatron-Core parallel_state expert groups).
    const double attnLocal =
        sp.attention.sharded / tp + sp.attention.replicated + sp.attention.norms + sp.norms;
    const double denseLayerLocal = attnLocal + sp.denseMlp / tp;
    const double moeLayerLocal = attnLocal + sp.router + (model.moe ? sp.sharedExperts / tp : 0.0);
    const double expertLayerLocal =
        model.moe ? sp.experts * sp.routedExpert / (double(plan.ep) * std::max(1, plan.etp)) : 0.0;
    const std::int64_t expertDp =
        std::max<std::int64_t>(1, plan.tp * std::max(1, plan.cp) * plan.dp /
                                      (std::int64_t(plan.ep) * std::max(1, plan.etp)));
    const GroupPlacement expertDpGroup{static_cast<int>(expertDp),
                                       static_cast<long long>(plan.ep) * std::max(1, plan.etp)};
    // First model layer of each (stage, chunk), walking the chunks in model order: chunk-major
    // (looping placement) or, for ZB-V, down the ranks and back up (PipelineSchedule.h).
    const int nModelChunks = pp * vpp;
    const auto modelIndex = [&](int s, int c) { return chunkModelIndex(schedule, pp, vpp, s, c); };
    const auto stageOfModelChunk = [&](int k) {
        return modelChunkPlace(schedule, pp, vpp, k).stage;
    };
    const int firstStage = stageOfModelChunk(0);               // the embedding
    const int lastStage = stageOfModelChunk(nModelChunks - 1); // the output layer and the loss
    std::vector<int> chunkStart(static_cast<std::size_t>(pp) * vpp, 0);
    for (int k = 0, at = 0; k < nModelChunks; ++k) {
        const ChunkPlace place = modelChunkPlace(schedule, pp, vpp, k);
        chunkStart[static_cast<std::size_t>(place.stage) * vpp + place.chunk] = at;
        at += plan.pipelineLayers[static_cast<std::size_t>(k)];
    }

    // Exposed TP communication per layer and pass.
    const auto tpExposed = [&](const CollectiveTime& c, const PassCost& pass) {
        if (!plan.overlap.tp)
            return c.seconds;
        const double exposed = exposedAfterOverlap(c.seconds, pass.gemm, ov.tpExposedFraction);
        return exposed + ov.interference * (c.seconds - exposed);
    };
    // Exposed expert-parallel all-to-alls of a chunk, `a2aSeconds` beside `computeSeconds`.
    // Overlapped (parallelism.overlap.ep; DeepSeek-V3 report, arXiv 2412.19437, sec. 3.2.1)
    // as TP and DP are: max(f c, c - t), plus the OverlapModel's interference on the hidden
    // part (the compute shares the GPU with the all-to-all kernels: DeepSeek-V3 gives them 20
    // of the H800's 132 SMs, sec. 3.2.2).
    const auto epExposed = [&](double a2aSeconds, double computeSeconds) {
        if (!plan.overlap.ep)
            return a2aSeconds;
        const double exposed =
            exposedAfterOverlap(a2aSeconds, computeSeconds, ov.epExposedFraction);
        return exposed + ov.interference * (a2aSeconds - exposed);
    };
    const double layerTpF = tpExposed(layer.tpForward, layer.forward);
    const double layerTpB = tpExposed(layer.tpBackward, layer.backward);
    const double embedTpF = tpExposed(embed.tpForward, embed.forward);
    const double outTpF = tpExposed(output.tpForward, output.forward);
    const double outTpB = tpExposed(output.tpBackward, output.backward);

    // Pipeline point-to-point: one [s, b, h] activation (or its gradient) per chunk boundary,
    // split over TP ranks (Narayanan et al. 2021 sec. 4.1, scatter/gather optimisation).
    const double p2pBytes = double(train.seqLen) * double(train.microBatch) * double(model.hidden) *
                            actBytes / tp / double(std::max(1, plan.cp));
    const CollectiveTime p2p =
        pp > 1 ? collectives.cost(Collective::SendRecv, p2pBytes, ppGroup) : CollectiveTime{};

    const double perLayerParamsLocal = params.perLayer.tensorParallel / tp +
                                       (params.perLayer.total() - params.perLayer.tensorParallel);
    const double largestWeight =
        std::max(double(model.ffnHidden), double(model.vocab)) * double(model.hidden) / tp;
    // LoRA / QLoRA (FinetuneMemory.h): only the adapters train, so only they reduce their
    // gradients and step; ZeRO-3 gathers the frozen base in its storage format.
    const bool adapterMethod = sc.finetune && sc.finetune->adapters();
    const auto stageAdapters = [&](int s) {
        FinetuneStageInput fi;
        fi.moeLayers = 0;
        fi.denseLayers = layout.stageLayers[s];
        fi.embedding = s == stageOfModelChunk(0);
        fi.output = s == stageOfModelChunk(pp * vpp - 1);
        fi.ownOutputMatrix = !model.tiedEmbeddings || pp > 1;
        fi.shardRanks = dpg.shardRanks;
        fi.zero = plan.zero;
        return finetuneStageMemory(sc, fi, stateBytes);
    };
    const FinetuneLayer ftLayer = adapterMethod ? finetuneLayer(model, *sc.finetune, plan.tp,
                                                                plan.ep, false)
                                                : FinetuneLayer{};
    const double gatherBytesPerParam =
        adapterMethod ? (ftLayer.frozenLinearBytes + ftLayer.adapterParams * weightBytes) /
                            std::max(1.0, ftLayer.frozenLinearParams)
                      : weightBytes;
    const double reduceBytesPerParam =
        adapterMethod ? ftLayer.adapterParams * gradBytes / std::max(1.0, ftLayer.frozenLinearParams)
                      : gradBytes;

    // Memory per stage: activations.
    // Context parallelism divides every activation by cp (each rank holds s/cp tokens).
    const ActivationLayout actLayout{train.seqLen / std::max(1, plan.cp), train.microBatch, plan.tp,
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
            model.moe->topK * imbalance * double(model.moe->expertFfnHidden) +
            model.moe->sharedExperts * double(model.moe->expertFfnHidden) +
            model.moe->topK * double(model.hidden) / 3.0);
    // Eager PyTorch modules and a frozen base change what a layer keeps (FinetuneMemory.h).
    const ActivationAssumptions actAssume = activationAssumptionsFor(sc, set.activations);
    const double actNone = layerActivationBytes(actModel, actLayout, actAssume);
    const double actSelective = layerActivationBytesSelective(actModel, actLayout, actAssume);
    const double actFull = layerActivationBytesFull(actModel, actLayout);
    // Activations one micro-batch stashes on stage s, and the recomputed layer's working set.
    struct StageActivations {
        double perMicrobatch = 0, workingSet = 0;
    };
    const auto stageActivations = [&](int s) {
        const int stageLayers = layout.stageLayers[s];
        StageActivations a;
        switch (plan.recompute) {
        case RecomputeMode::None:
            a.perMicrobatch = stageLayers * actNone;
            break;
        case RecomputeMode::Selective:
            a.perMicrobatch = stageLayers * actSelective;
            break;
        case RecomputeMode::Full: {
            const int recomputed =
                plan.recomputeLayers ? std::min(*plan.recomputeLayers, stageLayers) : stageLayers;
            a.perMicrobatch = recomputed * actFull + (stageLayers - recomputed) * actNone;
            // The layer being recomputed holds its full activations during its backward.
            a.workingSet = recomputed > 0 ? actNone : 0.0;
            break;
        }
        }
        return a;
    };
    // CPU / NVMe offload (estimate/Offload.h).
    const bool offloading = anyOffload(plan.offload);
    const OffloadPlan offload = offloadPlan(sc, stateBytes);
    std::vector<double> stageLocalParams(pp, 0.0);
    std::vector<HostBytes> stageHost(pp);

    // Per (stage, chunk): micro-batch forward/backward seconds and their parts.
    const std::size_t nChunks = static_cast<std::size_t>(pp) * vpp;
    std::vector<double> fwd(nChunks), bwd(nChunks), wgrad(nChunks);
    std::vector<StageParts> parts(pp);
    std::vector<double> stageParams(pp, 0.0), stageFwd(pp, 0.0), stageBwd(pp, 0.0);
    std::vector<double> stageExpertParams(pp, 0.0), stageLinearParams(pp, 0.0);
    std::vector<double> stageMoeLayers(pp, 0.0);
    std::vector<CommAccount> stageComm(pp);

    for (int s = 0; s < pp; ++s) {
        const int stageLayers = layout.stageLayers[s];
        const double recomputeShare =
            plan.recompute == RecomputeMode::Full
                ? (plan.recomputeLayers && stageLayers > 0
                       ? std::min(1.0, double(*plan.recomputeLayers) / stageLayers)
                       : 1.0)
                : 0.0;
        for (int c = 0; c < vpp; ++c) {
            const double l = layout.layersOf(s, c);
            LayerCost chunkLayer = layer;
            double chunkTpF = layerTpF, chunkTpB = layerTpB, lMoe = 0;
            if (sparse && l > 0) {
                const int firstLayer = chunkStart[static_cast<std::size_t>(s) * vpp + c];
                lMoe = std::max(0.0, l - std::max(0, sp.denseLayers - firstLayer));
                chunkLayer = blendLayerCosts(denseLayer, (l - lMoe) / l, moeLayer, lMoe / l);
                chunkTpF = tpExposed(chunkLayer.tpForward, chunkLayer.forward);
                chunkTpB = tpExposed(chunkLayer.tpBackward, chunkLayer.backward);
            }
            const int k = modelIndex(s, c);
            const bool first = k == 0;
            const bool last = k == nModelChunks - 1;
            // ZB-V: rank p - 1 feeds its own second chunk, without a transfer.
            const bool sendsForward = !last && stageOfModelChunk(k + 1) != s;
            const bool sendsBackward = !first && stageOfModelChunk(k - 1) != s;
            StageParts f, b;
            f.compute = l * chunkLayer.forward.compute();
            f.tp = l * chunkTpF;
            b.compute = l * chunkLayer.backward.compute();
            b.tp = l * chunkTpB;
            f.cp = l * chunkLayer.cpForward.seconds;
            b.cp = l * chunkLayer.cpBackward.seconds;
            // Expert-parallel all-to-alls (their overlap is applied below, once the chunk's
            // compute is known).
            f.ep = l * chunkLayer.epForward.seconds;
            b.ep = l * chunkLayer.epBackward.seconds;
            f.memoryBound = l * chunkLayer.forward.elementwise;
            b.memoryBound = l * chunkLayer.backward.elementwise;
            CommAccount& ca = stageComm[s];
            ca.add(ca.tp, chunkLayer.tpForward, md * l);
            ca.add(ca.tp, chunkLayer.tpBackward, md * l);
            ca.add(ca.cp, chunkLayer.cpForward, md * l);
            ca.add(ca.cp, chunkLayer.cpBackward, md * l);
            ca.add(ca.ep, chunkLayer.epForward, md * l);
            ca.add(ca.ep, chunkLayer.epBackward, md * l);
            if (plan.recompute == RecomputeMode::Selective) {
                // Korthikanti sec. 4.2: the attention core's forward runs again in backward.
                b.recompute = l * chunkLayer.forward.attention;
            } else if (plan.recompute == RecomputeMode::Full) {
                const double lr = l * recomputeShare;
                b.recompute = lr * chunkLayer.forward.compute();
                b.memoryBound += lr * chunkLayer.forward.elementwise;
                b.tp += lr * chunkTpF;
                b.cp += lr * chunkLayer.cpForward.seconds;
                b.ep += lr * chunkLayer.epForward.seconds;
                ca.add(ca.ep, chunkLayer.epForward, md * lr);
                ca.add(ca.tp, chunkLayer.tpForward, md * lr);
                ca.add(ca.cp, chunkLayer.cpForward, md * lr);
            }
            double chunkParams = sparse ? (l - lMoe) * denseLayerLocal + lMoe * moeLayerLocal
                                        : l * perLayerParamsLocal;
            stageExpertParams[s] += lMoe * expertLayerLocal;
            stageMoeLayers[s] += lMoe;
            stageLinearParams[s] += chunkParams + lMoe * expertLayerLocal;
            if (first) {
                f.compute += embed.forward.compute();
                b.compute += embed.backward.compute();
                f.tp += embedTpF;
                ca.add(ca.tp, embed.tpForward, md);
                chunkParams += params.embedding / tp;
            }
            if (last) {
                f.compute += output.forward.compute();
                b.compute += output.backward.compute();
                f.tp += outTpF;
                b.tp += outTpB;
                ca.add(ca.tp, output.tpForward, md);
                ca.add(ca.tp, output.tpBackward, md);
                // Untied: the output matrix; tied with pp > 1: Megatron keeps a copy of the
                // embedding on the last stage (its gradient is all-reduced with the first).
                const bool ownCopy = !model.tiedEmbeddings || firstStage != lastStage;
                chunkParams +=
                    (ownCopy ? double(model.vocab) * model.hidden / tp : 0.0) + params.finalNorm;
            }
            stageParams[s] += chunkParams;
            // Point-to-point: every chunk but the very last sends its activations forward,
            // every chunk but the very first sends its gradients backward, to another rank.
            if (pp > 1) {
                if (sendsForward)
                    ca.add(ca.pp, p2p, md);
                if (sendsBackward)
                    ca.add(ca.pp, p2p, md);
                if (!plan.overlap.pp) {
                    if (sendsForward)
                        f.pp += p2p.seconds;
                    if (sendsBackward)
                        b.pp += p2p.seconds;
                }
            }
            // ZeRO-3 / FSDP: gather the chunk's weights before its forward and again before
            // its backward; reduce-scatter its gradients after the backward, every
            // micro-batch (PyTorch FSDP default with gradient accumulation), in the shard group.
            if (plan.zero >= 3 && dpg.shardRanks > 1) {
                const ShardedChunkComm z3 =
                    zero3ChunkComm(collectives, dpg, chunkParams, gatherBytesPerParam,
                                   reduceBytesPerParam);
                const CollectiveTime& ag = z3.gather;
                const CollectiveTime& rs = z3.reduceScatter;
                ca.add(ca.dp, ag, 2.0 * md);
                ca.add(ca.dp, rs, md);
                const double bwdComm = ag.seconds + rs.seconds;
                f.dp = plan.overlap.dp
                           ? exposedAfterOverlap(ag.seconds, f.compute, ov.dpExposedFraction)
                           : ag.seconds;
                b.dp = plan.overlap.dp
                           ? exposedAfterOverlap(bwdComm, b.compute, ov.dpExposedFraction)
                           : bwdComm;
                // The copies around the collectives run on the compute stream: each gather
                // copies the gathered flat buffer out into the parameters (read + write), the
                // reduce-scatter copies the 16-bit gradients into its reduce-dtype buffer
                // (PyTorch FSDP2 "copy-in/copy-out", RFC pytorch/pytorch#114299; DeepSpeed
                // ZeRO-3 likewise flattens and unflattens).
                const double copyBytes = chunkParams * weightBytes * 2.0;
                f.dp += memoryBoundSeconds(hw, copyBytes, 1);
                b.dp += memoryBoundSeconds(hw, copyBytes + chunkParams * (2.0 + gradBytes), 2);
            }
            // overlap.ep: a micro-batch's dispatch and combine hide behind another's compute
            // (DualPipe pairs a forward chunk with a backward chunk; this models the overlap
            // only, against the chunk's own compute).
            f.ep = epExposed(f.ep, f.compute);
            b.ep = epExposed(b.ep, b.compute + b.recompute);
            if (offloading) {
                ChunkOffloadInput oc;
                oc.layers = l;
                oc.paramShard = chunkParams / double(dpg.shardRanks) +
                                lMoe * expertLayerLocal / double(expertDp);
                oc.stashBytes =
                    stageLayers > 0 ? stageActivations(s).perMicrobatch * l / stageLayers : 0.0;
                oc.keptFraction = activationKeptFraction(stageLayers);
                oc.forwardCompute = f.compute;
                oc.backwardCompute = b.compute + b.recompute;
                const ChunkOffload co = chunkOffload(offload, oc);
                f.offload = co.forwardExposed;
                b.offload = co.backwardExposed;
            }
            const std::size_t idx = static_cast<std::size_t>(s) * vpp + c;
            fwd[idx] = f.total();
            bwd[idx] = b.total();
            // Zero bubble: the weight-gradient GEMMs, about half of the backward GEMM time
            // (one of its two GEMMs per linear layer; Qi et al. 2024 sec. 2).
            wgrad[idx] = 0.5 * (l * chunkLayer.backward.gemm + (last ? output.backward.gemm : 0.0));
            stageFwd[s] += fwd[idx];
            stageBwd[s] += bwd[idx];
            parts[s].compute += md * (f.compute + b.compute);
            parts[s].recompute += md * (f.recompute + b.recompute);
            parts[s].memoryBound += md * (f.memoryBound + b.memoryBound);
            parts[s].tp += md * (f.tp + b.tp);
            parts[s].cp += md * (f.cp + b.cp);
            parts[s].ep += md * (f.ep + b.ep);
            parts[s].pp += md * (f.pp + b.pp);
            parts[s].dp += md * (f.dp + b.dp);
            parts[s].offload += md * (f.offload + b.offload);
        }
    }

    // The schedule.
    Estimate est;
    PipelineInput pin;
    pin.schedule = schedule;
    pin.stages = pp;
    pin.chunks = vpp;
    pin.microbatches = m;
    pin.forwardSeconds = fwd.data();
    pin.backwardSeconds = bwd.data();
    pin.edgeDelaySeconds = plan.overlap.pp ? p2p.seconds : 0.0;
    pin.weightGradSeconds = wgrad.data();
    const PipelineResult pr =
        simulatePipeline(pin, set.recordTimeline ? &est.timeline : nullptr, set.maxScheduleEvents);
    est.timelineMicrobatches = pr.simulatedMicrobatches;
    est.microbatches = m;

    // After the last backward: gradient reduction (ZeRO 0-2; with hybrid sharding also the
    // all-reduce of the gradient shards across the replicas, ZeRO 1-3), the optimizer step,
    // and the all-gather of the updated weights (ZeRO 1-2, Megatron's distributed optimizer).
    std::vector<double> postDp(pp, 0.0), postOpt(pp, 0.0), stageEnd(pp, 0.0);
    std::vector<double> postOffload(pp, 0.0); // CPU optimizer step and weight copies
    for (int s = 0; s < pp; ++s) {
        // The parameters that train on this stage: all of them, or the adapters.
        const double trainable = adapterMethod ? stageAdapters(s).adapterParams : stageParams[s];
        if (dpCp > 1 && (plan.zero < 3 || dpg.hybrid())) {
            const GradientSync sync =
                gradientSync(collectives, dpg, plan.zero, trainable, weightBytes, gradBytes);
            const CollectiveTime& red = sync.reduce;
            CommAccount& ca = stageComm[s];
            ca.add(ca.dp, red, 1.0);
            double exposed = plan.overlap.dp ? exposedAfterOverlap(red.seconds, stageBwd[s],
                                                                   ov.dpExposedFraction)
                                             : red.seconds;
            if (plan.zero >= 1 && plan.zero < 3) {
                const CollectiveTime& ag = sync.gather;
                ca.add(ca.dp, ag, 1.0);
                exposed += plan.overlap.dp
                               ? exposedAfterOverlap(ag.seconds, stageFwd[s], ov.dpExposedFraction)
                               : ag.seconds;
            }
            postDp[s] = exposed;
        }
        if (stageExpertParams[s] > 0 && expertDp > 1 && plan.zero < 3) {
            // The routed experts' gradients reduce over the expert-data-parallel group.
            const CollectiveTime red =
                collectives.cost(plan.zero == 0 ? Collective::AllReduce : Collective::ReduceScatter,
                                 stageExpertParams[s] * gradBytes, expertDpGroup);
            CommAccount& ca = stageComm[s];
            ca.add(ca.dp, red, 1.0);
            postDp[s] += plan.overlap.dp
                             ? exposedAfterOverlap(red.seconds, stageBwd[s], ov.dpExposedFraction)
                             : red.seconds;
        }
        const double localParams =
            trainable / (plan.zero >= 1 ? double(dpg.shardRanks) : 1.0) +
            stageExpertParams[s] / (plan.zero >= 1 ? double(expertDp) : 1.0);
        stageLocalParams[s] = localParams;
        postOpt[s] =
            plan.offload.optimizer != OffloadTarget::None
                ? 0.0 // on the CPU (estimate/Offload.h)
                : memoryBoundSeconds(hw, localParams * optimizerStepBytesPerParam(train), 8);
        if (offloading)
            postOffload[s] =
                stepOffload(offload, localParams, layout.stageLayers[s]).exposedSeconds;
        stageEnd[s] = pr.stageEndSeconds[s] + postDp[s] + postOpt[s] + postOffload[s];
    }
    const int last =
        static_cast<int>(std::max_element(stageEnd.begin(), stageEnd.end()) - stageEnd.begin());
    est.stepSeconds = stageEnd[last];
    // The breakdown describes the bottleneck rank, the one with the most work: in an
    // unbalanced pipeline the rank that ends last may be a light one (DeepSeek-V3's dense
    // first stage) that mostly waits, and its waiting would hide the others' work as "bubble".
    int ref = 0;
    for (int s = 1; s < pp; ++s)
        if (pr.stageBusySeconds[s] + postDp[s] + postOpt[s] + postOffload[s] >
            pr.stageBusySeconds[ref] + postDp[ref] + postOpt[ref] + postOffload[ref])
            ref = s;
    est.breakdownStage = ref;
    TimeBreakdown& tb = est.time;
    tb.compute = parts[ref].compute;
    tb.recompute = parts[ref].recompute;
    est.memoryBoundComputeSeconds = parts[ref].memoryBound;
    tb.tpExposed = parts[ref].tp;
    tb.cpExposed = parts[ref].cp;
    tb.epExposed = parts[ref].ep;
    tb.ppExposed = parts[ref].pp;
    tb.dpExposed = parts[ref].dp + postDp[ref];
    tb.optimizer = postOpt[ref];
    tb.offloadExposed = parts[ref].offload + postOffload[ref];
    // The bubble is what remains of the step: idle time of the bottleneck rank.
    tb.pipelineBubble =
        std::max(0.0, est.stepSeconds -
                          (tb.compute + tb.recompute + tb.tpExposed + tb.cpExposed + tb.epExposed +
                           tb.ppExposed + tb.dpExposed + tb.optimizer + tb.offloadExposed));
    est.stepSeconds = tb.sum();

    est.stageTimes.reserve(pp);
    for (int s = 0; s < pp; ++s)
        est.stageTimes.push_back(
            {s, stageFwd[s], stageBwd[s], pr.stageBusySeconds[s], stageEnd[s]});

    // Memory per stage.
    const double gpuBytes = sc.cluster.gpu.memoryGiB * double(1ull << 30);
    est.capacityBytes = gpuBytes;
    est.stages.reserve(pp);
    int communicators = (plan.tp > 1) + (dpCp > 1) + (pp > 1) + (plan.cp > 1) + dpg.hybrid();
    for (int s = 0; s < pp; ++s) {
        StageMemory sm;
        sm.stage = s;
        // ZeRO shards over the shard group, dp_shard x cp (= dp x cp unless hybrid).
        const ModelStateBytes states =
            modelStateBytes(stageParams[s], dpg.shardRanks, plan.zero, stateBytes);
        const ModelStateBytes experts =
            modelStateBytes(stageExpertParams[s], expertDp, plan.zero, stateBytes);
        sm.bytes.weights = states.weights + experts.weights;
        sm.bytes.gradients = states.gradients + experts.gradients;
        sm.bytes.optimizer = states.optimizer + experts.optimizer;
        // FP8 / MXFP8 / NVFP4: the cached low-precision weight copies (PrecisionMemory.h).
        sm.bytes.weights += lowPrecisionWeightCopyBytes(train, plan.zero) * stageLinearParams[s];
        const int stageLayers = layout.stageLayers[s];
        // LoRA / QLoRA: a frozen base without gradients or optimizer states, and the adapters.
        const bool adapters = sc.finetune && sc.finetune->adapters();
        FinetuneStageMemory ft;
        if (adapters) {
            FinetuneStageInput fi;
            fi.moeLayers = stageMoeLayers[s];
            fi.denseLayers = stageLayers - fi.moeLayers;
            fi.embedding = s == firstStage;
            fi.output = s == lastStage;
            fi.ownOutputMatrix = !model.tiedEmbeddings || firstStage != lastStage;
            fi.shardRanks = dpg.shardRanks;
            fi.zero = plan.zero;
            ft = finetuneStageMemory(sc, fi, stateBytes);
            sm.bytes.weights = ft.frozenBytes + ft.adapters.weights;
            sm.bytes.frozenWeights = ft.frozenBytes;
            sm.bytes.gradients = ft.adapters.gradients;
            sm.bytes.optimizer = ft.adapters.optimizer;
        }
        const StageActivations acts = stageActivations(s);
        const double perMicrobatch = acts.perMicrobatch;
        const double workingSet = acts.workingSet;
        const double inFlight = microbatchesInFlight(schedule, pp, vpp, s, m);
        sm.bytes.activations = inFlight * perMicrobatch + workingSet + ft.dequantisedBytes;
        if (s == lastStage)
            sm.bytes.activations += outputLayerActivationBytes(model, actLayout, actAssume);
        const double ncclBytes = communicators * kNcclBytesPerCommunicator;
        sm.bytes.commBuffers = ncclBytes;
        double gatheredLayer = 0; // FSDP: one layer's gathered weights and unsharded gradients
        if (plan.zero >= 3 && dpg.shardRanks > 1) {
            // FSDP: the gathered weights of the current and the prefetched layer, and one
            // layer's unsharded gradients before their reduce-scatter.
            gatheredLayer = adapters ? ft.gatheredLayerBytes + ft.layerAdapterGradientBytes
                                     : perLayerParamsLocal * (weightBytes + gradBytes);
            sm.bytes.commBuffers +=
                adapters ? 2.0 * ft.gatheredLayerBytes + ft.layerAdapterGradientBytes
                         : perLayerParamsLocal * (2.0 * weightBytes + gradBytes);
        }
        if (plan.overlap.tp && plan.tp > 1 && plan.sequenceParallel) {
            // TransformerEngine userbuffers for TP overlap: gathered [s, b, h] in and out.
            sm.bytes.commBuffers +=
                2.0 * double(train.seqLen) * train.microBatch * model.hidden * actBytes;
        }
        if (offloading) {
            StageOffloadInput so;
            so.localParams = stageLocalParams[s];
            // Fetched a module at a time: a layer, or the embedding / output matrix.
            double module = sparse ? std::max(denseLayerLocal, moeLayerLocal + expertLayerLocal)
                                   : perLayerParamsLocal;
            if (s == firstStage || s == lastStage)
                module = std::max(module, double(model.vocab) * model.hidden / tp);
            so.workingParams = std::min(stageParams[s] + stageExpertParams[s], 2.0 * module);
            so.dpShard = dpg.shardRanks;
            so.stashPerMicrobatch = perMicrobatch;
            so.microbatchesInFlight = inFlight;
            so.stageLayers = stageLayers;
            stageHost[s] = applyStageOffload(offload, so, sm.bytes);
        }
        // What PyTorch's allocator reports (AllocatorMemory.h); the CUDA context and NCCL's
        // buffers count on the device only.
        TensorMoments tm;
        tm.weights = sm.bytes.weights;
        tm.optimizer = sm.bytes.optimizer;
        tm.gradients = sm.bytes.gradients;
        tm.gradientsPersist = train.masterWeights || m > 1;
        tm.optimizerInBackward = train.optimizerInBackward;
        // Optimizer-in-backward: the largest weight's gradient (the embedding or an MLP matrix).
        tm.largestGradient = stateBytes.gradients * (adapters ? 0.0 : largestWeight) /
                             double(plan.zero >= 2 ? dpg.shardRanks : 1);
        tm.activations = sm.bytes.activations;
        tm.transient = sm.bytes.commBuffers - ncclBytes;
        tm.shardedParameters = gatheredLayer > 0;
        tm.gatheredLayer = gatheredLayer;
        const AllocatorPeaks ap = allocatorPeaks(tm);
        sm.bytes.gradients = ap.gradientsAtPeak;
        sm.bytes.activations = ap.activationsAtPeak;
        sm.allocatedBytes = ap.allocated;
        sm.reservedBytes = ap.reserved;
        sm.bytes.framework = kCudaContextBytes + (ap.reserved - ap.allocated);
        const double total = sm.bytes.total();
        if (s == 0 || total > est.peakBytes) {
            est.peakBytes = total;
            est.peakStage = s;
            est.peakAllocatedBytes = sm.allocatedBytes;
            est.peakReservedBytes = sm.reservedBytes;
            est.peakBreakdown = sm.bytes;
        }
        est.stages.push_back(sm);
    }
    est.fits = est.peakBytes <= est.capacityBytes;
    if (offloading)
        est.hostMemory = hostMemoryPerNode(sc, stageHost);

    // Throughput.
    const double tokensPerStep = double(train.globalBatch) * double(train.seqLen);
    const double gpus = double(sc.cluster.numGpus);
    est.tokensPerS = tokensPerStep / est.stepSeconds;
    est.tokensPerSPerGpu = est.tokensPerS / gpus;
    // Model FLOPs count the active parameters of MoE models (model/MoeArithmetic.h).
    est.modelTflopsPerGpu = (sparse ? sparseTrainingFlopsPerToken(model, train.seqLen)
                                    : trainingFlopsPerToken(model, train.seqLen)) *
                            est.tokensPerSPerGpu / 1e12;
    const double peak = densePeakTflops(sc.cluster.gpu, train.precision);
    est.mfu = peak > 0 ? est.modelTflopsPerGpu / peak : 0.0;
    if (train.tokens && *train.tokens > 0) {
        // Whole optimizer steps until training.tokens are consumed.
        est.trainSteps = std::ceil(*train.tokens / tokensPerStep);
        est.trainDays = *est.trainSteps * est.stepSeconds / 86400.0;
    }

    // Communication: bytes per GPU averaged over stages; per link over the whole cluster.
    const double gpusPerStage = gpus / pp;
    for (int s = 0; s < pp; ++s) {
        est.commBytesPerGpu.tp += stageComm[s].tp / pp;
        est.commBytesPerGpu.cp += stageComm[s].cp / pp;
        est.commBytesPerGpu.ep += stageComm[s].ep / pp;
        est.commBytesPerGpu.pp += stageComm[s].pp / pp;
        est.commBytesPerGpu.dp += stageComm[s].dp / pp;
        est.commBytesByLink.scaleUp += stageComm[s].scaleUp * gpusPerStage;
        est.commBytesByLink.scaleOut += stageComm[s].scaleOut * gpusPerStage;
    }

    // Warnings.
    const double use = est.peakBytes / est.capacityBytes;
    if (!est.fits)
        est.warnings.push_back("does not fit: stage " + std::to_string(est.peakStage) + " needs " +
                               formatGiB(est.peakBytes) + " of " + formatGiB(est.capacityBytes));
    else if (use > 0.9)
        est.warnings.push_back("plan uses " + std::to_string(int(std::lround(use * 100))) +
                               "% of memory: fragmentation risk");
    if (!pr.ok)
        est.warnings.push_back("the pipeline schedule simulation did not complete");
    if (model.moe)
        est.warnings.push_back("expert imbalance factor assumed 1.1 (busiest expert-parallel "
                               "rank over the mean; DeepSeek-V3 report, arXiv 2412.19437)");
    if (model.moe && plan.ep > 1 && !plan.overlap.ep)
        est.warnings.push_back("expert-parallel all-to-alls counted as exposed: set "
                               "parallelism.overlap.ep to hide them behind another "
                               "micro-batch's compute (DualPipe, Megatron-Core's "
                               "--overlap-moe-expert-parallel-comm)");
    if (model.moe && plan.ep > 1 && plan.overlap.ep && pp > 1)
        est.warnings.push_back("parallelism.overlap.ep: only the all-to-all overlap is "
                               "modelled; DualPipe's bidirectional pipeline schedule is not (the "
                               "schedule stays " +
                               std::string(enumName(schedule)) + ")");
    if (!sc.calibrationProfile && sc.cluster.gpu.powerSibling)
        est.warnings.push_back(powerSiblingWarning(sc.cluster.gpu));
    if (const std::string fp8 = fp8RecipeWarning(train, sc.cluster.gpu); !fp8.empty())
        est.warnings.push_back(fp8);
    for (const Diagnostic& d : topologyDiags.all())
        est.warnings.push_back("network graph: " + d.path + ": " + d.message +
                               (onGraph ? "" : " (collectives use the two-level model)"));
    if (offloading)
        addOffloadWarnings(sc, offload, est);
    addEnergyAndCost(sc, est);
    return est;
}

} // namespace ts
