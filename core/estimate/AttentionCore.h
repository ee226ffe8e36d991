#pragma once
// The attention core of one layer (scores, softmax and weighted sum) for one micro-batch on one
// GPU, as the resolved backend runs it (estimate/AttentionBackend.h): a fused kernel (flash or
// cuDNN: tiles in SRAM, context parallelism by parallelism.cp_comm) or the unfused path that
// materialises the scores. With a sliding window on some layers (model.window_layers) the
// windowed and the full layers are averaged by their share, as the layer cost is per layer.

#include "estimate/ContextParallel.h"
#include "estimate/LayerCost.h"

namespace ts {

struct AttentionCoreInput {
    AttentionShape shape; // one micro-batch on this GPU, full causal (attentionShapeOf)
    AttentionTokenBytes tokenBytes;
    MatmulDtype dtype = MatmulDtype::Bf16; // of the unfused path's batched GEMMs
};

struct AttentionCoreCost {
    PassCost forward; // attention seconds and kernels only
    PassCost backward;
    CollectiveTime cpForward; // exposed context-parallel communication
    CollectiveTime cpBackward;
};

AttentionCoreCost attentionCoreCost(const CostContext& ctx, const AttentionCoreInput& in);

} // namespace ts
