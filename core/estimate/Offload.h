#pragma once
// CPU and NVMe offload (parallelism.offload): what moves over PCIe (or NVLink-C2C) and to the
// NVMe drives, how much of it the GPU's compute hides, and what the host has to hold.
//
// - Optimizer offload, ZeRO-Offload (Ren et al. 2021, arXiv 2101.06840) and ZeRO-Infinity
//   (Rajbhandari et al. 2021, arXiv 2104.07857): the FP32 master weights, the optimizer
//   moments and the FP32 gradients live in host memory (or the moments and master weights on
//   NVMe); each backward moves its 16-bit gradient shard to the host, where it accumulates in
//   FP32 (DeepSpeed runtime/zero/stage_1_and_2.py, cpu_offload); the optimizer step runs on the
//   CPU (DeepSpeed CPU-Adam); the updated 16-bit weights go back to the GPU. The step itself is
//   exposed (no delayed parameter update).
// - Parameter offload (ZeRO-Infinity, DeepSpeed offload_param, ZeRO-3 only): each micro-batch's
//   forward and backward fetch every layer's 16-bit shard from the host (or NVMe) just before
//   the layer's all-gather, prefetched one layer ahead.
// - Activation offload (Megatron-Core --cpu-offloading, TransformerEngine
//   get_cpu_offload_context; ZeRO-R's activation-checkpoint offload, Rajbhandari et al. 2020):
//   a layer's stashed activations go to the host in its forward and come back before its
//   backward.
//
// PCIe is per GPU and per direction; host DRAM and NVMe bandwidth are per node and shared by
// the node's GPUs, which all offload at once.

#include "estimate/Estimate.h"
#include "estimate/MemoryModel.h"
#include "scenario/ResolvedScenario.h"

#include <cstdint>
#include <vector>

namespace ts {

bool anyOffload(const OffloadConfig& offload);

// Per-GPU rates of the offload paths, bytes per second; 0 where the host figure is unknown
// (PlanSupport refuses an offload whose figure is unknown).
struct OffloadLinks {
    double pcie = 0;       // GPU <-> host, per direction (cluster.host.pcie_gb_s)
    double hostMemory = 0; // host DRAM: memory_gb_s / gpus_per_node
    double nvmeRead = 0;   // nvme_read_gb_s / gpus_per_node
    double nvmeWrite = 0;  // nvme_write_gb_s / gpus_per_node
};

// Everything the offload model needs from the scenario, computed once per estimate.
struct OffloadPlan {
    OffloadConfig targets;
    OffloadLinks links;
    int gpusPerNode = 8;
    int zero = 0;
    double weightBytes = 2;        // a 16-bit (FP32 training: 32-bit) weight on the wire
    double gradientBytes = 2;      // a gradient on the wire and in the GPU's reduce buckets
    double hostOptimizerBytes = 0; // FP32 master + moments per parameter, on the host or NVMe
    double cpuStepBytes = 0;       // host DRAM traffic of one optimizer step, per parameter
    double accumulateBytes = 0;    // host DRAM traffic of accumulating one gradient in FP32
};
OffloadPlan offloadPlan(const ResolvedScenario& scenario, const StateBytesPerParam& stateBytes);

// Bytes one GPU moves for one pass of one pipeline chunk.
struct OffloadTraffic {
    double h2d = 0, d2h = 0;            // over PCIe
    double nvmeRead = 0, nvmeWrite = 0; // at the drives
    double hostAccumulate = 0;          // CPU work on host DRAM beside the DMA
};
// Host bounce buffers pipeline the legs: the slowest sets the time. PCIe directions are
// independent; a drive serves reads and writes in turn (their times add); host DRAM carries
// the DMA of both directions and the CPU's gradient accumulation (when its bandwidth is
// known).
double offloadTransferSeconds(const OffloadLinks& links, const OffloadTraffic& traffic);

// One pipeline chunk, one micro-batch.
struct ChunkOffloadInput {
    double layers = 0;         // transformer layers in the chunk
    double paramShard = 0;     // parameters of the chunk this GPU owns (its ZeRO shard)
    double stashBytes = 0;     // activations the chunk stashes for backward (all of them)
    double keptFraction = 1.0; // of stashBytes, what stays on the GPU (activationKeptFraction)
    double forwardCompute = 0; // seconds the transfers can hide behind
    double backwardCompute = 0;
};
struct ChunkOffload {
    OffloadTraffic forward, backward;
    double forwardExposed = 0, backwardExposed = 0; // seconds
};
// Transfers run on the copy engines beside the compute, one layer ahead; the first layer's
// transfer of a pass cannot hide (exposedAfterOverlap with fraction 1 / layers).
ChunkOffload chunkOffload(const OffloadPlan& plan, const ChunkOffloadInput& chunk);

// After the last backward, per GPU: the CPU optimizer step (host-DRAM-bound) pipelined with
// the NVMe swap of the optimizer states, and the updated weights' copy back to the GPU (or to
// NVMe) overlapped with it. `localParams` is the GPU's shard of the stage's parameters.
struct StepOffload {
    double cpuSeconds = 0, nvmeSeconds = 0, paramsSeconds = 0;
    double exposedSeconds = 0;
};
StepOffload stepOffload(const OffloadPlan& plan, double localParams, double stageLayers);

// Activation offload keeps two layers' stash per micro-batch on the GPU (TransformerEngine
// CPU offloading: with num_layers <= model_layers - 2 offloading and reloading fully overlap,
// "at most model_layers - num_layers sets of activations are on GPU"; Megatron-Core's
// cpu_offloading_num_layers is at most num_layers - 1): min(1, 2 / stageLayers).
double activationKeptFraction(int stageLayers);

// One pipeline rank's memory with offload: `gpu` is rewritten (weights to the fetch working
// set, gradients to the reduce buckets, optimizer states gone, activations to the kept
// layers) and the host and NVMe bytes of the GPU are returned.
struct StageOffloadInput {
    double localParams = 0;        // the GPU's shard of the stage's parameters (ZeRO stage)
    double workingParams = 0;      // parameters of the two largest modules fetched at a time
    std::int64_t dpShard = 1;      // GPUs a ZeRO-3 shard is split over (dp x cp)
    double stashPerMicrobatch = 0; // activations per micro-batch of the whole stage
    double microbatchesInFlight = 1;
    int stageLayers = 1;
};
struct HostBytes {
    double host = 0, nvme = 0;
};
HostBytes applyStageOffload(const OffloadPlan& plan, const StageOffloadInput& in,
                            MemoryBreakdown& gpu);

// The busiest node's host and NVMe bytes: GPU ranks are numbered tensor-parallel fastest and
// pipeline slowest, so a node can span pipeline stages. `perStage` is per GPU.
HostMemory hostMemoryPerNode(const ResolvedScenario& scenario,
                             const std::vector<HostBytes>& perStage);

// Warnings naming the assumptions and any host-memory or NVMe overflow.
void addOffloadWarnings(const ResolvedScenario& scenario, const OffloadPlan& plan,
                        Estimate& estimate);

} // namespace ts
