#pragma once
// The host timeline of one layer's pass (issue 16, "A host timeline per layer"): the CPU
// issues the pass's kernels one by one while the GPU runs them. Where the CPU is slower than
// the GPU, the GPU waits for its kernels: the pass takes the larger of the two. A
// device-to-host sync (the alltoall dispatcher copies tokens_per_expert to the host before
// it can size its all-to-all and the grouped GEMM's splits: Megatron-LM issue 1598, PR 3496)
// drains the GPU's queue: the host cannot run ahead across it, so the part before it and the
// part after it each take their own larger of host and GPU, plus the sync's round trip.
//
// CUDA graphs replay captured kernels with one launch (NVIDIA, "Getting Started with CUDA
// Graphs", 2019): "full" (the whole iteration captured; Megatron-Core --cuda-graph-impl
// full_iteration) leaves no per-kernel host cost and no sync; "layers" (per-layer scopes:
// --cuda-graph-scope attn, moe_router, moe_preprocess) captures all but the routed experts,
// whose token counts change every step.

#include "estimate/LayerCost.h"
#include "scenario/ExecutionConfig.h"

namespace ts {

// Round trip of one device-to-host sync on an empty queue: the small D2H copy, the stream
// synchronisation and the first kernel issued after it reaching the GPU (CUDA runtime
// launch-to-start and synchronisation latencies are 5-10 us each on current drivers,
// NVIDIA "CUDA C++ Best Practices Guide", sec. "Asynchronous and Overlapping Transfers"; the
// Python side adds the tensor's .tolist()).
inline constexpr double kHostSyncDrainUs = 20.0;

// One pass of one layer on the GPU: the whole pass and its routed-expert part (seconds,
// compute plus the communication on the same stream), and their kernels.
struct PassTimelineInput {
    double gpuSeconds = 0;
    double expertGpuSeconds = 0;
    double kernels = 0;
    double expertKernels = 0;
    double syncs = 0; // device-to-host syncs in the pass, before its routed-expert part
};

// Seconds the host adds to the pass beyond its GPU time (>= 0).
double hostExposedSeconds(const ExecutionConfig& execution, const PassTimelineInput& pass);

} // namespace ts
