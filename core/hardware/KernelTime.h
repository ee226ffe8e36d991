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
// sec. 3.2). Always in BF16/FP16 (execution.fp8_attention is read but not modelled: the
// published 26.06 runs that set it do not show the kernels' FP8 gain; docs/execution-model.md).
// Each pass also computes one softmax exponential per score (the backward recomputes
// P = exp(S - L), FlashAttention-2 Algorithm 2) on the special function units, whose
// throughput did not grow with the tensor cores': H100 989 TFLOP/s of BF16 matmul against
// 3.9 T exponentials/s (FlashAttention-3, Shah et al. 2024, sec. 3.1); B200 doubled the tensor
// cores and kept the exponential units (FlashAttention-4, Zadouri et al. 2026, abstract);
// Blackwell Ultra (B300, GB300) doubled the SFU throughput again (NVIDIA Technical Blog,
// "Making Softmax More Efficient with NVIDIA Blackwell Ultra"). The exponentials are counted
// as exposed: on GB200 the second matmul waits for the softmax (same blog). So attention
// slows per FLOP at smaller head dims (fewer FLOPs per score) and on B200 / GB200.
struct AttentionShape {
    double batchHeads = 0;
    std::int64_t seqLen = 0;
    int headDim = 0;
    bool causal = true;
    // Sliding window (tokens a query attends to, itself included; 0 = none): the kernel skips
    // the tiles wholly outside the band (FlashAttention-2 `window_size`, flash_fwd_kernel.h
    // n_block_min; cuDNN's sliding_window_length), so it computes the diagonal band's tiles.
    std::int64_t window = 0;
};
double attentionFlops(const HardwareProfile& hw, const AttentionShape& shape); // forward, tiled
double attentionForwardSeconds(const HardwareProfile& hw, const AttentionShape& shape);
double attentionBackwardSeconds(const HardwareProfile& hw, const AttentionShape& shape);

// Memory-bound work (norms, activations, residual adds, casts, optimizer): bytes moved over
// the achieved HBM bandwidth, plus `kernels` fixed overheads.
double memoryBoundSeconds(const HardwareProfile& hw, double bytes, int kernels = 1);

} // namespace ts
