#pragma once
// Time that fine-tuning adds to a transformer layer and to the output layer, per micro-batch
// (LayerCost.cpp drops the frozen base's weight-gradient GEMMs itself):
// - LoRA adapters (Hu et al. 2021): two rank-r GEMMs per wrapped module and pass. Their FLOPs
//   are 2 r (in + out) per token, ~1% of the base's at r = 16, but the GEMMs are thin
//   (N = r) and bound by HBM: each reads the module input, writes and reads the rank-r
//   product and adds into the output. The backward moves about twice the forward's bytes.
// - A quantised base (NF4, INT8, FP8) is dequantised to 16 bits before each use: the forward,
//   the input-gradient GEMM of the backward, and a recomputed forward (QLoRA sec. 3: "we
//   dequantize the storage data type to the computation data type"; bitsandbytes and torchao
//   NF4 dequantise the whole weight per call): read the stored bytes, write 2 per weight.

#include "estimate/LayerCost.h"

namespace ts {

// `tokens` is the micro-batch's tokens on this GPU (the GEMM M dimension).
void addFinetuneLayerWork(const CostContext& ctx, double tokens, PassCost& forward,
                          PassCost& backward);
void addFinetuneOutputWork(const CostContext& ctx, double tokens, PassCost& forward,
                           PassCost& backward);

} // namespace ts
