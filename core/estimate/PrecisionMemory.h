#pragma once
// Memory that low-precision (FP8, MXFP8, NVFP4) training adds to the model states.
//
// What stays in higher precision (TransformerEngine FP8 recipes; Micikevicius et al. 2022,
// "FP8 Formats for Deep Learning", arXiv 2209.05433; DeepSeek-V3 report, arXiv 2412.19437,
// sec. 3.3): the attention core (BF16), norms, embeddings and the output layer, the FP32
// master weights, gradients and optimizer states (estimate/MemoryModel.h counts them as for
// BF16). Only the linear layers' GEMM inputs are cast.
//
// What is added: TransformerEngine casts each linear weight once per optimizer step (the
// first micro-batch) and keeps the cast for the other micro-batches: a row-wise copy for the
// forward and a column-wise (transposed) copy for the backward's input-gradient GEMM.
// - FP8 with per-tensor scaling: 1 + 1 bytes (a few FP32 scales per tensor: negligible);
// - MXFP8 (OCP Microscaling spec v1.0: blocks of 32 with an E8M0 scale): 2 x (1 + 1/32);
// - NVFP4 (NVIDIA, "Pretraining LLMs with NVFP4", arXiv 2509.25149: blocks of 16 with an
//   E4M3 scale, plus a per-tensor FP32 scale): 2 x (0.5 + 1/16).
// ZeRO-3 / FSDP gathers the weights for every use and caches nothing: 0 there.

#include "scenario/Enums.h"

namespace ts {

// Bytes per linear-layer weight held beside the 16-bit weight; 0 for 16/32-bit training.
double lowPrecisionWeightCopyBytes(Precision precision, int zero);

} // namespace ts
