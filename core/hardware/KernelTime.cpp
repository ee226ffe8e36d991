#include "hardware/KernelTime.h"

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

double quantizationEfficiency(const GemmTile& tile, int smCount, double m, double n) {
    const double tilesM = std::ceil(m / tile.m);
    const double tilesN = std::ceil(n / tile.n);
    // Tile quantization: the padded part of the edge tiles is computed and thrown away.
    const double tileEff = (m * n) / (tilesM * tile.m * tilesN * tile.n);
    double waveEff = 1.0;
    if (smCount > 0) {
        // Wave quantization: the last wave of tiles leaves SMs idle.
        const double tiles = tilesM * tilesN;
        const double waves = std::ceil(tiles / smCount);
        waveEff = tiles / (waves * smCount);
    }
    return tile.efficiency * tileEff * waveEff;
}

} // namespace

double matmulShapeEfficiency(const HardwareProfile& hw, double m, double n, double k) {
    if (m <= 0 || n <= 0 || k <= 0)
        return 1.0;
    double best = 0;
    for (const GemmTile& tile : hw.tiles)
        best = std::max(best, quantizationEfficiency(tile, hw.smCount, m, n));
    // Normalise so that a large, perfectly divisible GEMM on the best tile scores 1.
    const double reduction = k / (k + hw.gemmHalfEfficiencyK);
    const double reductionRef = 8192.0 / (8192.0 + hw.gemmHalfEfficiencyK);
    return std::min(1.0, best * reduction / reductionRef);
}

double matmulSeconds(const HardwareProfile& hw, MatmulDtype dtype, double m, double n, double k,
                     double inputBytes, double outputBytes) {
    if (m <= 0 || n <= 0 || k <= 0)
        return 0.0;
    const MatmulProfile& mp = hw.forDtype(dtype);
    const double flops = 2.0 * m * n * k;
    const double sizeEff =
        hw.gemmHalfEfficiencyFlops > 0 ? flops / (flops + hw.gemmHalfEfficiencyFlops) : 1.0;
    double eff =
        mp.efficiency * hw.sustainedMatmulFraction * sizeEff * matmulShapeEfficiency(hw, m, n, k);
    if (hw.measured)
        if (auto measured = hw.measured->matmulEfficiency(hw, dtype, m, n, k))
            eff = *measured * hw.sustainedMatmulFraction;
    const double compute = flops / (mp.peakTflops * 1e12 * eff);
    const double bytes = (m * k + k * n) * inputBytes + m * n * outputBytes;
    const double memory = bytes / (hw.hbmGBps * 1e9 * hw.hbmEfficiency);
    return std::max(compute, memory) + hw.kernelOverheadUs * 1e-6;
}

namespace {

// Query-key pairs the kernel computes: with causal masking, the tiles on or below the
// diagonal, nb (nb + 1) / 2 of nb^2 blocks; with a sliding window of w tokens, query block i
// also skips the key blocks before i - ceil((w - 1) / B), so it computes min(i, wb) + 1.
double attentionPairs(const HardwareProfile& hw, const AttentionShape& a) {
    const double s = static_cast<double>(a.seqLen);
    if (!a.causal)
        return s * s;
    const double blocks = std::ceil(s / hw.attentionBlock);
    if (a.window <= 0 || a.window >= a.seqLen)
        return s * s * (blocks + 1.0) / (2.0 * blocks);
    const double wb = std::ceil(double(a.window - 1) / hw.attentionBlock);
    // Sum over i = 0 .. nb - 1 of min(i, wb) + 1: the ramp up to wb, then wb + 1 per block.
    const double ramp = std::min(blocks, wb + 1.0);
    const double computed = ramp * (ramp + 1.0) / 2.0 + (blocks - ramp) * (wb + 1.0);
    return s * s * computed / (blocks * blocks);
}

// One pass of the modelled kernel (KernelTime.h): `matmulFactor` times the forward's matmul
// FLOPs at `efficiency` of the BF16 peak, plus one exposed exponential per computed score.
double modelledAttentionSeconds(const HardwareProfile& hw, const AttentionShape& a,
                                double matmulFactor, double efficiency) {
    const double matmul = matmulFactor * attentionFlops(hw, a);
    const double scores = attentionPairs(hw, a) * a.batchHeads;
    const double exponentials =
        hw.exponentialsPerSecond > 0 ? scores / hw.exponentialsPerSecond : 0.0;
    return matmul / (hw.bf16PeakTflops() * 1e12 * efficiency) + exponentials;
}

// FLOPs of the forward pass as FlashAttention-2 counts them for its TFLOP/s (causal = half):
// the convention of measured attention throughput (MeasuredKernels::attentionTflops).
double flashConventionFlops(const AttentionShape& a) {
    const double s = static_cast<double>(a.seqLen);
    return 4.0 * s * s * a.headDim * a.batchHeads * (a.causal ? 0.5 : 1.0);
}

// A measured rate is for full causal attention at this length: a windowed kernel runs the same
// tiles at that rate, fewer of them (the ratio of the tiles computed).
double measuredWorkFraction(const HardwareProfile& hw, const AttentionShape& a) {
    if (a.window <= 0)
        return 1.0;
    AttentionShape full = a;
    full.window = 0;
    const double all = attentionPairs(hw, full);
    return all > 0 ? attentionPairs(hw, a) / all : 1.0;
}

} // namespace

double attentionFlops(const HardwareProfile& hw, const AttentionShape& a) {
    return 4.0 * attentionPairs(hw, a) * a.headDim * a.batchHeads; // Q K^T and P V, 2 per MAC
}

double attentionForwardSeconds(const HardwareProfile& hw, const AttentionShape& a) {
    if (hw.measured)
        if (auto tflops = hw.measured->attentionTflops(a.seqLen, a.headDim, a.causal, false))
            return flashConventionFlops(a) * measuredWorkFraction(hw, a) / (*tflops * 1e12) +
                   hw.kernelOverheadUs * 1e-6;
    return modelledAttentionSeconds(hw, a, 1.0, hw.attentionForwardEfficiency) +
           hw.kernelOverheadUs * 1e-6;
}

double attentionBackwardSeconds(const HardwareProfile& hw, const AttentionShape& a) {
    if (hw.measured)
        if (auto tflops = hw.measured->attentionTflops(a.seqLen, a.headDim, a.causal, true))
            return 2.5 * flashConventionFlops(a) * measuredWorkFraction(hw, a) / (*tflops * 1e12) +
                   2.0 * hw.kernelOverheadUs * 1e-6;
    return modelledAttentionSeconds(hw, a, 2.5, hw.attentionBackwardEfficiency) +
           2.0 * hw.kernelOverheadUs * 1e-6;
}

double memoryBoundSeconds(const HardwareProfile& hw, double bytes, int kernels) {
    return bytes / (hw.hbmGBps * 1e9 * hw.hbmEfficiency) + kernels * hw.kernelOverheadUs * 1e-6;
}

} // namespace ts
