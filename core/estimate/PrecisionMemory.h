#pragma once
// Memory and HBM traffic that low-precision (FP8, MXFP8, NVFP4) training adds.
//
// What stays in higher precision (TransformerEngine FP8 recipes; Micikevicius et al. 2022,
// "FP8 Formats for Deep Learning", arXiv 2209.05433; DeepSeek-V3 report, arXiv 2412.19437,
// sec. 3.3): the attention core (BF16), norms, embeddings and the output layer, the FP32
// master weights, gradients and optimizer states (estimate/MemoryModel.h counts them as for
// BF16). Only the linear layers' GEMM inputs are cast.
//
// The FP8 recipes (training.fp8_recipe; Megatron-LM arguments.py --fp8-recipe, choices
// tensorwise | delayed | mxfp8 | blockwise, default delayed; TransformerEngine
// common/recipe: DelayedScaling, Float8CurrentScaling, Float8BlockScaling, MXFP8BlockScaling):
// - "delayed": one FP32 scale per tensor, from the amax history of earlier iterations;
// - "tensorwise": one FP32 scale per tensor from the tensor's own amax (current scaling;
//   torchao float8 dynamic tensorwise);
// - "blockwise": an FP32 scale per 1 x 128 tile of activations and gradients and per
//   128 x 128 block of weights (Float8BlockScaling x/grad_block_scaling_dim = 1,
//   w_block_scaling_dim = 2; DeepSeek-V3 sec. 3.3.1).
// MX scaling (blocks of 32, E8M0 scales) is the precision "mxfp8", not a recipe.
//
// Weights: TransformerEngine casts each linear weight once per optimizer step (the first
// micro-batch) and keeps the cast for the other micro-batches: a row-wise copy for the forward
// and a column-wise (transposed) copy for the backward's input-gradient GEMM.
// - FP8 with per-tensor scaling: 1 + 1 bytes (a few FP32 scales per tensor: negligible);
// - FP8 blockwise: 2 x (1 + 4 / (128 x 128)): an FP32 scale per 128 x 128 block of each copy
//   (TransformerEngine "FP8 Blockwise Scaling" docs: the 2D scales transpose with the data);
// - MXFP8 (OCP Microscaling spec v1.0: blocks of 32 with an E8M0 scale): 2 x (1 + 1/32);
// - NVFP4 (NVIDIA, "Pretraining LLMs with NVFP4", arXiv 2509.25149: blocks of 16 with an
//   E4M3 scale, plus a per-tensor FP32 scale): 2 x (0.5 + 1/16).
// ZeRO-3 / FSDP gathers the weights for every use and caches nothing: 0 there. A
// PyTorch-native loop (execution.framework "pytorch": torchtitan's torchao Float8Linear with
// dynamic scaling) casts each weight at each use and keeps no cast: 0 there too.
//
// Saved activations stay counted at 16 bits (estimate/MemoryModel.h), which bounds the FP8
// copy a recipe may save instead, with its 1 x 128 scales (1 + 4/128 bytes): no separate term.

#include "common/Message.h"
#include "scenario/PlanConfig.h"

#include <optional>
#include <string>

namespace ts {

struct GpuSpec;

// Bytes per linear-layer weight held beside the 16-bit weight; 0 for 16/32-bit training.
// `blackwell`: FP8 GEMMs take either operand layout there, so Transformer Engine keeps no
// transpose for per-tensor FP8 (1 byte, not 2); MXFP8 and NVFP4 scale along one axis and keep
// both copies everywhere (docs/gpt-oss-keys-sources.md, "FP8 weight cache": TE v2.8
// module/base.py get_weight_workspace, Float8Quantizer columnwise usage on sm100).
double lowPrecisionWeightCopyBytes(const TrainingConfig& training, int zero, Framework framework,
                                   bool blackwell = false);
// Without the cache (execution.fp8_weight_cache false: Megatron's
// disable_parameter_transpose_cache, TE's is_first_microbatch = None), each micro-batch
// quantizes its weights afresh and autograd keeps the backward's copy (the column-wise one)
// until that micro-batch's backward: these bytes per weight and micro-batch in flight.
double lowPrecisionSavedWeightBytes(const TrainingConfig& training, int zero, Framework framework,
                                    bool blackwell = false);

// What a cast reads and writes: activations and gradients are scaled per 1 x 128 tile under
// "blockwise", weights per 128 x 128 block.
enum class CastOperand { Activation, Weight };

// HBM bytes per element of casting one 16-bit GEMM input (FP8, MXFP8, NVFP4 training): read 2
// bytes, write the row-wise and the column-wise (transposed) low-precision copy, with their
// scales; "tensorwise" reads the input once more for its amax (TransformerEngine "FP8
// Current Scaling" docs: "requires reading the tensor twice"). 0 for 16/32-bit training.
// - delayed 2 + 1 + 1 = 4 (the scale is known before the pass: one fused pass);
// - tensorwise 2 + 2 + 1 + 1 = 6;
// - blockwise 2 + 2 x (1 + 4/128) for activations, 2 + 2 x (1 + 4/128^2) for weights (one pass
//   finds each block's amax in registers, then scales and casts it);
// - MXFP8: 4, as the published MXFP8 runs were calibrated with (its 1/32 block scales are not
//   counted; one pass finds each block's power-of-two scale in registers);
// - NVFP4: 2 + 2 + 0.5 + 0.5 + 2 x 1/16 = 5.125. NVFP4 scales at two levels, an FP8 E4M3 scale
//   per 16 values under one FP32 scale per tensor that comes from the whole tensor's amax
//   (NVIDIA, "Pretraining Large Language Models with NVFP4", arXiv 2509.25149, sec. 2; Transformer
//   Engine's NVFP4Quantizer computes that amax first, with_amax_reduction / with_post_rht_amax),
//   so the input is read twice, as under "tensorwise"; each E2M1 value is half a byte.
double fp8CastBytesPerElement(const TrainingConfig& training, CastOperand operand);
// Kernels per cast: 2 under "tensorwise" and NVFP4 (an amax reduction, then scale and cast),
// else 1.
int fp8CastPasses(const TrainingConfig& training);

// The estimate's warning naming the FP8 recipe and what the model assumes for it; nothing
// unless precision is "fp8".
std::optional<Message> fp8RecipeWarning(const TrainingConfig& training, const GpuSpec& gpu);

} // namespace ts
