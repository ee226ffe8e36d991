#pragma once
// Time of one transformer layer (and of the embedding and output layer) for one micro-batch
// on one GPU, split by kind of work, with the tensor-parallel communication it causes.

#include "hardware/HardwareProfile.h"
#include "hardware/KernelTime.h"
#include "parallel/CollectiveCost.h"
#include "scenario/ResolvedScenario.h"

namespace ts {

// Calibration of what the hardware profile does not hold: how much communication an overlap
// hides. An overlapped collective of time c beside compute of time t stays exposed for
// max(f c, c - t): chunked overlap cannot hide its first and last chunk (TransformerEngine
// userbuffers split each TP collective into tp chunks, Wang et al. ASPLOS'23; Megatron's
// DDP reduces its last gradient bucket after the backward ends). The values were calibrated
// once on the published runs (tests/tst_accuracy.cpp), one value for every case.
// A weight-gradient GEMM accumulates into the FP32 main gradient: it reads and writes it,
// 4 + 4 bytes per weight (cuBLAS with beta = 1: Megatron-LM's gradient_accumulation_fusion,
// fused_weight_gradient_mlp_cuda.wgrad_gemm_accum_fp32; TransformerEngine's
// general_gemm(accumulate=True) into main_grad). What bounds the expert GEMMs of small
// micro-batches, whose reduction (tokens per expert) is short.
inline constexpr double kWeightGradientAccumulateBytes = 8.0;
// One FP8 (e4m3 / e5m2) element; a per-tensor scale beside it is negligible.
inline constexpr double kFloat8ElementBytes = 1.0;

struct OverlapModel {
    double tpExposedFraction = 0.15;
    double dpExposedFraction = 0.30;
    // Expert-parallel all-to-alls overlapped with another micro-batch's compute
    // (parallelism.overlap.ep: DeepSeek-V3's DualPipe, arXiv 2412.19437 sec. 3.2.1;
    // Megatron-Core --overlap-moe-expert-parallel-comm, which pairs one micro-batch's forward
    // with another's backward, piece by piece: attention, dispatch, MLP, combine; the first
    // and last pieces cannot be paired, and the all-to-all kernels take SMs from the compute
    // they overlap). Fitted once on the two published A/B runs of the same plan with the
    // overlap off and on (tests/data/published-ep-overlap.json, Megatron-Bridge's skill
    // documents: 16 H100, Qwen3-30B-A3B, EP 16), minimax on their off/on step ratios:
    // 0.15 (TP's value, used before) left the alltoall pair +14.2% and the HybridEP pair 0.0%,
    // 0.35 leaves them +4.8% and -4.0%. The 21 dev runs that set overlap.ep agree (signed
    // median -6.0% -> -1.6%); tst_accuracy epOverlapPairs, docs/execution-model.md.
    double epExposedFraction = 0.35;
    // Slowdown of compute that runs beside an overlapped collective (SMs and HBM shared with
    // the NCCL kernels), as a fraction of the hidden communication time.
    double interference = 0.10;
};

struct PassCost {
    double gemm = 0;        // linear layers
    double attention = 0;   // attention core
    double elementwise = 0; // norms, activation function, residual adds, casts
    // Kernels the host issues for the pass (GEMMs, attention, elementwise, casts and
    // collectives): what the host timeline charges when no CUDA graph captures them
    // (estimate/HostTimeline.h).
    double kernels = 0;
    double compute() const { return gemm + attention + elementwise; }
};

struct LayerCost {
    PassCost forward;
    PassCost backward;
    // Tensor-parallel collectives (seconds, before any overlap) and bytes sent per GPU.
    CollectiveTime tpForward;
    CollectiveTime tpBackward;
    // Context parallelism (estimate/ContextParallel.h, the parallelism.cp_comm variant):
    // exposed seconds (the ring's net of its overlap with the attention steps).
    CollectiveTime cpForward;
    CollectiveTime cpBackward;
    // Expert parallelism (estimate/MoeLayerCost.h): dispatch and combine all-to-alls.
    CollectiveTime epForward;
    CollectiveTime epBackward;
    // The routed-expert part of a MoE layer, from the dispatch to the combine (included in
    // forward and backward above): what per-layer CUDA graphs leave uncaptured and what runs
    // after the alltoall dispatcher's host sync (estimate/HostTimeline.h). Zero for other
    // layers.
    PassCost expertForward;
    PassCost expertBackward;
    // Forward seconds of the modules that selective recompute can name besides the attention
    // core (forward.attention) and the routed experts (expertForward): Megatron-Core
    // --recompute-modules (execution.recompute_modules).
    struct ModuleSeconds {
        double layernorm = 0, mlaUpProj = 0, moeAct = 0, mlp = 0, sharedExperts = 0;
    } modules;
    // Device-to-host syncs per forward pass (the alltoall dispatcher's tokens_per_expert:
    // one per MoE layer; a fraction in a blended layer).
    double hostSyncs = 0;
};

struct EdgeLayerCost {
    PassCost forward;
    PassCost backward;
    CollectiveTime tpForward;
    CollectiveTime tpBackward;
};

struct CostContext {
    const ResolvedScenario& scenario;
    const HardwareProfile& hw;
    const CollectiveCost& collectives;
    // false: the attention scores are materialised (Megatron-LM before flash attention,
    // Narayanan et al. 2021): two batched GEMMs over the full s x s matrix, then a fused
    // scale-mask-softmax and dropout at HBM bandwidth.
    bool flashAttention = true;
    bool dropout = false;
};

LayerCost transformerLayerCost(const CostContext& ctx);

// One micro-batch's attention as the kernel sees it, `headsPerRank` heads of `headDim` on this
// GPU: the whole row of seq_len tokens, causal; or, with training.document_tokens, every packed
// document on its own (variable-length attention over cu_seqlens: cuDNN's THD and
// FlashAttention's varlen kernels tile each sequence apart), micro_batch x seq_len / d
// sequences of d tokens, which computes about d / seq_len of the row's score pairs.
AttentionShape attentionShapeOf(const TrainingConfig& training, double headsPerRank, int headDim);

// Adds `times` repetitions of collective `c` to `into`.
void addCollective(CollectiveTime& into, const CollectiveTime& c, double times = 1.0);
// A transformer layer's tensor-parallel communication on `bytes` = [tokens, h] activations
// (Korthikanti et al. 2022 sec. 4.2.2): with sequence parallelism, forward 2 all-gathers +
// 2 reduce-scatters and backward tensorParallelBackwardGathers all-gathers + 2
// reduce-scatters; without, 2 all-reduces each way. Nothing when tp = 1.
void addLayerTensorParallel(const CostContext& ctx, double bytes, CollectiveTime& forward,
                            CollectiveTime& backward);
// All-gathers of a sequence-parallel layer's backward:
// - Megatron-LM (and TransformerEngine) save each column-parallel linear's input as its
//   sequence shard and gather it again for the weight gradient, beside the gather of the
//   row-parallel output's gradient: 4 (Korthikanti et al. 2022 sec. 4.2.2;
//   megatron/core/tensor_parallel/layers.py LinearWithGradAccumulationAndAsyncCommunication);
// - PyTorch's DTensor (torch.distributed.tensor.parallel SequenceParallel with
//   PrepareModuleInput, torchtitan's parallelize): autograd saves the gathered input of the
//   redistribute, so only the row-parallel outputs' gradients are gathered: 2.
int tensorParallelBackwardGathers(Framework framework);
// Bytes of one sequence-parallel all-gather of `bytes` of activations: a PyTorch-native FP8
// recipe (torchao Float8Linear under torchtitan's tensor parallelism) casts before it gathers,
// the forward's inputs to e4m3 and the backward's gradients to e5m2, one byte per element
// (torchao/float8/float8_tensor_parallel.py at v0.7.0: Float8ColwiseParallel and
// PrepareFloat8ModuleInput cast, then redistribute; NoopFwToFloat8E5M2BwDynamic casts the
// gradient ahead of the redistribute's backward). The reduce-scatters stay 16-bit.
double tensorParallelGatherBytes(const ResolvedScenario& sc, double bytes);
// Collective kernels of addLayerTensorParallel per layer (the host issues each).
struct TensorParallelKernels {
    double forward = 0, backward = 0;
};
TensorParallelKernels tensorParallelKernels(const ParallelConfig& plan, Framework framework);
// The attention core's kernels per pass (estimate/HostTimeline.h), cp ranks in a ring.
void addAttentionKernels(int cp, PassCost& forward, PassCost& backward);
// The input embedding (first stage) and the final norm, output layer and loss (last stage).
EdgeLayerCost embeddingCost(const CostContext& ctx);
EdgeLayerCost outputLayerCost(const CostContext& ctx);

// HBM bytes per MLP-width element of the activation function, forward, 16-bit: GELU reads and
// writes one element (4), SwiGLU reads two and writes one (6).
double activationFunctionBytes(MlpKind mlp);
// Forward seconds of a layer's two norms, reading and writing h each per token (`replicated`:
// 1 / tp of the tokens under sequence parallelism): the layernorm module of selective
// recompute.
double layerNormModuleSeconds(const HardwareProfile& hw, double hidden, double replicated,
                              double tokens);

// Forward seconds that selective recompute runs again in the backward: the modules of
// execution.recompute_modules (["core_attn"] by default: Korthikanti et al. 2022 sec. 4.2).
double selectiveRecomputeSeconds(const ExecutionConfig& execution, const LayerCost& layer);

// Exposed part of a communication of `commSeconds` overlapped with `computeSeconds`.
double exposedAfterOverlap(double commSeconds, double computeSeconds, double exposedFraction);

} // namespace ts
