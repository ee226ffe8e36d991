#pragma once
// Kernel time models: a kernel takes the larger of its compute time and its memory time
// (the roofline, Williams et al. 2009), plus a fixed per-kernel overhead.

#include "hardware/HardwareProfile.h"

#include <cstdint>

namespace ts {

// Efficiency of an M x N x K multiply relative to the large-GEMM figure: the best tile's
// tile and wave quantization (NVIDIA "Matrix Multiplication Background User's Guide") times
// a short-reduction factor K / (K + K_half).
double matmulShapeEfficiency(const HardwareProfile& hw, double m, double n, double k);

// Seconds of one [M x K] x [K x N] multiply in `dtype`; inputs of inputBytes per element,
// output of outputBytes per element.
double matmulSeconds(const HardwareProfile& hw, MatmulDtype dtype, double m, double n, double k,
                     double inputBytes = 2.0, double outputBytes = 2.0);

// Flash-style attention (Dao 2022/2023): no s x s matrix in HBM. batchHeads = micro-batch x
// heads on this GPU. With causal masking only the tiles on or below the diagonal are
// computed. Backward = 2.5x the forward matmul work (5 GEMMs against 2, FlashAttention-2
// sec. 3.2). Always in BF16/FP16 (FP8 recipes keep attention in BF16).
struct AttentionShape {
    double batchHeads = 0;
    std::int64_t seqLen = 0;
    int headDim = 0;
    bool causal = true;
};
double attentionFlops(const HardwareProfile& hw, const AttentionShape& shape); // forward, tiled
double attentionForwardSeconds(const HardwareProfile& hw, const AttentionShape& shape);
double attentionBackwardSeconds(const HardwareProfile& hw, const AttentionShape& shape);

// Memory-bound work (norms, activations, residual adds, casts, optimizer): bytes moved over
// the achieved HBM bandwidth, plus `kernels` fixed overheads.
double memoryBoundSeconds(const HardwareProfile& hw, double bytes, int kernels = 1);

} // namespace ts
