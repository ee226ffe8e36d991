#include "hardware/HardwareProfile.h"

#include "hardware/PowerLimit.h"

#include <algorithm>
#include <optional>

namespace ts {

namespace {

// When a GPU has no measured MAMF, the median MAMF/peak of the NVIDIA parts in the
// ml-engineering table (stas00/ml-engineering compute/accelerator/README.md, commit 744d01e):
// BF16 A100 271.2/312 = 0.87, H100 794.5/989.4 = 0.80, H200 0.80, B200 1745/2250 = 0.78,
// GB200 1822/2500 = 0.73 -> 0.80; FP8 H100 1402.6/1978.9 = 0.71, H200 0.73, B200 0.76,
// GB200 0.72 -> 0.72.
constexpr double kDefaultBf16MatmulEfficiency = 0.80;
constexpr double kDefaultFp8MatmulEfficiency = 0.72;
// A power sibling's MAMF scaled up by a higher power limit stays below the clock-limited
// peak: no part in the ml-engineering table exceeds 0.87 of its datasheet peak.
constexpr double kMaxMatmulEfficiency = 0.90;

// Flash attention reaches up to 73% of the A100 peak forward at long sequences and head dim
// 128 (FlashAttention-2, Dao 2023, Fig. 5-7) but 35-40% on H100 (FlashAttention-3, Shah et al.
// 2024, Fig. 1: FA2 at 335-370 of 989 TFLOP/s; FA3/cuDNN reach 60-75%), and less at 2-8k
// causal sequences. Its time is its matmuls at these tensor-core efficiencies plus its softmax
// exponentials on the special function units (KernelTime.cpp). Calibrated on the published
// runs (tests/tst_accuracy.cpp), one value for every GPU: the matmuls at 0.438 (forward) and
// 0.308 (backward) of the dense peak, which with the exponentials of an H100 SXM at head dim
// 128 (989.4 TFLOP/s over 3.9 T/s: 254 matmul FLOPs per exponential, against 512 per score
// forward and 1280 backward) is the 0.36 and 0.29 of the BF16 peak that the model was fitted
// at before it counted the exponentials apart. On Hopper these are FlashAttention-2's
// efficiencies (the torchtitan runs); Megatron-LM's Transformer Engine attention there is
// faster by hardware/AttentionKernel.h's factor, which the estimator applies. Causal masking
// is handled by computing only the tiles on or below the diagonal (KernelTime.cpp), not by a
// lower efficiency.
constexpr double kAttentionForwardEfficiency = 0.438;
constexpr double kAttentionBackwardEfficiency = 0.308;

// Exponentials per second where the catalog gives none (cluster.gpu.sfu_exp_tera_per_s):
// the BF16 peak over H100's ratio of tensor FLOPs to SFU exponentials, 989 TFLOP/s to 3.9 T/s
// (Shah et al. 2024, FlashAttention-3, sec. 3.1: "only 3.9 TFLOPS of special functions"),
// the ratio the attention efficiencies above were fitted at: such a GPU keeps the attention
// time the model gave before the exponentials were counted.
constexpr double kReferenceFlopsPerExponential = 256.0;

// Achieved HBM bandwidth of streaming kernels: STREAM-like copies reach ~ 85-90% of the
// datasheet figure on A100/H100 (ml-engineering compute/accelerator, "memory bandwidth");
// PyTorch elementwise kernels, with their shorter transfers, somewhat less.
constexpr double kHbmEfficiency = 0.80;

// GPU-side gap per kernel: launch latency and the ramp-up/tail of short kernels
// (~ 2-4 us on A100/H100, NVIDIA CUDA Graphs blog "Getting Started with CUDA Graphs").
constexpr double kKernelOverheadUs = 2.5;

// MAMF is the best of a short sweep over shapes; the GEMMs of a training step run for seconds
// at the power limit (clocks drop below boost) and in realistic shapes. Calibrated on the
// published runs (tests/tst_accuracy.cpp), one value for every GPU.
constexpr double kSustainedMatmulFraction = 0.86;
// A GEMM of 5 GFLOP reaches half its large-size efficiency: on H100 that is ~ 12 us of work,
// a few waves of tiles (NVIDIA "Matrix Multiplication Background User's Guide": efficiency
// rises with size until the GPU is filled for several waves). Calibrated as above.
constexpr double kGemmHalfEfficiencyFlops = 5e9;

double orZero(const std::optional<double>& value) {
    return value.value_or(0.0);
}

} // namespace

double matmulInputBytes(MatmulDtype dtype) {
    switch (dtype) {
    case MatmulDtype::Tf32:
        return 4.0;
    case MatmulDtype::Fp8:
    case MatmulDtype::Fp4:
        return 1.0;
    default:
        return 2.0;
    }
}

MatmulDtype matmulDtypeFor(Precision precision) {
    switch (precision) {
    case Precision::Fp32:
        return MatmulDtype::Tf32;
    case Precision::Fp16:
        return MatmulDtype::Fp16;
    case Precision::Bf16:
        return MatmulDtype::Bf16;
    case Precision::Fp8:
    case Precision::MxFp8:
        return MatmulDtype::Fp8;
    case Precision::NvFp4:
        return MatmulDtype::Fp4;
    }
    return MatmulDtype::Bf16;
}

double densePeakTflops(const GpuSpec& gpu, Precision precision) {
    switch (matmulDtypeFor(precision)) {
    case MatmulDtype::Tf32:
        return gpu.tf32Tflops.value_or(gpu.fp32Tflops);
    case MatmulDtype::Fp16:
        return gpu.fp16Tflops.value_or(gpu.bf16Tflops);
    case MatmulDtype::Bf16:
        return gpu.bf16Tflops;
    case MatmulDtype::Fp8:
        return gpu.fp8Tflops;
    case MatmulDtype::Fp4:
        return orZero(gpu.fp4Tflops);
    }
    return gpu.bf16Tflops;
}

HardwareProfile defaultHardwareProfile(const GpuSpec& gpu) {
    HardwareProfile p;
    // A GPU without its own MAMF borrows its power sibling's, scaled by the power limits
    // (hardware/PowerLimit.h); the attention kernels, tensor-core-bound too, scale alike.
    const PowerSibling* sibling = gpu.powerSibling ? &*gpu.powerSibling : nullptr;
    const double mamfBf16 = gpu.mamfBf16Tflops ? *gpu.mamfBf16Tflops
                            : sibling          ? sibling->mamfBf16Tflops
                                               : 0.0; // 0 = unknown
    const double mamfFp8 = gpu.mamfFp8Tflops ? *gpu.mamfFp8Tflops
                           : sibling         ? sibling->mamfFp8Tflops.value_or(0.0)
                                             : 0.0;
    const double power = powerLimitThroughputScale(gpu);
    const double bf16Eff = mamfBf16 > 0 && gpu.bf16Tflops > 0
                               ? std::min(kMaxMatmulEfficiency, power * mamfBf16 / gpu.bf16Tflops)
                               : kDefaultBf16MatmulEfficiency;
    const double fp8Eff = mamfFp8 > 0 && gpu.fp8Tflops > 0
                              ? std::min(kMaxMatmulEfficiency, power * mamfFp8 / gpu.fp8Tflops)
                              : kDefaultFp8MatmulEfficiency;
    auto set = [&](MatmulDtype dtype, double peak, double eff) {
        p.matmul[static_cast<std::size_t>(dtype)] = {peak, peak > 0 ? eff : 0.0};
    };
    set(MatmulDtype::Bf16, gpu.bf16Tflops, bf16Eff);
    set(MatmulDtype::Fp16, gpu.fp16Tflops.value_or(gpu.bf16Tflops), bf16Eff);
    set(MatmulDtype::Tf32, gpu.tf32Tflops.value_or(gpu.fp32Tflops), bf16Eff);
    set(MatmulDtype::Fp8, gpu.fp8Tflops, fp8Eff);
    // No public MAMF for FP4 yet: the FP8 fraction.
    set(MatmulDtype::Fp4, orZero(gpu.fp4Tflops), fp8Eff);

    p.smCount = gpu.smCount.value_or(0);
    // CUTLASS/cuBLAS tile shapes on Ampere/Hopper (NVIDIA "Matrix Multiplication Background
    // User's Guide", sec. "Tile quantization" and "Wave quantization"); the relative
    // throughput of the smaller tiles follows the same guide's Fig. 5 (smaller tiles reach
    // lower per-SM throughput because each operand load feeds fewer FLOPs).
    p.tiles = {GemmTile{256, 128, 1.0}, GemmTile{128, 128, 0.92}, GemmTile{128, 64, 0.80}};

    p.attentionForwardEfficiency = std::min(1.0, power * kAttentionForwardEfficiency);
    p.attentionBackwardEfficiency = std::min(1.0, power * kAttentionBackwardEfficiency);
    // The SFUs run at the tensor cores' clock: a power-limited sibling scales alike.
    p.exponentialsPerSecond =
        power * (gpu.sfuExpTeraPerS ? *gpu.sfuExpTeraPerS * 1e12
                                    : gpu.bf16Tflops * 1e12 / kReferenceFlopsPerExponential);
    p.hbmGBps = gpu.hbmGBps;
    p.hbmEfficiency = kHbmEfficiency;
    p.kernelOverheadUs = kKernelOverheadUs;
    p.sustainedMatmulFraction = kSustainedMatmulFraction;
    p.gemmHalfEfficiencyFlops = kGemmHalfEfficiencyFlops;
    return p;
}

} // namespace ts
