#pragma once
// The activation memory of selective recompute with execution.recompute_modules (Megatron-Core
// --recompute-modules; megatron/core/transformer/transformer_layer.py and moe/moe_layer.py run
// each listed module under CheckpointWithoutOutput or tensor_parallel.checkpoint, so what the
// module computed inside is freed after the forward and rebuilt in the backward; its input stays
// stored). Per token of one layer on one GPU, in bytes, on the layer accounting of
// estimate/MemoryModel.h (16-bit activations; the tensor-parallel shard, /t under SP for the
// replicated terms):
// - core_attn: the attention core's s x s terms (Korthikanti et al. 2022, sec. 4.2; none with
//   flash attention);
// - layernorm: the two norms' outputs, which are the QKV and MLP linears' inputs (2h each);
// - mla_up_proj: MLA's up-projected Q, K and V, rebuilt from the kept latents (as the layer
//   accounting stores them: Q, K and V of (d_qk + d_v) / 2 per head, 2 bytes each);
// - moe_act: the routed experts' activation output, the second expert GEMM's input (2 effn per
//   routed copy);
// - moe: the routed experts' internals (SwiGLU: gate and up outputs and the down input, 6 effn
//   per copy; GELU 4 effn) and the dispatched copies (2h each);
// - shared_experts: the shared experts' internals, as the routed ones;
// - mlp: a dense MLP's internals (SwiGLU 6 ffn, GELU 4 ffn).
// A module the layer does not have frees nothing. The layer keeps at least its input (what full
// recompute keeps).

#include "estimate/MemoryModel.h"
#include "scenario/ExecutionConfig.h"

#include <vector>

namespace ts {

struct RecomputedLayer {
    const ModelConfig& model;     // the model (its MoE and MLA sections)
    const ModelConfig& accounted; // the dense layer its activations are counted on
    const ActivationLayout& layout;
    const ActivationAssumptions& assumptions;
    double imbalance = 1.0; // routed copies on the busiest rank over the mean
    // The layer's stored bytes with nothing recomputed, and with the attention core recomputed
    // (Korthikanti's selective recompute), for one micro-batch.
    double none = 0, coreAttention = 0, full = 0;
};

// Stored activation bytes of one layer for one micro-batch when `modules` are recomputed.
double recomputeModulesActivationBytes(const RecomputedLayer& layer,
                                       const std::vector<RecomputeModule>& modules);

} // namespace ts
