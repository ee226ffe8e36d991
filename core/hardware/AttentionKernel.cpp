#include "hardware/AttentionKernel.h"

#include "hardware/HardwareProfile.h"

#include <algorithm>

namespace ts {

double attentionKernelFactor(Framework framework, GpuGeneration generation) {
    if (framework == Framework::Megatron && generation == GpuGeneration::Hopper)
        return kTeFusedAttentionHopperFactor;
    return 1.0;
}

void applyAttentionKernel(Framework framework, GpuGeneration generation, HardwareProfile& hw) {
    const double factor = attentionKernelFactor(framework, generation);
    hw.attentionForwardEfficiency = std::min(1.0, factor * hw.attentionForwardEfficiency);
    hw.attentionBackwardEfficiency = std::min(1.0, factor * hw.attentionBackwardEfficiency);
}

} // namespace ts
