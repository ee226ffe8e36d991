// Stages 4-6 of one estimate (estimate/EstimateStages.h): what follows the last backward,
// the pipeline schedule with the step's time breakdown, and memory per stage.

#include "estimate/EstimateStages.h"

#include "estimate/AllocatorMemory.h"
#include "estimate/FinetuneMemory.h"
#include "hardware/KernelTime.h"

#include <algorithm>

namespace ts {

namespace {

// The collectives of the stage before, to reuse when this stage holds as many parameters
// (most stages do): the same question gets the same answer.
struct StageSyncMemo {
    bool have = false;
    double trainable = 0;
    GradientSync sync;
    bool haveExpert = false;
    double expertParams = 0;
    CollectiveTime expertReduce;
};

// Exposed gradient reduction (ZeRO 0-2; with hybrid sharding also the all-reduce of the
// gradient shards across the replicas, ZeRO 1-3) and weight all-gather (ZeRO 1-2, Megatron's
// distributed optimizer) of stage s.
double exposedGradientSync(const EstimateContext& ctx, const StageParams& params, StageCosts& costs,
                           int s, StageSyncMemo& memo) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const OverlapModel& ov = ctx.set.overlap;
    const DataParallelGroups& dpg = ctx.dpg;
    double exposed = 0;
    if (dpg.dpCp > 1 && (plan.zero < 3 || dpg.hybrid())) {
        if (!memo.have || memo.trainable != params.stageTrainable[s]) {
            memo.sync = gradientSync(ctx.collectives, dpg, plan.zero, params.stageTrainable[s],
                                     ctx.weightBytes, ctx.gradBytes);
            memo.trainable = params.stageTrainable[s];
            memo.have = true;
        }
        const GradientSync& sync = memo.sync;
        const CollectiveTime& red = sync.reduce;
        CommAccount& ca = costs.stageComm[s];
        ca.add(ca.dp, red, 1.0);
        exposed = plan.overlap.dp
                      ? exposedAfterOverlap(red.seconds, costs.stageBwd[s], ov.dpExposedFraction)
                      : red.seconds;
        if (plan.zero >= 1 && plan.zero < 3) {
            const CollectiveTime& ag = sync.gather;
            ca.add(ca.dp, ag, 1.0);
            exposed += plan.overlap.dp ? exposedAfterOverlap(ag.seconds, costs.stageFwd[s],
                                                             ov.dpExposedFraction)
                                       : ag.seconds;
        }
    }
    if (params.stageExpertParams[s] > 0 && ctx.expertDp > 1 && plan.zero < 3) {
        // The routed experts' gradients reduce over the expert-data-parallel group.
        if (!memo.haveExpert || memo.expertParams != params.stageExpertParams[s]) {
            memo.expertReduce = ctx.collectives.cost(
                plan.zero == 0 ? Collective::AllReduce : Collective::ReduceScatter,
                params.stageExpertParams[s] * ctx.gradBytes, ctx.expertDpGroup);
            memo.expertParams = params.stageExpertParams[s];
            memo.haveExpert = true;
        }
        const CollectiveTime& red = memo.expertReduce;
        CommAccount& ca = costs.stageComm[s];
        ca.add(ca.dp, red, 1.0);
        exposed += plan.overlap.dp
                       ? exposedAfterOverlap(red.seconds, costs.stageBwd[s], ov.dpExposedFraction)
                       : red.seconds;
    }
    return exposed;
}

} // namespace

StepTail computeStepTail(const EstimateContext& ctx, const StageParams& params, StageCosts& costs) {
    StepTail tail;
    computeStepTail(ctx, params, costs, tail);
    return tail;
}

void computeStepTail(const EstimateContext& ctx, const StageParams& params, StageCosts& costs,
                     StepTail& tail) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const int pp = ctx.layout.stages;
    tail.postDp.assign(pp, 0.0);
    tail.postOpt.assign(pp, 0.0);
    tail.postOffload.assign(pp, 0.0); // CPU optimizer step and weight copies
    StageSyncMemo memo;
    const double stepBytes = optimizerStepBytesPerParam(ctx.sc.training);
    // A stage of a kind seen before (StageCosts::stageKind) does and sends what its first
    // stage did: the same inputs, the same numbers.
    const bool kinds = static_cast<int>(costs.stageKind.size()) == pp;
    for (int s = 0; s < pp; ++s) {
        if (kinds) {
            const int first = costs.kindFirstStage[static_cast<std::size_t>(costs.stageKind[s])];
            if (first < s) {
                tail.postDp[s] = tail.postDp[first];
                tail.postOpt[s] = tail.postOpt[first];
                tail.postOffload[s] = tail.postOffload[first];
                costs.stageComm[s] = costs.stageComm[first];
                continue;
            }
        }
        tail.postDp[s] = exposedGradientSync(ctx, params, costs, s, memo);
        const double localParams = params.stageLocalParams[s];
        // A stage like the one before (most are) takes the same seconds.
        const bool asBefore = s > 0 && localParams == params.stageLocalParams[s - 1];
        tail.postOpt[s] =
            plan.offload.optimizer != OffloadTarget::None ? 0.0 // on the CPU (estimate/Offload.h)
            : asBefore                                    ? tail.postOpt[s - 1]
                       : memoryBoundSeconds(ctx.set.hardware, localParams * stepBytes, 8);
        if (ctx.offloading)
            tail.postOffload[s] =
                asBefore && ctx.layout.stageLayers[s] == ctx.layout.stageLayers[s - 1]
                    ? tail.postOffload[s - 1]
                    : stepOffload(ctx.offload, localParams, ctx.layout.stageLayers[s])
                          .exposedSeconds;
    }
}

void fillStepTime(const EstimateContext& ctx, const StageCosts& costs, const StepTail& tail,
                  const std::vector<double>& stageBusy, const std::vector<double>& stageEnd,
                  Estimate& est, StepTimeDetail detail) {
    const int pp = ctx.layout.stages;
    const bool kinds =
        detail == StepTimeDetail::KindsAlike && static_cast<int>(costs.stageKind.size()) == pp;
    const auto busyWithTail = [&](int s) {
        return stageBusy[s] + tail.postDp[s] + tail.postOpt[s] + tail.postOffload[s];
    };
    const int last =
        static_cast<int>(std::max_element(stageEnd.begin(), stageEnd.end()) - stageEnd.begin());
    est.stepSeconds = stageEnd[last];
    // The breakdown describes the bottleneck rank, the one with the most work: in an
    // unbalanced pipeline the rank that ends last may be a light one (DeepSeek-V3's dense
    // first stage) that mostly waits, and its waiting would hide the others' work as "bubble".
    int ref = 0;
    if (kinds) { // (the others equal their kind's first, which comes before them)
        for (const int s : costs.kindFirstStage)
            if (busyWithTail(s) > busyWithTail(ref))
                ref = s;
    } else {
        for (int s = 1; s < pp; ++s)
            if (busyWithTail(s) > busyWithTail(ref))
                ref = s;
    }
    est.breakdownStage = ref;
    const StageParts& parts = costs.parts[ref];
    TimeBreakdown& tb = est.time;
    tb.compute = parts.compute;
    tb.recompute = parts.recompute;
    est.memoryBoundComputeSeconds = parts.memoryBound;
    tb.tpExposed = parts.tp;
    tb.cpExposed = parts.cp;
    tb.epExposed = parts.ep;
    tb.ppExposed = parts.pp;
    tb.dpExposed = parts.dp + tail.postDp[ref];
    tb.optimizer = tail.postOpt[ref];
    tb.offloadExposed = parts.offload + tail.postOffload[ref];
    // The bubble is what remains of the step: idle time of the bottleneck rank.
    tb.pipelineBubble =
        std::max(0.0, est.stepSeconds -
                          (tb.compute + tb.recompute + tb.tpExposed + tb.cpExposed + tb.epExposed +
                           tb.ppExposed + tb.dpExposed + tb.optimizer + tb.offloadExposed));
    est.stepSeconds = tb.sum();
    if (detail == StepTimeDetail::KindsAlike)
        return;
    est.stageTimes.reserve(pp);
    for (int s = 0; s < pp; ++s)
        est.stageTimes.push_back(
            {s, costs.stageFwd[s], costs.stageBwd[s], stageBusy[s], stageEnd[s]});
}

ScheduleResult computeSchedule(const EstimateContext& ctx, const StageCosts& costs,
                               const StepTail& tail, Estimate& est) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const int pp = ctx.layout.stages;
    PipelineInput pin;
    pin.schedule = ctx.schedule;
    pin.stages = pp;
    pin.chunks = ctx.layout.chunks;
    pin.microbatches = ctx.layout.microbatches;
    pin.forwardSeconds = costs.fwd.data();
    pin.backwardSeconds = costs.bwd.data();
    pin.edgeDelaySeconds = plan.overlap.pp ? costs.p2p.seconds : 0.0;
    pin.weightGradSeconds = costs.wgrad.data();
    ScheduleResult out;
    out.pipeline = simulatePipeline(pin, ctx.set.recordTimeline ? &est.timeline : nullptr,
                                    ctx.set.maxScheduleEvents);
    const PipelineResult& pr = out.pipeline;
    est.timelineMicrobatches = pr.simulatedMicrobatches;
    est.microbatches = ctx.layout.microbatches;
    out.stageEnd.assign(pp, 0.0);
    for (int s = 0; s < pp; ++s)
        out.stageEnd[s] =
            pr.stageEndSeconds[s] + tail.postDp[s] + tail.postOpt[s] + tail.postOffload[s];
    fillStepTime(ctx, costs, tail, pr.stageBusySeconds, out.stageEnd, est);
    return out;
}

namespace {

// Communication buffers beyond the NCCL communicators; returns one layer's gathered weights
// and unsharded gradients under FSDP (what the collective streams' pools keep), else 0.
double addCommBuffers(const EstimateContext& ctx, const LayerCosts& lc,
                      const FinetuneStageMemory& ft, double& bytes) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const TrainingConfig& train = ctx.sc.training;
    double gatheredLayer = 0;
    if (plan.zero >= 3 && ctx.dpg.shardRanks > 1) {
        // FSDP: the gathered weights of the current and the prefetched layer, and one
        // layer's unsharded gradients before their reduce-scatter (LoRA: the frozen base in
        // its storage format, and the adapters' gradients).
        const double weights =
            ctx.adapters ? ft.gatheredLayerBytes : lc.perLayerParamsLocal * ctx.weightBytes;
        const double grads =
            ctx.adapters ? ft.layerAdapterGradientBytes : lc.perLayerParamsLocal * ctx.gradBytes;
        bytes += 2.0 * weights + grads;
        gatheredLayer = weights + grads;
    }
    if (plan.overlap.tp && plan.tp > 1 && plan.sequenceParallel) {
        // TransformerEngine userbuffers for TP overlap: gathered [s, b, h] in and out.
        bytes += 2.0 * double(train.seqLen) * train.microBatch * ctx.sc.model.hidden * ctx.actBytes;
    }
    return gatheredLayer;
}

// The ranks one parameter's optimizer states are sharded over (ZeRO >= 1).
double optimizerShards(const EstimateContext& ctx) {
    return ctx.sc.parallel.zero >= 1 ? double(ctx.dpg.shardRanks) : 1.0;
}

// What PyTorch's allocator reports of stage memory `bytes` (AllocatorMemory.h), written into
// `sm`; the breakdown keeps what is live at the peak, and `framework` the CUDA context and
// what the allocator reserves beyond its tensors. NCCL's buffers count on the device only.
// `loss` and `layerWork` are the parts of sm.bytes.activations that the loss and one layer's
// backward hold (AllocatorMemory.h, TensorMoments).
void applyAllocator(const EstimateContext& ctx, double ncclBytes, double gatheredLayer, double loss,
                    double layerWork, double cachedBeforeLoss, StageMemory& sm) {
    const ResolvedScenario& sc = ctx.sc;
    const ParallelConfig& plan = sc.parallel;
    TensorMoments tm;
    tm.weights = sm.bytes.weights;
    tm.optimizer = sm.bytes.optimizer;
    tm.gradients = sm.bytes.gradients;
    tm.gradientsPersist = sc.training.masterWeights || ctx.layout.microbatches > 1;
    tm.optimizerInBackward = sc.training.optimizerInBackward;
    // Optimizer-in-backward: the largest weight's gradient (the embedding or an MLP matrix).
    const double largestWeight = std::max(double(sc.model.ffnHidden), double(sc.model.vocab)) *
                                 double(sc.model.hidden) / double(plan.tp);
    tm.largestGradient = ctx.adapters ? 0.0
                                      : ctx.stateBytes.gradients * largestWeight /
                                            double(plan.zero >= 2 ? ctx.dpg.shardRanks : 1);
    tm.lossActivations = loss;
    tm.layerWorkingSet = layerWork;
    tm.lossFreedBeforeLayers = pytorchNativeRecipe(sc);
    tm.activations = std::max(0.0, sm.bytes.activations - loss - layerWork);
    tm.transient = sm.bytes.commBuffers - ncclBytes;
    tm.shardedParameters = gatheredLayer > 0;
    tm.gatheredLayer = gatheredLayer;
    tm.cachedBeforeLoss = cachedBeforeLoss;
    tm.optimizerStepTemporary = optimizerStepTemporaryBytes(
        sc.training, sm.bytes.optimizer, ctx.adapters ? 0.0 : largestWeight / optimizerShards(ctx));
    const AllocatorPeaks ap = allocatorPeaks(tm);
    sm.bytes.optimizer += ap.optimizerTemporaryAtPeak;
    sm.bytes.gradients = ap.gradientsAtPeak;
    sm.bytes.activations = ap.activationsAtPeak;
    sm.allocatedBytes = ap.allocated;
    sm.reservedBytes = ap.reserved;
    sm.bytes.framework = kCudaContextBytes + (ap.reserved - ap.allocated);
}

// Offloaded states leave the GPU (estimate/Offload.h); returns what the host holds.
HostBytes offloadStage(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                       int s, double perMicrobatch, double inFlight, MemoryBreakdown& bytes) {
    const ModelConfig& model = ctx.sc.model;
    StageOffloadInput so;
    so.localParams = params.stageLocalParams[s];
    // Fetched a module at a time: a layer, or the embedding / output matrix.
    double module = lc.sparse ? std::max(lc.denseLayerLocal, lc.moeLayerLocal + lc.expertLayerLocal)
                              : lc.perLayerParamsLocal;
    if (s == ctx.firstStage || s == ctx.lastStage)
        module = std::max(module, double(model.vocab) * model.hidden / double(ctx.sc.parallel.tp));
    so.workingParams = std::min(params.stageParams[s] + params.stageExpertParams[s], 2.0 * module);
    so.dpShard = ctx.dpg.shardRanks;
    so.stashPerMicrobatch = perMicrobatch;
    so.microbatchesInFlight = inFlight;
    so.stageLayers = ctx.layout.stageLayers[s];
    return applyStageOffload(ctx.offload, so, bytes);
}

} // namespace

void computeMemory(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                   Estimate& est, double stopAboveBytes, MemoryDetail detail) {
    const ParallelConfig& plan = ctx.sc.parallel;
    const TrainingConfig& train = ctx.sc.training;
    const int pp = ctx.layout.stages;
    const double gpuBytes = ctx.sc.cluster.gpu.memoryGiB * double(1ull << 30);
    est.capacityBytes = gpuBytes;
    est.stages.reserve(pp);
    const bool peakOnly = detail == MemoryDetail::PeakOnly;
    std::vector<HostBytes> stageHost(ctx.offloading && !peakOnly ? pp : 0);
    const int communicators =
        (plan.tp > 1) + (ctx.dpg.dpCp > 1) + (pp > 1) + (plan.cp > 1) + ctx.dpg.hybrid();
    // FP8 / MXFP8 / NVFP4: the cached low-precision weight copies (PrecisionMemory.h).
    const bool blackwell = ctx.set.generation == GpuGeneration::Blackwell;
    const bool cache = ctx.sc.execution.fp8WeightCache;
    const double lowPrecisionCopy =
        cache ? lowPrecisionWeightCopyBytes(train, plan.zero, ctx.sc.execution.framework, blackwell)
              : 0.0;
    // execution.fp8_weight_cache false: one saved copy per micro-batch in flight.
    const double savedCopy =
        cache
            ? 0.0
            : lowPrecisionSavedWeightBytes(train, plan.zero, ctx.sc.execution.framework, blackwell);
    const double ncclBytes = communicators * kNcclBytesPerCommunicator;
    // Without adapters every stage has the same communication buffers.
    double sharedBuffers = ncclBytes;
    const double sharedGathered =
        ctx.adapters ? 0.0 : addCommBuffers(ctx, lc, FinetuneStageMemory{}, sharedBuffers);
    ModelStateBytes states, experts; // of the stage before, while its parameters are the same
    StageActivations acts;           // likewise, while its layers are
    double runInFlight = 0; // PeakOnly: the most in flight on the run of like stages up to s
    for (int s = 0; s < pp; ++s) {
        const double inFlight = ctx.inFlight[static_cast<std::size_t>(s)];
        if (peakOnly) {
            const bool like = params.likeStageBefore[s];
            if (like && inFlight <= runInFlight)
                continue; // (the memo above holds a like stage's: the one before is like it)
            runInFlight = like ? std::max(runInFlight, inFlight) : inFlight;
        }
        StageMemory sm;
        sm.stage = s;
        // ZeRO shards over the shard group, dp_shard x cp (= dp x cp unless hybrid).
        if (s == 0 || params.stageParams[s] != params.stageParams[s - 1])
            states = modelStateBytes(params.stageParams[s], ctx.dpg.shardRanks, plan.zero,
                                     ctx.stateBytes);
        if (s == 0 || params.stageExpertParams[s] != params.stageExpertParams[s - 1])
            experts = modelStateBytes(params.stageExpertParams[s], ctx.expertDp, plan.zero,
                                      ctx.stateBytes);
        sm.bytes.weights = states.weights + experts.weights;
        sm.bytes.gradients = states.gradients + experts.gradients;
        sm.bytes.optimizer = states.optimizer + experts.optimizer;
        sm.bytes.weights += lowPrecisionCopy * params.stageLinearParams[s];
        // LoRA / QLoRA: a frozen base without gradients or optimizer states, and the adapters.
        FinetuneStageMemory ft;
        if (ctx.adapters) {
            ft = finetuneStageMemory(ctx.sc, finetuneStageInput(ctx, params, s), ctx.stateBytes);
            sm.bytes.weights = ft.frozenBytes + ft.adapters.weights;
            sm.bytes.frozenWeights = ft.frozenBytes;
            sm.bytes.gradients = ft.adapters.gradients;
            sm.bytes.optimizer = ft.adapters.optimizer;
        }
        if (s == 0 || ctx.layout.stageLayers[s] != ctx.layout.stageLayers[s - 1])
            acts = stageActivations(ctx, lc, s); // (it reads the stage's layers only)
        // A quantised base: the dequantised 16-bit copy of one linear for its GEMM.
        const double layerWork = acts.workingSet + ft.dequantisedBytes;
        const bool last = s == ctx.lastStage;
        const double loss =
            last ? outputLayerActivationBytes(ctx.sc.model, lc.actLayout, lc.actAssumptions) : 0.0;
        const double freedLogits = last ? freedLogitBytes(ctx.sc, lc.actLayout) : 0.0;
        sm.bytes.activations = inFlight * acts.perMicrobatch + layerWork + loss;
        sm.bytes.activations += savedCopy * inFlight * params.stageLinearParams[s];
        sm.bytes.commBuffers = ctx.adapters ? ncclBytes : sharedBuffers;
        const double gatheredLayer =
            ctx.adapters ? addCommBuffers(ctx, lc, ft, sm.bytes.commBuffers) : sharedGathered;
        if (ctx.offloading) {
            const HostBytes host =
                offloadStage(ctx, lc, params, s, acts.perMicrobatch, inFlight, sm.bytes);
            if (!peakOnly)
                stageHost[s] = host;
        }
        applyAllocator(ctx, ncclBytes, gatheredLayer, loss, layerWork, freedLogits, sm);
        const double total = sm.bytes.total();
        if (s == 0 || total > est.peakBytes) {
            est.peakBytes = total;
            est.peakStage = s;
            est.peakAllocatedBytes = sm.allocatedBytes;
            est.peakActiveBytes = sm.allocatedBytes; // Estimate.h: active = allocated here
            est.peakReservedBytes = sm.reservedBytes;
            est.peakBreakdown = sm.bytes;
        }
        est.stages.push_back(sm);
        if (total > stopAboveBytes)
            break; // (a search's pruning: the rest cannot bring the plan back)
    }
    est.fits = est.peakBytes <= est.capacityBytes;
    if (ctx.offloading && !peakOnly)
        est.hostMemory = hostMemoryPerNode(ctx.sc, stageHost);
}

} // namespace ts
