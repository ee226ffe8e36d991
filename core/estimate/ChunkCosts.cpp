// Stage 3 of one estimate (estimate/EstimateStages.h): the forward and backward seconds of
// every pipeline chunk for one micro-batch, by breakdown category, and the bytes they send.

#include "estimate/EstimateStages.h"

#include "hardware/KernelTime.h"

#include <algorithm>

namespace ts {

namespace {

// Exposed TP communication per layer and pass.
double tpExposed(const EstimateContext& ctx, const CollectiveTime& c, const PassCost& pass) {
    const OverlapModel& ov = ctx.set.overlap;
    if (!ctx.sc.parallel.overlap.tp)
        return c.seconds;
    const double exposed = exposedAfterOverlap(c.seconds, pass.gemm, ov.tpExposedFraction);
    return exposed + ov.interference * (c.seconds - exposed);
}

// Exposed expert-parallel all-to-alls of a chunk, `a2aSeconds` beside `computeSeconds`.
// Overlapped (parallelism.overlap.ep; DeepSeek-V3 report, arXiv 2412.19437, sec. 3.2.1)
// as TP and DP are: max(f c, c - t), plus the OverlapModel's interference on the hidden
// part (the compute shares the GPU with the all-to-all kernels: DeepSeek-V3 gives them 20
// of the H800's 132 SMs, sec. 3.2.2).
double epExposed(const EstimateContext& ctx, double a2aSeconds, double computeSeconds) {
    const OverlapModel& ov = ctx.set.overlap;
    if (!ctx.sc.parallel.overlap.ep)
        return a2aSeconds;
    const double exposed = exposedAfterOverlap(a2aSeconds, computeSeconds, ov.epExposedFraction);
    return exposed + ov.interference * (a2aSeconds - exposed);
}

// One chunk of one stage while its costs are being added up.
struct ChunkWork {
    int s = 0, c = 0;
    std::size_t idx = 0;
    double l = 0;  // transformer layers
    double md = 1; // micro-batches per step
    bool first = false, last = false;
    const LayerCost* chunkLayer = nullptr; // the layer's, or `blended` (MoE / MLA chunks)
    LayerCost blended;
    double chunkTpF = 0, chunkTpB = 0;
    StageParts f, b;
};

// The chunk's transformer layers: compute, recompute, TP, CP and EP (before EP overlap).
void addTransformerLayers(const EstimateContext& ctx, ChunkWork& w, CommAccount& ca) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const int stageLayers = ctx.layout.stageLayers[w.s];
    const double recomputeShare =
        plan.recompute == RecomputeMode::Full
            ? (plan.recomputeLayers && stageLayers > 0
                   ? std::min(1.0, double(*plan.recomputeLayers) / stageLayers)
                   : 1.0)
            : 0.0;
    const LayerCost& chunkLayer = *w.chunkLayer;
    const double l = w.l, md = w.md;
    StageParts& f = w.f;
    StageParts& b = w.b;
    f.compute = l * chunkLayer.forward.compute();
    f.tp = l * w.chunkTpF;
    b.compute = l * chunkLayer.backward.compute();
    b.tp = l * w.chunkTpB;
    f.cp = l * chunkLayer.cpForward.seconds;
    b.cp = l * chunkLayer.cpBackward.seconds;
    // Expert-parallel all-to-alls (their overlap is applied once the chunk's compute is known).
    f.ep = l * chunkLayer.epForward.seconds;
    b.ep = l * chunkLayer.epBackward.seconds;
    f.memoryBound = l * chunkLayer.forward.elementwise;
    b.memoryBound = l * chunkLayer.backward.elementwise;
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
        b.tp += lr * w.chunkTpF;
        b.cp += lr * chunkLayer.cpForward.seconds;
        b.ep += lr * chunkLayer.epForward.seconds;
        ca.add(ca.ep, chunkLayer.epForward, md * lr);
        ca.add(ca.tp, chunkLayer.tpForward, md * lr);
        ca.add(ca.cp, chunkLayer.cpForward, md * lr);
    }
}

// The embedding on the first model chunk, the output layer and loss on the last, and the
// pipeline point-to-point transfers between chunks on different ranks.
void addEdgesAndTransfers(const EstimateContext& ctx, const LayerCosts& lc, const StageCosts& sc,
                          ChunkWork& w, CommAccount& ca) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const EdgeLayerCost& embed = lc.embed;
    const EdgeLayerCost& output = lc.output;
    const double md = w.md;
    StageParts& f = w.f;
    StageParts& b = w.b;
    if (w.first) {
        f.compute += embed.forward.compute();
        b.compute += embed.backward.compute();
        f.tp += tpExposed(ctx, embed.tpForward, embed.forward);
        ca.add(ca.tp, embed.tpForward, md);
    }
    if (w.last) {
        f.compute += output.forward.compute();
        b.compute += output.backward.compute();
        f.tp += tpExposed(ctx, output.tpForward, output.forward);
        b.tp += tpExposed(ctx, output.tpBackward, output.backward);
        ca.add(ca.tp, output.tpForward, md);
        ca.add(ca.tp, output.tpBackward, md);
    }
    // Point-to-point: every chunk but the very last sends its activations forward, every
    // chunk but the very first sends its gradients backward, to another rank.
    if (ctx.layout.stages > 1) {
        const int k = ctx.modelIndex(w.s, w.c);
        // ZB-V: rank p - 1 feeds its own second chunk, without a transfer.
        const bool sendsForward = !w.last && ctx.stageOfModelChunk(k + 1) != w.s;
        const bool sendsBackward = !w.first && ctx.stageOfModelChunk(k - 1) != w.s;
        if (sendsForward)
            ca.add(ca.pp, sc.p2p, md);
        if (sendsBackward)
            ca.add(ca.pp, sc.p2p, md);
        if (!plan.overlap.pp) {
            if (sendsForward)
                f.pp += sc.p2p.seconds;
            if (sendsBackward)
                b.pp += sc.p2p.seconds;
        }
    }
}

// ZeRO-3 / FSDP: gather the chunk's weights before its forward and again before its
// backward; reduce-scatter its gradients after the backward, every micro-batch (PyTorch FSDP
// default with gradient accumulation), in the shard group.
void addZero3(const EstimateContext& ctx, double chunkParams, ChunkWork& w, CommAccount& ca) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const OverlapModel& ov = ctx.set.overlap;
    const HardwareProfile& hw = ctx.set.hardware;
    if (plan.zero < 3 || ctx.dpg.shardRanks <= 1)
        return;
    const ShardedChunkComm z3 = zero3ChunkComm(ctx.collectives, ctx.dpg, chunkParams,
                                               ctx.gatherBytesPerParam, ctx.reduceBytesPerParam);
    const CollectiveTime& ag = z3.gather;
    const CollectiveTime& rs = z3.reduceScatter;
    ca.add(ca.dp, ag, 2.0 * w.md);
    ca.add(ca.dp, rs, w.md);
    const double bwdComm = ag.seconds + rs.seconds;
    StageParts& f = w.f;
    StageParts& b = w.b;
    f.dp = plan.overlap.dp ? exposedAfterOverlap(ag.seconds, f.compute, ov.dpExposedFraction)
                           : ag.seconds;
    b.dp =
        plan.overlap.dp ? exposedAfterOverlap(bwdComm, b.compute, ov.dpExposedFraction) : bwdComm;
    // The copies around the collectives run on the compute stream: each gather copies the
    // gathered flat buffer out into the parameters (read + write), the reduce-scatter copies
    // the 16-bit gradients into its reduce-dtype buffer (PyTorch FSDP2 "copy-in/copy-out",
    // RFC pytorch/pytorch#114299; DeepSpeed ZeRO-3 likewise flattens and unflattens).
    // (LoRA: the frozen base in its storage format, the adapters' gradients only.)
    const double copyBytes = chunkParams * ctx.gatherBytesPerParam * 2.0;
    const double gradShare = ctx.reduceBytesPerParam / ctx.gradBytes;
    f.dp += memoryBoundSeconds(hw, copyBytes, 1);
    b.dp += memoryBoundSeconds(hw, copyBytes + chunkParams * gradShare * (2.0 + ctx.gradBytes), 2);
}

// CPU / NVMe offload transfers of the chunk (estimate/Offload.h).
void addChunkOffload(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                     ChunkWork& w) {
    const int stageLayers = ctx.layout.stageLayers[w.s];
    ChunkOffloadInput oc;
    oc.layers = w.l;
    oc.paramShard = params.chunkParams[w.idx] / double(ctx.dpg.shardRanks) +
                    params.chunkMoeLayers[w.idx] * lc.expertLayerLocal / double(ctx.expertDp);
    oc.stashBytes =
        stageLayers > 0 ? stageActivations(ctx, lc, w.s).perMicrobatch * w.l / stageLayers : 0.0;
    oc.keptFraction = activationKeptFraction(stageLayers);
    oc.forwardCompute = w.f.compute;
    oc.backwardCompute = w.b.compute + w.b.recompute;
    const ChunkOffload co = chunkOffload(ctx.offload, oc);
    w.f.offload = co.forwardExposed;
    w.b.offload = co.backwardExposed;
}

void addToStage(const StageParts& f, const StageParts& b, double md, StageParts& into) {
    into.compute += md * (f.compute + b.compute);
    into.recompute += md * (f.recompute + b.recompute);
    into.memoryBound += md * (f.memoryBound + b.memoryBound);
    into.tp += md * (f.tp + b.tp);
    into.cp += md * (f.cp + b.cp);
    into.ep += md * (f.ep + b.ep);
    into.pp += md * (f.pp + b.pp);
    into.dp += md * (f.dp + b.dp);
    into.offload += md * (f.offload + b.offload);
}

} // namespace

StageCosts computeStageCosts(const EstimateContext& ctx, const LayerCosts& lc,
                             const StageParams& params) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const TrainingConfig& train = ctx.sc.training;
    const PipelineLayout& layout = ctx.layout;
    const int pp = layout.stages, vpp = layout.chunks;
    const double md = static_cast<double>(layout.microbatches);
    const std::size_t nChunks = static_cast<std::size_t>(pp) * vpp;
    StageCosts out;
    // Pipeline point-to-point: one [s, b, h] activation (or its gradient) per chunk boundary,
    // split over TP ranks (Narayanan et al. 2021 sec. 4.1, scatter/gather optimisation).
    const double p2pBytes = double(train.seqLen) * double(train.microBatch) *
                            double(ctx.sc.model.hidden) * ctx.actBytes / double(plan.tp) /
                            double(std::max(1, plan.cp));
    if (pp > 1)
        out.p2p = ctx.collectives.cost(Collective::SendRecv, p2pBytes, ctx.ppGroup);
    out.fwd.assign(nChunks, 0.0);
    out.bwd.assign(nChunks, 0.0);
    out.wgrad.assign(nChunks, 0.0);
    out.parts.assign(pp, StageParts{});
    out.stageFwd.assign(pp, 0.0);
    out.stageBwd.assign(pp, 0.0);
    out.stageComm.assign(pp, CommAccount{});
    const double layerTpF = tpExposed(ctx, lc.layer.tpForward, lc.layer.forward);
    const double layerTpB = tpExposed(ctx, lc.layer.tpBackward, lc.layer.backward);
    for (int s = 0; s < pp; ++s) {
        for (int c = 0; c < vpp; ++c) {
            ChunkWork w;
            w.s = s;
            w.c = c;
            w.idx = static_cast<std::size_t>(s) * vpp + c;
            w.l = layout.layersOf(s, c);
            w.md = md;
            w.chunkLayer = &lc.layer;
            w.chunkTpF = layerTpF;
            w.chunkTpB = layerTpB;
            if (lc.sparse && w.l > 0) {
                const double lMoe = params.chunkMoeLayers[w.idx];
                w.blended =
                    blendLayerCosts(lc.denseLayer, (w.l - lMoe) / w.l, lc.moeLayer, lMoe / w.l);
                w.chunkLayer = &w.blended;
                w.chunkTpF = tpExposed(ctx, w.blended.tpForward, w.blended.forward);
                w.chunkTpB = tpExposed(ctx, w.blended.tpBackward, w.blended.backward);
            }
            const int k = ctx.modelIndex(s, c);
            w.first = k == 0;
            w.last = k == ctx.nModelChunks - 1;
            CommAccount& ca = out.stageComm[s];
            addTransformerLayers(ctx, w, ca);
            addEdgesAndTransfers(ctx, lc, out, w, ca);
            addZero3(ctx, params.chunkParams[w.idx], w, ca);
            // overlap.ep: a micro-batch's dispatch and combine hide behind another's compute
            // (DualPipe pairs a forward chunk with a backward chunk; this models the overlap
            // only, against the chunk's own compute).
            w.f.ep = epExposed(ctx, w.f.ep, w.f.compute);
            w.b.ep = epExposed(ctx, w.b.ep, w.b.compute + w.b.recompute);
            if (ctx.offloading)
                addChunkOffload(ctx, lc, params, w);
            out.fwd[w.idx] = w.f.total();
            out.bwd[w.idx] = w.b.total();
            // Zero bubble: the weight-gradient GEMMs, about half of the backward GEMM time
            // (one of its two GEMMs per linear layer; Qi et al. 2024 sec. 2).
            out.wgrad[w.idx] = 0.5 * (w.l * w.chunkLayer->backward.gemm +
                                      (w.last ? lc.output.backward.gemm : 0.0));
            out.stageFwd[s] += out.fwd[w.idx];
            out.stageBwd[s] += out.bwd[w.idx];
            addToStage(w.f, w.b, md, out.parts[s]);
        }
    }
    return out;
}

} // namespace ts
