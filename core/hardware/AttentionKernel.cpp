#include "hardware/AttentionKernel.h"

#include "hardware/HardwareProfile.h"

#include <algorithm>

namespace ts {

namespace {

// Fused kernels with attention sinks (a learnable softmax offset per head): cuDNN's SDPA on
// Hopper and Blackwell (KernelSinks below); FlashAttention-2/3 as Transformer Engine and
// PyTorch's SDPA call them take no sink.
bool cudnnRunsSinks(GpuGeneration g) {
    return g == GpuGeneration::Hopper || g == GpuGeneration::Blackwell;
}

bool cudnnFusedAttention(GpuGeneration g) {
    return g == GpuGeneration::Ampere || g == GpuGeneration::Ada || g == GpuGeneration::Hopper ||
           g == GpuGeneration::Blackwell;
}

} // namespace

AttentionBackend resolvedAttentionBackend(AttentionBackend stated, Framework framework,
                                          GpuGeneration generation, bool attentionSinks) {
    if (stated != AttentionBackend::Auto)
        return stated;
    if (framework == Framework::Megatron) {
        // Transformer Engine prefers FusedAttention (cuDNN) on Hopper and Blackwell, and falls
        // back to the unfused DotProductAttention where neither fused backend takes the sink.
        if (attentionSinks)
            return cudnnRunsSinks(generation) ? AttentionBackend::Cudnn : AttentionBackend::Unfused;
        return cudnnFusedAttention(generation) && generation != GpuGeneration::Ampere
                   ? AttentionBackend::Cudnn
                   : AttentionBackend::Flash;
    }
    // PyTorch's scaled_dot_product_attention: the flash kernel, which takes no sink (torchtitan
    // and Hugging Face then run the eager softmax).
    return attentionSinks ? AttentionBackend::Unfused : AttentionBackend::Flash;
}

std::string attentionBackendProblem(AttentionBackend stated, GpuGeneration generation,
                                    bool attentionSinks) {
    if (stated == AttentionBackend::Flash && attentionSinks)
        return "\"flash\" takes no attention sinks (FlashAttention-2/3 have no learnable softmax "
               "offset): choose \"cudnn\" (Hopper, Blackwell) or \"unfused\"";
    if (stated == AttentionBackend::Cudnn && attentionSinks && !cudnnRunsSinks(generation) &&
        generation != GpuGeneration::Unknown)
        return std::string("\"cudnn\" runs attention sinks on Hopper and Blackwell only, not on ") +
               gpuGenerationName(generation) + ": choose \"unfused\"";
    if (stated == AttentionBackend::Cudnn && !cudnnFusedAttention(generation) &&
        generation != GpuGeneration::Unknown)
        return std::string("cuDNN fused attention needs Ampere or newer, not ") +
               gpuGenerationName(generation) + ": choose \"flash\" or \"unfused\"";
    return {};
}

double attentionKernelFactor(AttentionBackend backend, GpuGeneration generation) {
    if (backend == AttentionBackend::Cudnn && generation == GpuGeneration::Hopper)
        return kTeFusedAttentionHopperFactor;
    return 1.0;
}

void applyAttentionKernel(AttentionBackend backend, GpuGeneration generation, HardwareProfile& hw) {
    const double factor = attentionKernelFactor(backend, generation);
    hw.attentionForwardEfficiency = std::min(1.0, factor * hw.attentionForwardEfficiency);
    hw.attentionBackwardEfficiency = std::min(1.0, factor * hw.attentionBackwardEfficiency);
}

} // namespace ts
