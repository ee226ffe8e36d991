#pragma once
// GPU architecture generations, read from a GPU's catalog id and name: what changes the
// kernels, the precisions and the interconnect that the model must get right (the error band's
// similarity, accuracy/ErrorBand.h; the attention kernel a framework runs, AttentionKernel.h).

#include <string_view>

namespace ts {

enum class GpuGeneration { Unknown, Volta, Turing, Ampere, Ada, Hopper, Blackwell, Cdna, Gaudi };

// The generation of a GPU named by its catalog id and name ("h100-sxm-80gb", "NVIDIA H100 SXM5
// 80GB", "H100 SXM 96GB HBM2e ..."): Unknown when neither names a known part.
GpuGeneration gpuGeneration(std::string_view gpuId, std::string_view gpuName);
const char* gpuGenerationName(GpuGeneration generation);

} // namespace ts
