#include "estimate/Offload.h"

#include "common/TextFormat.h"

#include "estimate/LayerCost.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace ts {

namespace {

constexpr double kGiB = double(1ull << 30);

// Host DRAM traffic of one CPU optimizer step per parameter, as the GPU figures of
// Estimator.cpp without zeroing the gradient buffer (the first micro-batch's copy overwrites
// DeepSpeed's CPU accumulator): Adam reads the FP32 gradient (4), reads and writes the FP32
// master weight, momentum and variance (24), writes the 16-bit weight (2) and reads the
// gradient once more for its norm (4): 34 (DeepSpeed CPU-Adam, csrc/adam/cpu_adam.cpp, and
// stage_1_and_2.py complete_grad_norm_calculation_for_cpu_offload). SGD with momentum: 26;
// Adafactor: 22; 8-bit Adam moves 1 byte per moment each way: 22.
double cpuStepBytesPerParam(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Adam:
        return 34.0;
    case OptimizerKind::Adam8bit:
        return 22.0;
    case OptimizerKind::Sgd:
        return 26.0;
    case OptimizerKind::Adafactor:
        return 22.0;
    }
    return 34.0;
}

// Bytes over a rate; validation guarantees a known rate wherever bytes move.
double seconds(double bytes, double bytesPerS) {
    return bytes > 0 && bytesPerS > 0 ? bytes / bytesPerS : 0.0;
}

// Transfers hidden behind `compute` except the first of `layers` per-layer transfers.
double exposed(double transferSeconds, double computeSeconds, double layers) {
    if (transferSeconds <= 0)
        return 0.0;
    return exposedAfterOverlap(transferSeconds, computeSeconds, 1.0 / std::max(1.0, layers));
}

} // namespace

bool anyOffload(const OffloadConfig& o) {
    return o.optimizer != OffloadTarget::None || o.params != OffloadTarget::None ||
           o.activations != OffloadTarget::None;
}

OffloadPlan offloadPlan(const ResolvedScenario& sc, const StateBytesPerParam& stateBytes) {
    OffloadPlan p;
    p.targets = sc.parallel.offload;
    // The GPUs of a node that share its DRAM and drives: all of them, or all the run has.
    p.gpusPerNode = static_cast<int>(
        std::clamp<std::int64_t>(sc.cluster.numGpus, 1, std::max(1, sc.cluster.gpusPerNode)));
    const HostConfig& h = sc.cluster.host;
    const double perGpu = 1e9 / p.gpusPerNode;
    p.links.pcie = h.pcieGBps.value_or(0) * 1e9;
    p.links.hostMemory = h.memoryGBps.value_or(0) * perGpu;
    p.links.nvmeRead = h.nvmeReadGBps.value_or(0) * perGpu;
    p.links.nvmeWrite = h.nvmeWriteGBps.value_or(0) * perGpu;
    p.zero = sc.parallel.zero;
    const bool fp32 = sc.training.precision == Precision::Fp32;
    // ZeRO-Offload moves 16-bit gradients and weights (2M bytes each way per step for M
    // parameters, Ren et al. 2021); FP32 training moves 32-bit ones.
    p.weightBytes = stateBytes.weights;
    p.gradientBytes = fp32 ? 4.0 : 2.0;
    // The CPU updates an FP32 master copy: Megatron's state bytes hold it for mixed
    // precision; FP32 training adds it.
    p.hostOptimizerBytes = stateBytes.optimizer + (fp32 ? 4.0 : 0.0);
    p.cpuStepBytes = cpuStepBytesPerParam(sc.training.optimizer);
    // Each micro-batch's gradient lands in DRAM and is added to its FP32 accumulator: read
    // the 16-bit copy (2), read and write the FP32 sum (8); FP32 training reads 4.
    p.accumulateBytes = (fp32 ? 4.0 : 2.0) + 8.0;
    return p;
}

double offloadTransferSeconds(const OffloadLinks& links, const OffloadTraffic& t) {
    const double pcie = std::max(seconds(t.h2d, links.pcie), seconds(t.d2h, links.pcie));
    const double nvme = seconds(t.nvmeRead, links.nvmeRead) + seconds(t.nvmeWrite, links.nvmeWrite);
    const double dram = seconds(t.h2d + t.d2h + t.hostAccumulate, links.hostMemory);
    return std::max({pcie, nvme, dram});
}

ChunkOffload chunkOffload(const OffloadPlan& plan, const ChunkOffloadInput& in) {
    const OffloadConfig& o = plan.targets;
    const double params = o.params != OffloadTarget::None ? in.paramShard * plan.weightBytes : 0;
    const double stash =
        o.activations != OffloadTarget::None ? in.stashBytes * (1.0 - in.keptFraction) : 0;
    const double paramsFromNvme = o.params == OffloadTarget::Nvme ? params : 0.0;
    const double stashOnNvme = o.activations == OffloadTarget::Nvme ? stash : 0.0;
    ChunkOffload r;
    // Forward: fetch the weights (host -> GPU), stash the activations (GPU -> host).
    r.forward.h2d = params;
    r.forward.d2h = stash;
    r.forward.nvmeRead = paramsFromNvme;
    r.forward.nvmeWrite = stashOnNvme;
    // Backward: fetch the weights again and reload the activations; send the gradient shard
    // to the host's FP32 accumulators.
    r.backward.h2d = params + stash;
    const bool grads = o.optimizer != OffloadTarget::None;
    r.backward.d2h = grads ? in.paramShard * plan.gradientBytes : 0.0;
    r.backward.hostAccumulate = grads ? in.paramShard * plan.accumulateBytes : 0.0;
    r.backward.nvmeRead = paramsFromNvme + stashOnNvme;
    r.forwardExposed =
        exposed(offloadTransferSeconds(plan.links, r.forward), in.forwardCompute, in.layers);
    r.backwardExposed =
        exposed(offloadTransferSeconds(plan.links, r.backward), in.backwardCompute, in.layers);
    return r;
}

StepOffload stepOffload(const OffloadPlan& plan, double localParams, double stageLayers) {
    const OffloadConfig& o = plan.targets;
    const OffloadLinks& l = plan.links;
    const double weights = localParams * plan.weightBytes;
    StepOffload s;
    if (o.optimizer != OffloadTarget::None) {
        // Host DRAM: the update's own traffic, and the DMA reading the updated 16-bit weights
        // out while it runs (params kept on the GPU).
        const double dma = o.params == OffloadTarget::None ? weights : 0.0;
        s.cpuSeconds = seconds(localParams * plan.cpuStepBytes + dma, l.hostMemory);
        if (o.optimizer == OffloadTarget::Nvme) {
            // ZeRO-Infinity reads each sub-group's states from NVMe and writes them back,
            // pipelined with the CPU update of the previous sub-group (its "overlap-centric
            // design").
            const double states = localParams * plan.hostOptimizerBytes;
            s.nvmeSeconds = seconds(states, l.nvmeRead) + seconds(states, l.nvmeWrite);
        }
        if (o.params == OffloadTarget::Nvme)
            s.nvmeSeconds += seconds(weights, l.nvmeWrite); // the updated shard, to the drives
        else if (o.params == OffloadTarget::None)
            s.paramsSeconds = seconds(weights, l.pcie); // the updated weights, to the GPU
        // (params on cpu: the CPU writes the updated 16-bit shard in place.)
        const double core = std::max(s.cpuSeconds, s.nvmeSeconds);
        // DeepSpeed's CPU-Adam copies each updated tile to the GPU while it updates the next.
        s.exposedSeconds = core + exposed(s.paramsSeconds, core, stageLayers);
    } else if (o.params != OffloadTarget::None) {
        // The GPU's optimizer updated the shard: it goes back to the host (and drives).
        s.paramsSeconds = seconds(weights, l.pcie);
        if (o.params == OffloadTarget::Nvme)
            s.nvmeSeconds = seconds(weights, l.nvmeWrite);
        s.exposedSeconds = std::max(s.paramsSeconds, s.nvmeSeconds);
    }
    return s;
}

double activationKeptFraction(int stageLayers) {
    return stageLayers <= 2 ? 1.0 : 2.0 / stageLayers;
}

HostBytes applyStageOffload(const OffloadPlan& plan, const StageOffloadInput& in,
                            MemoryBreakdown& gpu) {
    const OffloadConfig& o = plan.targets;
    HostBytes hb;
    const auto place = [&](OffloadTarget t, double bytes) {
        (t == OffloadTarget::Nvme ? hb.nvme : hb.host) += bytes;
    };
    if (o.optimizer != OffloadTarget::None) {
        // The GPU keeps only the 16-bit gradients in flight to their reduction and copy out
        // (DeepSpeed's reduce buckets), about the working set's.
        gpu.optimizer = 0;
        gpu.gradients = std::min(gpu.gradients, in.workingParams * plan.gradientBytes);
        hb.host += in.localParams * 4.0; // FP32 gradient accumulators stay in DRAM
        place(o.optimizer, in.localParams * plan.hostOptimizerBytes);
    }
    if (o.params != OffloadTarget::None) {
        // ZeRO-3: the shards of the layer in use and the prefetched one; the gathered layers
        // are the communication buffers' (no gather without data parallelism).
        const double shardOf = static_cast<double>(std::max<std::int64_t>(1, in.dpShard));
        gpu.weights = std::min(gpu.weights, in.workingParams * plan.weightBytes / shardOf);
        place(o.params, in.localParams * plan.weightBytes);
    }
    if (o.activations != OffloadTarget::None) {
        const double moved = in.microbatchesInFlight * in.stashPerMicrobatch *
                             (1.0 - activationKeptFraction(in.stageLayers));
        gpu.activations = std::max(0.0, gpu.activations - moved);
        place(o.activations, moved);
    }
    return hb;
}

HostMemory hostMemoryPerNode(const ResolvedScenario& sc, const std::vector<HostBytes>& perStage) {
    HostMemory hm;
    const HostConfig& h = sc.cluster.host;
    if (h.memoryGiB)
        hm.capacityBytes = *h.memoryGiB * kGiB;
    if (h.nvmeGiB)
        hm.nvmeCapacityBytes = *h.nvmeGiB * double(1ull << 30);
    const std::int64_t gpus = std::max<std::int64_t>(1, sc.cluster.numGpus);
    const std::int64_t perNode = std::clamp<std::int64_t>(sc.cluster.gpusPerNode, 1, gpus);
    const auto stages = static_cast<std::int64_t>(std::max<std::size_t>(1, perStage.size()));
    const std::int64_t stageRanks = std::max<std::int64_t>(1, gpus / stages);
    const auto add = [&](const HostBytes& node) {
        hm.bytesPerNode = std::max(hm.bytesPerNode, node.host);
        hm.nvmeBytesPerNode = std::max(hm.nvmeBytesPerNode, node.nvme);
    };
    if (stageRanks % perNode == 0) { // every node within one stage
        for (const HostBytes& s : perStage)
            add({s.host * perNode, s.nvme * perNode});
        return hm;
    }
    for (std::int64_t first = 0; first < gpus; first += perNode) {
        HostBytes node;
        for (std::int64_t r = first; r < std::min(gpus, first + perNode); ++r) {
            const auto& s =
                perStage[static_cast<std::size_t>(std::min(stages - 1, r / stageRanks))];
            node.host += s.host;
            node.nvme += s.nvme;
        }
        add(node);
    }
    return hm;
}

void addOffloadWarnings(const ResolvedScenario& sc, const OffloadPlan& plan, Estimate& est) {
    const OffloadConfig& o = plan.targets;
    const HostConfig& h = sc.cluster.host;
    auto warn = [&est](MessageId id, std::vector<std::string> args = {}) {
        est.warnings.push_back(message(id, std::move(args)));
    };
    const std::string gpus = std::to_string(plan.gpusPerNode);
    if (h.pcieGBps)
        warn(MessageId::OffloadPcie, {printfText("%.1f", *h.pcieGBps)});
    if (o.optimizer != OffloadTarget::None && h.memoryGBps)
        warn(MessageId::OffloadCpuStep,
             {printfText("%.0f", plan.cpuStepBytes), printfText("%.0f", *h.memoryGBps), gpus});
    const bool nvme = o.optimizer == OffloadTarget::Nvme || o.params == OffloadTarget::Nvme ||
                      o.activations == OffloadTarget::Nvme;
    if (nvme && h.nvmeReadGBps && h.nvmeWriteGBps)
        warn(MessageId::OffloadNvme,
             {printfText("%.1f", *h.nvmeReadGBps), printfText("%.1f", *h.nvmeWriteGBps), gpus});
    if (o.activations != OffloadTarget::None && sc.parallel.pp > 1)
        warn(MessageId::OffloadActivationsPipeline);
    if (o.activations == OffloadTarget::Nvme)
        warn(MessageId::OffloadActivationsNvme);
    if (o.optimizer != OffloadTarget::None && plan.zero < 3 && est.microbatches > 1 &&
        sc.parallel.dp * sc.parallel.cp > 1)
        warn(MessageId::OffloadOptimizerMicrobatches);
    if (!est.hostMemory)
        return;
    const HostMemory& hm = *est.hostMemory;
    if (hm.bytesPerNode > 0) {
        if (!hm.capacityBytes)
            warn(MessageId::OffloadHostMemoryUnknown, {printfText("%.1f", hm.bytesPerNode / kGiB)});
        else if (hm.bytesPerNode > *hm.capacityBytes)
            warn(MessageId::OffloadHostMemoryShort, {printfText("%.1f", hm.bytesPerNode / kGiB),
                                                     printfText("%.1f", *hm.capacityBytes / kGiB)});
    }
    if (hm.nvmeBytesPerNode > 0) {
        if (!hm.nvmeCapacityBytes)
            warn(MessageId::OffloadNvmeUnknown, {printfText("%.2f", hm.nvmeBytesPerNode / 1e12)});
        else if (hm.nvmeBytesPerNode > *hm.nvmeCapacityBytes)
            warn(MessageId::OffloadNvmeShort, {printfText("%.2f", hm.nvmeBytesPerNode / 1e12),
                                               printfText("%.2f", *hm.nvmeCapacityBytes / 1e12)});
    }
}

} // namespace ts
