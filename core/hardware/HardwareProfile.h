#pragma once
// The efficiencies that turn a GPU's datasheet peaks into kernel times. Defaults come from
// public figures (below); a calibration profile measured on real hardware (issue 6,
// tools/calibrate) replaces them through this one seam: build a HardwareProfile from the
// measurements instead of calling defaultHardwareProfile().

#include "scenario/ClusterConfig.h"
#include "scenario/Enums.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace ts {

enum class MatmulDtype { Tf32, Fp16, Bf16, Fp8, Fp4 };
inline constexpr std::size_t kMatmulDtypeCount = 5;

struct MatmulProfile {
    double peakTflops = 0; // dense datasheet peak of this dtype (0 = not supported)
    // Achievable fraction of peak for large, well-shaped multiplies: MAMF / peak, where
    // MAMF is the "maximum achievable matmul FLOPS" measured by
    // stas00/ml-engineering compute/accelerator/benchmarks/mamf-finder.py.
    double efficiency = 0;
};

// A GEMM tile shape the library may pick; `efficiency` is its relative per-SM throughput
// (smaller tiles reuse less data per load).
struct GemmTile {
    int m = 128;
    int n = 128;
    double efficiency = 1.0;
};

struct HardwareProfile;

// Kernel throughput measured on real hardware (a calibration profile; core/calibration
// implements it). Each answer replaces the modelled figure; nullopt = not measured, so the
// model above decides.
class MeasuredKernels {
public:
    virtual ~MeasuredKernels() = default;
    // Achieved fraction of the dtype's dense peak for an M x N x K multiply (shape, size and
    // quantization included), before sustainedMatmulFraction.
    virtual std::optional<double> matmulEfficiency(const HardwareProfile& hw, MatmulDtype dtype,
                                                   double m, double n, double k) const = 0;
    // Achieved TFLOP/s of flash attention, counted as FlashAttention-2 does: forward
    // 4 b h s^2 d, halved when causal; backward 2.5x that.
    virtual std::optional<double> attentionTflops(std::int64_t seqLen, int headDim, bool causal,
                                                  bool backward) const = 0;
};

struct HardwareProfile {
    std::array<MatmulProfile, kMatmulDtypeCount> matmul{};
    int smCount = 0; // 0 = unknown: no wave quantization
    std::array<GemmTile, 3> tiles{};
    // Reduction depth at which a GEMM reaches half of its efficiency loss from short K
    // (the prologue/epilogue of each output tile is amortized over K).
    double gemmHalfEfficiencyK = 48;
    // Size at which a GEMM reaches half of its large-size efficiency: small multiplies cannot
    // fill the GPU nor hide their prologue (Calculon's size-dependent efficiency curves,
    // Isaev et al. SC'23; NVIDIA "Matrix Multiplication Background", Fig. 2).
    double gemmHalfEfficiencyFlops = 0;
    // Fraction of MAMF that the GEMMs of a training step sustain: MAMF is the best of a
    // short shape sweep; a step runs for seconds at the power limit.
    double sustainedMatmulFraction = 1.0;

    // Flash-style attention: its two matmuls (Q K^T and P V) as a fraction of the dense BF16
    // peak, forward and backward...
    double attentionForwardEfficiency = 0;
    double attentionBackwardEfficiency = 0;
    int attentionBlock = 128; // query/key tile of the attention kernel (causal tiles)
    // ...and its softmax exponentials (one per score forward, one per score again when the
    // backward recomputes P) on the special function units, MUFU.EX2 (hardware/KernelTime.h).
    double exponentialsPerSecond = 0;

    double hbmGBps = 0;
    double hbmEfficiency = 0; // achieved fraction of the datasheet bandwidth

    // Fixed cost of one kernel on the GPU timeline (launch gap, ramp-up, tail).
    double kernelOverheadUs = 0;

    // Measured tables from a calibration profile (calibration/CalibratedSettings.h); null =
    // the model alone.
    std::shared_ptr<const MeasuredKernels> measured;

    const MatmulProfile& forDtype(MatmulDtype dtype) const {
        return matmul[static_cast<std::size_t>(dtype)];
    }
    double bf16PeakTflops() const { return forDtype(MatmulDtype::Bf16).peakTflops; }
};

// Defaults documented in HardwareProfile.cpp, from the GPU's datasheet and MAMF figures.
HardwareProfile defaultHardwareProfile(const GpuSpec& gpu);

// The dtype of the training precision's matrix multiplies and its dense peak (the MFU
// denominator). FP32 training multiplies in TF32 where the GPU has it.
MatmulDtype matmulDtypeFor(Precision precision);
// Bytes per GEMM input element in `dtype`: TF32 4, FP8 and FP4 1 (their block scales and the
// packed FP4 pairs are counted with the casts, estimate/PrecisionMemory.h), else 2.
double matmulInputBytes(MatmulDtype dtype);
double densePeakTflops(const GpuSpec& gpu, Precision precision);

} // namespace ts
