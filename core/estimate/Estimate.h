#pragma once
// One estimate of one plan: the fields of "trainscape.estimate/1"
// (shared/spec/scenario-format.md), plus per-stage detail and the schedule timeline that
// the GUI draws. Values the model cannot compute yet are std::nullopt, never invented.

#include "common/Message.h"
#include "energy/EnergyReport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

struct MemoryBreakdown {
    double weights = 0; // bytes
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double commBuffers = 0;
    double framework = 0;
    // Of `weights`: the frozen base of LoRA / QLoRA (the rest are the adapters).
    double frozenWeights = 0;
    double total() const {
        return weights + gradients + optimizer + activations + commBuffers + framework;
    }
};

struct StageMemory {
    int stage = 0;
    MemoryBreakdown bytes; // sums to the device's use (peak_bytes)
    // What PyTorch would report (estimate/AllocatorMemory.h): max_memory_allocated and
    // max_memory_reserved.
    double allocatedBytes = 0;
    double reservedBytes = 0;
};

// Host DRAM and NVMe that offloaded states need on the busiest node (parallelism.offload;
// estimate/Offload.h). GPU memory and `fits` do not count them.
struct HostMemory {
    double bytesPerNode = 0;
    std::optional<double> capacityBytes; // cluster.host.memory_gib; nullopt = unknown
    double nvmeBytesPerNode = 0;
    std::optional<double> nvmeCapacityBytes; // cluster.host.nvme_gib; nullopt = unknown
};

// Seconds per optimizer step; the parts sum to Estimate::stepSeconds.
struct TimeBreakdown {
    double compute = 0;
    double recompute = 0;
    double tpExposed = 0;
    double cpExposed = 0;
    double epExposed = 0;
    double ppExposed = 0;
    double pipelineBubble = 0;
    double dpExposed = 0;
    double optimizer = 0;
    double offloadExposed = 0;
    double sum() const {
        return compute + recompute + tpExposed + cpExposed + epExposed + ppExposed +
               pipelineBubble + dpExposed + optimizer + offloadExposed;
    }
};

// Bytes per GPU per step, by parallel dimension.
struct CommBytesByDimension {
    double tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
};

// Bytes per step over the whole cluster, by link class.
struct CommBytesByLink {
    double scaleUp = 0, scaleOut = 0;
};

enum class TimelineOp {
    Forward,
    Backward,
    BackwardInput,
    BackwardWeight,
    Communication,
    Optimizer
};

// One operation of the pipeline schedule simulation (for the Gantt chart).
struct TimelineEvent {
    int stage = 0;      // pipeline rank
    int microbatch = 0; // -1 for per-step operations (optimizer, gradient reduction)
    int chunk = 0;      // virtual pipeline chunk
    TimelineOp op = TimelineOp::Forward;
    double startS = 0;
    double endS = 0;
};

// Per pipeline rank: one micro-batch's forward and backward time (all its chunks) and the
// rank's busy and finish times in the step.
struct StageTime {
    int stage = 0;
    double forwardSeconds = 0;
    double backwardSeconds = 0;
    double busySeconds = 0;
    double endSeconds = 0; // including its gradient reduction and optimizer step
};

// How far off the step time may be: the interval of relative error (predicted / measured - 1)
// that held for 80% of the published runs most like this scenario, how many there were, and
// what made them alike (core/accuracy/ErrorBand.h). The estimator leaves it empty; the CLI and
// the GUI attach it from the residual table generated at build time (tools/errorband).
struct ExpectedError {
    double low = 0;  // e.g. -0.08
    double high = 0; // e.g. +0.05
    int cases = 0;
    std::string basis;
    bool operator==(const ExpectedError&) const = default;
};

// Heterogeneous clusters (core/hetero): memory of one pool's worst GPU.
struct PoolMemory {
    std::string pool;
    double peakBytes = 0;
    double capacityBytes = 0;
    bool fits = false;
};

// Heterogeneous clusters: what sets the step (indices into parallelism.pipelines and its
// stages, and the pool the stage sits on).
struct Straggler {
    int pipeline = 0;
    int stage = 0;
    std::string pool;
};

// Heterogeneous clusters (shared/spec/scenario-format.md, "Heterogeneous clusters"): what only
// a plan over pools reports.
struct HeteroReport {
    std::vector<PoolMemory> perPool;
    std::vector<double> perPipelineSeconds; // each entry's forward-backward before the reduction
    Straggler straggler;
    std::int64_t usedGpus = 0;
    std::int64_t unusedGpus = 0;
};

struct Estimate {
    // Memory of the worst GPU (pipeline stage).
    bool fits = false;
    double capacityBytes = 0;
    double peakBytes = 0;
    int peakStage = 0;
    // Of the peak stage: PyTorch's max_memory_allocated and max_memory_reserved.
    double peakAllocatedBytes = 0;
    double peakReservedBytes = 0;
    // torch.cuda.memory_stats()["active_bytes.all.peak"] (the spec's memory.peak_active_bytes):
    // the blocks in use, each rounded as the caching allocator serves it, plus freed blocks a
    // side stream has still to release (record_stream). The allocated figure above already
    // counts whole blocks (allocated_bytes counts block->size, CUDACachingAllocator.cpp), and
    // the recipes estimated hand buffers between streams with events, not record_stream
    // (FSDP2 fully_shard; Megatron-LM's DDP buckets), so the two peaks coincide here.
    double peakActiveBytes = 0;
    MemoryBreakdown peakBreakdown;
    std::vector<StageMemory> stages;
    std::optional<HostMemory> hostMemory; // nullopt when nothing is offloaded

    double stepSeconds = 0;
    TimeBreakdown time;
    std::optional<ExpectedError> expectedError; // nullopt: none attached, or no similar run
    // memory.expected_error (project key): the same for the peak memory, from the published
    // memory figures (tools/errorband, accuracy/ErrorBand.h memoryErrorBandRule).
    std::optional<ExpectedError> memoryExpectedError;
    // Of time.compute + time.recompute: the elementwise (HBM-bound) work, for the power model.
    double memoryBoundComputeSeconds = 0;

    double tokensPerS = 0;
    double tokensPerSPerGpu = 0;
    double modelTflopsPerGpu = 0; // 6*N*tokens (+ attention), no recompute
    double mfu = 0;               // modelTflopsPerGpu / the precision's dense peak

    CommBytesByDimension commBytesPerGpu;
    CommBytesByLink commBytesByLink;

    std::optional<double> stepJoules;
    std::optional<double> avgPowerW;
    std::optional<double> trainKwh;
    std::optional<double> trainCo2Kg;
    std::optional<double> trainUsd;
    std::optional<double> usdPerMillionTokens;
    std::optional<double> trainSteps;
    std::optional<double> trainDays;
    // Energy by consumer, GPU power by phase, a power trace of one step (core/energy).
    std::optional<EnergyReport> energyReport;

    std::vector<StageTime> stageTimes;
    int breakdownStage = 0; // the bottleneck rank that TimeBreakdown describes
    std::int64_t microbatches = 0;

    // The schedule simulation. It covers `timelineMicrobatches` micro-batches; when that is
    // fewer than `microbatches`, the simulation stopped in the schedule's periodic steady
    // state and the step time follows exactly from it (PipelineSchedule.h); set
    // EstimatorSettings::maxScheduleEvents higher for a timeline of every micro-batch.
    std::vector<TimelineEvent> timeline;
    std::int64_t timelineMicrobatches = 0;

    // What the estimate assumed or could not model, each with its id (common/Message.h).
    std::vector<Message> warnings;

    // A plan over cluster.pools (core/hetero); nullopt for one uniform cluster.
    std::optional<HeteroReport> hetero;
};

} // namespace ts
