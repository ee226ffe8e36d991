#pragma once
// What an eager PyTorch model moves through HBM beyond the fused kernels the layer costs assume
// (estimate/LayerCost.cpp: one pass in and out per norm, RoPE inside the attention kernels,
// SwiGLU reading two inputs and writing one). A PyTorch-native recipe without torch.compile
// (execution.framework "pytorch", training.compile false) runs each operator of the model's
// Python code as its own kernel, every one reading its inputs from and writing its output to
// HBM, and autograd runs each one's backward the same way. torch.compile fuses them (Inductor's
// pointwise and reduction fusion), as do Megatron-LM and TransformerEngine by hand.
//
// Counted per element, forward and backward, from the operators of torchtitan's Llama at the
// 2024-12 benchmark (torchtitan/models/norms.py RMSNorm, torchtitan/models/llama/model.py
// apply_rotary_emb, repeat_kv, FeedForward; torchtune's modules run the same operators):
// - RMSNorm `(x.float() * rsqrt(x.float().pow(2).mean(-1) + eps)).type_as(x) * weight`:
//   cast 2 + 4, pow 4 + 4, mean 4, scale 4 + 4, cast back 4 + 2, weight 2 + 2 = 36 bytes
//   forward against the fused 4; backward, the seven operators' gradients and the two FP32
//   gradients summed into x's, about 56 against the fused 8.
// - RoPE on q and k `view_as_real(view_as_complex(x.float()) * freqs).type_as(x)`: cast 2 + 4,
//   complex multiply 4 + 4, cast back 4 + 2 = 20 bytes each way (the fused rotation rides in
//   the attention's input read).
// - SwiGLU `silu(w1 x) * w3 x`: silu 2 + 2, multiply 4 + 2 = 10 bytes per MLP element against
//   the fused 6; backward multiply 2 x (4 + 2) and silu 4 + 2 = 18 against 12.
// - The attention output's `transpose(1, 2).contiguous()`: 2 + 2 per query element each way;
//   grouped-query attention's repeat_kv expands K and V to every head (`expand` + `reshape`
//   copies): read 2 per KV element, write 2 per query element, for K and V, each way.
// The kernels themselves are not added to the host timeline: a bare ATen operator costs the
// host about 13.5 us (TransformerEngine issue 2053, torch.nn.Linear on an x86 DGX H100),
// beside GPU passes of milliseconds on the models these recipes train.

#include "scenario/ResolvedScenario.h"

namespace ts {

// HBM bytes per token an eager model moves beyond the fused kernels.
struct EagerBytes {
    double forward = 0, backward = 0;
};

// Whether the scenario runs eager PyTorch modules: a PyTorch-native recipe that states
// training.compile false. Unstated, the fused kernels stand (the published PyTorch-native
// performance runs compile: torchtitan's benchmarks; scenario/PlanConfig.h).
bool eagerPytorchModules(const ResolvedScenario& sc);

// One transformer layer's norms, RoPE, attention output copy and KV expansion, on one GPU:
// `normTokens` the share of the tokens its norms see (1/tp under sequence parallelism), `q`
// and `kv` the query and key widths on this GPU. 0 unless eagerPytorchModules.
EagerBytes eagerAttentionBytes(const ResolvedScenario& sc, double normTokens, double q, double kv);

// An MLP's activation function on `width` elements per token (SwiGLU's gate and product; GELU
// runs as one kernel either way). 0 unless eagerPytorchModules.
EagerBytes eagerActivationBytes(const ResolvedScenario& sc, double width);

} // namespace ts
