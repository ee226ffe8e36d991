#pragma once
// The routed-expert part of a MoE layer for one micro-batch on one GPU, from the dispatch to
// the combine, as the framework executes it (the scenario's "execution" keys,
// scenario/ExecutionConfig.h; Megatron-Core token dispatchers and expert MLPs):
//
// - Dispatcher (execution.moe_dispatcher):
//   - "alltoall" (MoEAlltoAllTokenDispatcher): permutes the tokens by expert, sends one copy
//     per selected expert to the rank holding it in one NCCL all-to-all over the EP group, then
//     sorts the received chunks by local expert (sort_chunks_by_idxs), and reverses both around
//     the combine; it syncs the host for the split sizes (estimate/HostTimeline.h).
//   - "deepep" / "hybridep" (the flex dispatcher): one copy per distinct destination rank,
//     over the network once per domain and forwarded over NVLink (estimate/MoeLayerCost.h
//     expertAllToAll), with the permute fused into the dispatch kernels. DeepEP's normal
//     dispatch makes the CPU wait for the received-token count; HybridEP does unless given a
//     static token budget, as a full-iteration CUDA graph needs (dispatchHostSyncs).
//   - "allgather" (MoEAllGatherTokenDispatcher): every rank gathers the EP group's tokens and
//     keeps those of its experts; the combine reduce-scatters the outputs back.
// - Expert GEMMs (execution.moe_grouped_gemm), tokens per local expert as M:
//   - "per-expert": one GEMM per local expert, each with its own tile and wave quantization;
//   - "grouped": TransformerEngine GroupedLinear, one cuBLAS GEMM per expert on several
//     streams (general_grouped_gemm): the union of the experts' tiles on the GPU, one kernel
//     per expert for the host, FP8 casts per expert;
//   - "fused": a fused grouped expert MLP (one kernel per GEMM over all experts, the casts and
//     the activation fused into it).
//   Weight gradients accumulate in FP32 per local expert.

#include "estimate/LayerCost.h"

namespace ts {

// 16-bit HBM passes over every routed token copy per MoE layer outside the expert GEMMs, by
// the dispatch, unpermute and combine and their gradients with the flex dispatchers (counted
// in estimate/RoutedExperts.cpp; the alltoall dispatcher adds its permute and chunk sort).
inline constexpr double kRoutedCopyForwardPasses = 6.0;
inline constexpr double kRoutedCopyBackwardPasses = 8.0;

struct RoutedExpertsInput {
    double tokens = 0;       // this rank's tokens per micro-batch (seq x mb / cp)
    double imbalance = 1;    // the busiest rank's load over the mean (capacity factor applied)
    double routedTokens = 0; // token copies the busiest rank's experts compute
};

// Adds the routed experts' forward and backward work, kernels, EP communication and host
// syncs to `out` (into forward/backward and expertForward/expertBackward alike).
void addRoutedExperts(const CostContext& ctx, const RoutedExpertsInput& in, LayerCost& out);

} // namespace ts
