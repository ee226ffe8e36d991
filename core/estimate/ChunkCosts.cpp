// Stage 3 of one estimate (estimate/EstimateStages.h): the forward and backward seconds of
// every pipeline chunk for one micro-batch, by breakdown category, and the bytes they send.

#include "estimate/EstimateStages.h"

#include "estimate/HostTimeline.h"
#include "hardware/KernelTime.h"

#include <algorithm>
#include <array>

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

// The bytes a chunk sends, as the CommAccount::add calls that count them, so that chunks of
// one kind can be counted into their stage's account in the same order, number for number,
// without being costed again.
struct ChunkComm {
    enum Dim { Tp, Cp, Ep, Pp, Dp };
    struct Add { // no initialisers: an unused entry costs nothing
        Dim dim;
        double times, up, out;
    };
    // The adders below make at most 9 (layers) + 3 (edges) + 2 (transfers) + 2 (ZeRO-3).
    std::array<Add, 16> adds;
    int count;
    ChunkComm() : count(0) {} // user-provided: a vector of them does not zero `adds`
    void add(Dim dim, const CollectiveTime& c, double times) {
        adds.at(static_cast<std::size_t>(count++)) =
            Add{dim, times, c.scaleUpBytes, c.scaleOutBytes};
    }
    // As CommAccount::add, term for term, in locals that need no store between adds and no
    // branch: the other dimensions add +0.0, which leaves their non-negative sums as they are.
    void countInto(CommAccount& ca) const {
        double tp = ca.tp, cp = ca.cp, ep = ca.ep, pp = ca.pp, dp = ca.dp;
        double up = ca.scaleUp, out = ca.scaleOut;
        for (int i = 0; i < count; ++i) {
            const Add& a = adds[static_cast<std::size_t>(i)];
            const double bytes = a.times * (a.up + a.out);
            tp += a.dim == Tp ? bytes : 0.0;
            cp += a.dim == Cp ? bytes : 0.0;
            ep += a.dim == Ep ? bytes : 0.0;
            pp += a.dim == Pp ? bytes : 0.0;
            dp += a.dim == Dp ? bytes : 0.0;
            up += a.times * a.up;
            out += a.times * a.out;
        }
        ca.tp = tp;
        ca.cp = cp;
        ca.ep = ep;
        ca.pp = pp;
        ca.dp = dp;
        ca.scaleUp = up;
        ca.scaleOut = out;
    }
    // The link totals alone (scaleUp, scaleOut), as countInto adds them.
    void countLinksInto(CommAccount& ca) const {
        double up = ca.scaleUp, out = ca.scaleOut;
        for (int i = 0; i < count; ++i) {
            const Add& a = adds[static_cast<std::size_t>(i)];
            up += a.times * a.up;
            out += a.times * a.out;
        }
        ca.scaleUp = up;
        ca.scaleOut = out;
    }
};

// One chunk of one stage while its costs are being added up.
struct ChunkWork {
    int s = 0, c = 0;
    std::size_t idx = 0;
    double l = 0;  // transformer layers
    double md = 1; // micro-batches per step
    bool first = false, last = false;
    // Sends its activations to / its gradients back to a chunk on another rank.
    bool sendsForward = false, sendsBackward = false;
    const LayerCost* chunkLayer = nullptr; // the layer's, or `blended` (MoE / MLA chunks)
    LayerCost blended;
    double chunkTpF = 0, chunkTpB = 0;
    StageParts f, b;
    double hostF = 0, hostB = 0; // host-bound seconds beyond the GPU's (HostTimeline.h)
};

// Host-bound seconds of one layer's pass beyond its GPU time (estimate/HostTimeline.h):
// the GPU time is its compute, exposed TP and its EP all-to-alls (on the same stream).
double layerHostExposed(const EstimateContext& ctx, const PassCost& pass, const PassCost& expert,
                        double tp, double ep, double syncs) {
    PassTimelineInput in;
    in.gpuSeconds = pass.compute() + tp + ep;
    in.expertGpuSeconds = expert.compute() + ep;
    in.kernels = pass.kernels;
    in.expertKernels = expert.kernels;
    in.syncs = syncs;
    return hostExposedSeconds(ctx.sc.execution, in);
}

// The share of the stage's layers that full recompute runs again (parallelism.recompute_layers
// of them; 0 without full recompute).
double fullRecomputeShare(const EstimateContext& ctx, const ChunkWork& w) {
    const ParallelConfig& plan = ctx.sc.parallel;
    if (plan.recompute != RecomputeMode::Full)
        return 0.0;
    const int stageLayers = ctx.layout.stageLayers[w.s];
    return plan.recomputeLayers && stageLayers > 0
               ? std::min(1.0, double(*plan.recomputeLayers) / stageLayers)
               : 1.0;
}

// The host-bound seconds of the chunk's layers (HostTimeline.h), once the EP overlap is known:
// the host issues every kernel of the pass, the all-to-alls' included, however much of the
// all-to-alls another micro-batch's compute hides, so a host-bound pass takes its host time
// and an overlap shortens only the GPU's side of the comparison. `epShareF` and `epShareB`
// are the exposed shares of the chunk's all-to-alls.
void addHostTimeline(const EstimateContext& ctx, ChunkWork& w, double epShareF, double epShareB) {
    const LayerCost& layer = *w.chunkLayer;
    const double hostF = layerHostExposed(ctx, layer.forward, layer.expertForward, w.chunkTpF,
                                          epShareF * layer.epForward.seconds, layer.hostSyncs);
    w.hostF = w.l * hostF;
    w.hostB = w.l * layerHostExposed(ctx, layer.backward, layer.expertBackward, w.chunkTpB,
                                     epShareB * layer.epBackward.seconds, 0.0);
    // Full recompute issues the forward's kernels again in the backward, beside the
    // backward's all-to-alls (their exposed share).
    const double recomputeShare = fullRecomputeShare(ctx, w);
    if (recomputeShare <= 0)
        return;
    const double recomputeF =
        epShareB == epShareF
            ? hostF
            : layerHostExposed(ctx, layer.forward, layer.expertForward, w.chunkTpF,
                               epShareB * layer.epForward.seconds, layer.hostSyncs);
    w.hostB += w.l * recomputeShare * recomputeF;
}

// The chunk's transformer layers: compute, recompute, TP, CP and EP (before EP overlap).
void addTransformerLayers(const EstimateContext& ctx, ChunkWork& w, ChunkComm& ca) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const double recomputeShare = fullRecomputeShare(ctx, w);
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
    ca.add(ChunkComm::Tp, chunkLayer.tpForward, md * l);
    ca.add(ChunkComm::Tp, chunkLayer.tpBackward, md * l);
    ca.add(ChunkComm::Cp, chunkLayer.cpForward, md * l);
    ca.add(ChunkComm::Cp, chunkLayer.cpBackward, md * l);
    ca.add(ChunkComm::Ep, chunkLayer.epForward, md * l);
    ca.add(ChunkComm::Ep, chunkLayer.epBackward, md * l);
    if (plan.recompute == RecomputeMode::Selective) {
        // Korthikanti sec. 4.2: the attention core's forward runs again in backward; with
        // execution.recompute_modules, those modules' forwards (estimate/LayerCost.h).
        b.recompute = l * selectiveRecomputeSeconds(ctx.sc.execution, chunkLayer);
        if (ctx.sc.execution.recomputes(RecomputeModule::Moe)) {
            // The recomputed MoE forward dispatches and combines again.
            b.ep += l * chunkLayer.epForward.seconds;
            ca.add(ChunkComm::Ep, chunkLayer.epForward, md * l);
        }
    } else if (plan.recompute == RecomputeMode::Full) {
        const double lr = l * recomputeShare;
        b.recompute = lr * chunkLayer.forward.compute();
        b.memoryBound += lr * chunkLayer.forward.elementwise;
        b.tp += lr * w.chunkTpF;
        b.cp += lr * chunkLayer.cpForward.seconds;
        b.ep += lr * chunkLayer.epForward.seconds;
        ca.add(ChunkComm::Ep, chunkLayer.epForward, md * lr);
        ca.add(ChunkComm::Tp, chunkLayer.tpForward, md * lr);
        ca.add(ChunkComm::Cp, chunkLayer.cpForward, md * lr);
    }
}

// The embedding on the first model chunk, the output layer and loss on the last, and the
// pipeline point-to-point transfers between chunks on different ranks.
void addEdgesAndTransfers(const EstimateContext& ctx, const LayerCosts& lc, const StageCosts& sc,
                          ChunkWork& w, ChunkComm& ca) {
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
        ca.add(ChunkComm::Tp, embed.tpForward, md);
    }
    if (w.last) {
        f.compute += output.forward.compute();
        b.compute += output.backward.compute();
        f.tp += tpExposed(ctx, output.tpForward, output.forward);
        b.tp += tpExposed(ctx, output.tpBackward, output.backward);
        ca.add(ChunkComm::Tp, output.tpForward, md);
        ca.add(ChunkComm::Tp, output.tpBackward, md);
    }
    // Point-to-point: every chunk but the very last sends its activations forward, every
    // chunk but the very first sends its gradients backward, to another rank.
    if (ctx.layout.stages > 1) {
        const bool sendsForward = w.sendsForward, sendsBackward = w.sendsBackward;
        if (sendsForward)
            ca.add(ChunkComm::Pp, sc.p2p, md);
        if (sendsBackward)
            ca.add(ChunkComm::Pp, sc.p2p, md);
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
void addZero3(const EstimateContext& ctx, double chunkParams, int chunkLayers, double md,
              StageParts& f, StageParts& b, ChunkComm& ca) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const OverlapModel& ov = ctx.set.overlap;
    const HardwareProfile& hw = ctx.set.hardware;
    if (plan.zero < 3 || ctx.dpg.shardRanks <= 1)
        return;
    const ShardedChunkComm z3 =
        zero3ChunkComm(ctx.collectives, ctx.dpg, chunkParams, ctx.gatherBytesPerParam,
                       ctx.reduceBytesPerParam, std::max(1, chunkLayers));
    const CollectiveTime& ag = z3.gather;
    const CollectiveTime& rs = z3.reduceScatter;
    ca.add(ChunkComm::Dp, ag, 2.0 * md);
    ca.add(ChunkComm::Dp, rs, md);
    const double bwdComm = ag.seconds + rs.seconds;
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
// (Chunk `idx` of stage s, of `l` layers.)
void addChunkOffload(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                     int s, std::size_t idx, double l, StageParts& f, StageParts& b) {
    const int stageLayers = ctx.layout.stageLayers[s];
    ChunkOffloadInput oc;
    oc.layers = l;
    oc.paramShard = params.chunkParams[idx] / double(ctx.dpg.shardRanks) +
                    params.chunkMoeLayers[idx] * lc.expertLayerLocal / double(ctx.expertDp);
    oc.stashBytes =
        stageLayers > 0 ? stageActivations(ctx, lc, s).perMicrobatch * l / stageLayers : 0.0;
    oc.keptFraction = activationKeptFraction(stageLayers);
    oc.forwardCompute = f.compute;
    oc.backwardCompute = b.compute + b.recompute;
    const ChunkOffload co = chunkOffload(ctx.offload, oc);
    f.offload = co.forwardExposed;
    b.offload = co.backwardExposed;
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

// What a chunk's costs depend on besides the plan: chunks of one shape cost the same.
struct ChunkShape {
    int layers = 0;
    int stageLayers = 0; // of its stage (what full recompute and offload divide by)
    bool first = false, last = false, sendsForward = false, sendsBackward = false;
    double moeLayers = 0, params = 0;
    bool operator==(const ChunkShape&) const = default;
};

ChunkShape chunkShape(const EstimateContext& ctx, const StageParams& params, int s, int c) {
    const std::size_t idx = static_cast<std::size_t>(s) * ctx.layout.chunks + c;
    ChunkShape shape;
    shape.layers = ctx.layout.layersOf(s, c);
    shape.stageLayers = ctx.layout.stageLayers[s];
    const int k = ctx.modelIndex(s, c);
    shape.first = k == 0;
    shape.last = k == ctx.nModelChunks - 1;
    if (ctx.layout.stages > 1) {
        // ZB-V: rank p - 1 feeds its own second chunk, without a transfer.
        shape.sendsForward = !shape.last && ctx.stageOfModelChunk(k + 1) != s;
        shape.sendsBackward = !shape.first && ctx.stageOfModelChunk(k - 1) != s;
    }
    shape.moeLayers = params.chunkMoeLayers[idx];
    shape.params = params.chunkParams[idx];
    return shape;
}

} // namespace

// One shape's micro-batch seconds and their parts, and the bytes it sends, before ZeRO-3 and
// offload; where its first chunk is (what offload reads).
struct ChunkKind {
    ChunkShape shape;
    int s = 0;
    std::size_t idx = 0;
    StageParts f, b;
    ChunkComm comm;
    double wgrad = 0;
};

struct StageCostsBase {
    CollectiveTime p2p;
    std::vector<ChunkKind> kinds; // a dense model's chunks: two layer counts, first and last
    std::vector<int> chunkKind;   // [stage * vpp + chunk]
    // Stages whose chunks are of the same kinds in the same order add up the same sums.
    std::vector<std::vector<int>> stageKinds;
    std::vector<int> stageKind;      // [stage]
    std::vector<int> kindFirstStage; // [kind of stage]: where it first appears
    // Per kind of stage, its sums before ZeRO-3 and offload: those of the parts and the
    // dimensions they do not touch are final (ZeRO-3 adds to dp and the link totals only).
    struct StageBase {
        StageParts parts;
        CommAccount comm;
    };
    std::vector<StageBase> stageBases;
};

namespace {

ChunkKind costChunk(const EstimateContext& ctx, const LayerCosts& lc, const CollectiveTime& p2p,
                    const ChunkShape& shape, int s, int c, double layerTpF, double layerTpB) {
    ChunkKind kind;
    kind.shape = shape;
    kind.s = s;
    kind.idx = static_cast<std::size_t>(s) * ctx.layout.chunks + c;
    ChunkWork w;
    w.s = s;
    w.c = c;
    w.idx = kind.idx;
    w.l = shape.layers;
    w.md = static_cast<double>(ctx.layout.microbatches);
    w.chunkLayer = &lc.layer;
    w.chunkTpF = layerTpF;
    w.chunkTpB = layerTpB;
    if (lc.sparse && w.l > 0) {
        const double lMoe = shape.moeLayers;
        w.blended = blendLayerCosts(lc.denseLayer, (w.l - lMoe) / w.l, lc.moeLayer, lMoe / w.l);
        w.chunkLayer = &w.blended;
        w.chunkTpF = tpExposed(ctx, w.blended.tpForward, w.blended.forward);
        w.chunkTpB = tpExposed(ctx, w.blended.tpBackward, w.blended.backward);
    }
    w.first = shape.first;
    w.last = shape.last;
    w.sendsForward = shape.sendsForward;
    w.sendsBackward = shape.sendsBackward;
    StageCosts withP2p; // what addEdgesAndTransfers reads
    withP2p.p2p = p2p;
    addTransformerLayers(ctx, w, kind.comm);
    addEdgesAndTransfers(ctx, lc, withP2p, w, kind.comm);
    // overlap.ep: a micro-batch's dispatch and combine hide behind another's compute
    // (DualPipe pairs a forward chunk with a backward chunk; this models the overlap
    // only, against the chunk's own compute). (Before ZeRO-3's parts: it reads none of them.)
    const double epF = w.f.ep, epB = w.b.ep;
    w.f.ep = epExposed(ctx, epF, w.f.compute);
    w.b.ep = epExposed(ctx, epB, w.b.compute + w.b.recompute);
    addHostTimeline(ctx, w, epF > 0 ? w.f.ep / epF : 1.0, epB > 0 ? w.b.ep / epB : 1.0);
    // The GPU waits for the host's kernels: counted as compute time (the GPU's timeline).
    w.f.compute += w.hostF;
    w.b.compute += w.hostB;
    kind.f = w.f;
    kind.b = w.b;
    // Zero bubble: the weight-gradient GEMMs, about half of the backward GEMM time
    // (one of its two GEMMs per linear layer; Qi et al. 2024 sec. 2).
    kind.wgrad =
        0.5 * (w.l * w.chunkLayer->backward.gemm + (w.last ? lc.output.backward.gemm : 0.0));
    return kind;
}

// A kind with ZeRO-3 and offload added.
struct FinishedKind {
    FinishedKind() {} // user-provided: a vector of them is not zeroed first
    StageParts f, b;
    ChunkComm zero3;
    double fwd = 0, bwd = 0;
};

void finishKind(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                const ChunkKind& kind, FinishedKind& out) {
    const double md = static_cast<double>(ctx.layout.microbatches);
    out.f = kind.f;
    out.b = kind.b;
    out.zero3.count = 0;
    addZero3(ctx, kind.shape.params, kind.shape.layers, md, out.f, out.b, out.zero3);
    if (ctx.offloading)
        addChunkOffload(ctx, lc, params, kind.s, kind.idx, kind.shape.layers, out.f, out.b);
    out.fwd = out.f.total();
    out.bwd = out.b.total();
}

} // namespace

std::shared_ptr<const StageCostsBase>
computeStageCostsBase(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const TrainingConfig& train = ctx.sc.training;
    const int pp = ctx.layout.stages, vpp = ctx.layout.chunks;
    auto base = std::make_shared<StageCostsBase>();
    // Pipeline point-to-point: one [s, b, h] activation (or its gradient) per chunk boundary,
    // split over TP ranks (Narayanan et al. 2021 sec. 4.1, scatter/gather optimisation).
    const double p2pBytes = double(train.seqLen) * double(train.microBatch) *
                            double(ctx.sc.model.hidden) * ctx.actBytes / double(plan.tp) /
                            double(std::max(1, plan.cp));
    if (pp > 1)
        base->p2p = ctx.collectives.cost(Collective::SendRecv, p2pBytes, ctx.ppGroup);
    const double layerTpF = tpExposed(ctx, lc.layer.tpForward, lc.layer.forward);
    const double layerTpB = tpExposed(ctx, lc.layer.tpBackward, lc.layer.backward);
    base->chunkKind.assign(static_cast<std::size_t>(pp) * vpp, 0);
    base->stageKind.assign(pp, 0);
    std::vector<int> sequence(static_cast<std::size_t>(vpp));
    for (int s = 0; s < pp; ++s) {
        for (int c = 0; c < vpp; ++c) {
            const ChunkShape shape = chunkShape(ctx, params, s, c);
            auto& kinds = base->kinds;
            auto kind = std::find_if(kinds.begin(), kinds.end(),
                                     [&](const ChunkKind& k) { return k.shape == shape; });
            if (kind == kinds.end()) {
                kinds.push_back(costChunk(ctx, lc, base->p2p, shape, s, c, layerTpF, layerTpB));
                kind = kinds.end() - 1;
            }
            sequence[static_cast<std::size_t>(c)] = static_cast<int>(kind - kinds.begin());
            base->chunkKind[static_cast<std::size_t>(s) * vpp + c] = sequence[c];
        }
        auto& stages = base->stageKinds;
        auto stage = std::find(stages.begin(), stages.end(), sequence);
        if (stage == stages.end()) {
            stages.push_back(sequence);
            base->kindFirstStage.push_back(s);
            stage = stages.end() - 1;
        }
        base->stageKind[s] = static_cast<int>(stage - stages.begin());
    }
    const double md = static_cast<double>(ctx.layout.microbatches);
    for (const std::vector<int>& stage : base->stageKinds) {
        StageCostsBase::StageBase& sb = base->stageBases.emplace_back();
        for (int k : stage) {
            const ChunkKind& kind = base->kinds[static_cast<std::size_t>(k)];
            kind.comm.countInto(sb.comm);
            addToStage(kind.f, kind.b, md, sb.parts);
        }
    }
    return base;
}

void finishStageCosts(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                      const StageCostsBase& base, StageCosts& out, bool countBytes) {
    const int pp = ctx.layout.stages, vpp = ctx.layout.chunks;
    const double md = static_cast<double>(ctx.layout.microbatches);
    const std::size_t nChunks = static_cast<std::size_t>(pp) * vpp;
    thread_local std::vector<FinishedKind> kinds; // scratch that keeps its storage
    kinds.resize(base.kinds.size());
    for (std::size_t k = 0; k < kinds.size(); ++k)
        finishKind(ctx, lc, params, base.kinds[k], kinds[k]);
    out.p2p = base.p2p;
    out.fwd.resize(nChunks);
    out.bwd.resize(nChunks);
    out.wgrad.resize(countBytes ? nChunks : 0);
    for (std::size_t idx = 0; idx < nChunks; ++idx) {
        const std::size_t k = static_cast<std::size_t>(base.chunkKind[idx]);
        out.fwd[idx] = kinds[k].fwd;
        out.bwd[idx] = kinds[k].bwd;
    }
    if (countBytes)
        for (std::size_t idx = 0; idx < nChunks; ++idx)
            out.wgrad[idx] = base.kinds[static_cast<std::size_t>(base.chunkKind[idx])].wgrad;
    out.stageKind = base.stageKind;
    out.kindFirstStage = base.kindFirstStage;
    // Each kind of stage summed once, chunk by chunk in order, from zero.
    struct StageSums {
        double fwd = 0, bwd = 0;
        StageParts parts;
        CommAccount comm;
    };
    // What the base summed stays; the sums that ZeRO-3 and offload change are summed again,
    // each on its own and in chunk order, as addToStage and CommAccount::add sum them.
    bool zero3 = false;
    for (const FinishedKind& kind : kinds)
        zero3 = zero3 || kind.zero3.count > 0;
    thread_local std::vector<StageSums> sums;
    sums.resize(base.stageKinds.size());
    for (std::size_t q = 0; q < sums.size(); ++q) {
        StageSums& sum = sums[q];
        sum.fwd = sum.bwd = 0;
        sum.parts = base.stageBases[q].parts;
        sum.comm = countBytes ? base.stageBases[q].comm : CommAccount{};
        sum.parts.dp = sum.parts.offload = 0;
        if (zero3)
            sum.comm.dp = sum.comm.scaleUp = sum.comm.scaleOut = 0;
        for (int k : base.stageKinds[q]) {
            const FinishedKind& kind = kinds[static_cast<std::size_t>(k)];
            sum.fwd += kind.fwd;
            sum.bwd += kind.bwd;
            sum.parts.dp += md * (kind.f.dp + kind.b.dp);
            sum.parts.offload += md * (kind.f.offload + kind.b.offload);
            if (zero3 && countBytes) {
                base.kinds[static_cast<std::size_t>(k)].comm.countLinksInto(sum.comm);
                kind.zero3.countInto(sum.comm);
            }
        }
    }
    out.parts.resize(pp);
    out.stageFwd.resize(pp);
    out.stageBwd.resize(pp);
    out.stageComm.resize(pp);
    for (int s = 0; s < pp; ++s) {
        const StageSums& sum = sums[static_cast<std::size_t>(base.stageKind[s])];
        out.stageFwd[s] = sum.fwd;
        out.stageBwd[s] = sum.bwd;
        out.parts[s] = sum.parts;
        out.stageComm[s] = sum.comm;
    }
}

StageCosts computeStageCosts(const EstimateContext& ctx, const LayerCosts& lc,
                             const StageParams& params) {
    StageCosts out;
    finishStageCosts(ctx, lc, params, *computeStageCostsBase(ctx, lc, params), out);
    return out;
}

} // namespace ts
