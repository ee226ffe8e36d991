#include "estimate/PrecisionMemory.h"

#include "estimate/MemoryModel.h"
#include "scenario/ClusterConfig.h"

namespace ts {

namespace {

// Float8BlockScaling: one FP32 scale per 128 consecutive values (activations, gradients) or
// per 128 x 128 tile (weights) (TransformerEngine "FP8 Blockwise Scaling" docs: "Block size
// is 128"; DeepSeek-V3 sec. 3.3.1).
constexpr double kBlockScaleBytes = 4.0;
constexpr double kBlock = 128.0;

// NVFP4's cast (PrecisionMemory.h): the amax read, the cast's read, two half-byte copies and an
// FP8 scale per 16 values for each.
constexpr double kNvFp4CastBytes = 2.0 + 2.0 + 0.5 + 0.5 + 2.0 / 16.0;

double blockScaleBytesPerElement(CastOperand operand) {
    return operand == CastOperand::Weight ? kBlockScaleBytes / (kBlock * kBlock)
                                          : kBlockScaleBytes / kBlock;
}

} // namespace

double lowPrecisionWeightCopyBytes(const TrainingConfig& training, int zero, Framework framework,
                                   bool blackwell) {
    if (zero >= 3 || framework == Framework::Pytorch)
        return 0.0;
    switch (training.precision) {
    case Precision::Fp8:
        if (training.fp8Recipe == Fp8Recipe::Blockwise)
            return 2.0 * (1.0 + blockScaleBytesPerElement(CastOperand::Weight));
        return blackwell ? 1.0 : 2.0;
    case Precision::MxFp8:
        return 2.0 * (1.0 + 1.0 / 32.0);
    case Precision::NvFp4:
        return 2.0 * (0.5 + 1.0 / 16.0);
    default:
        return 0.0;
    }
}

double lowPrecisionSavedWeightBytes(const TrainingConfig& training, int zero, Framework framework,
                                    bool blackwell) {
    const double cached = lowPrecisionWeightCopyBytes(training, zero, framework, blackwell);
    const bool oneCopy = blackwell && training.precision == Precision::Fp8 &&
                         training.fp8Recipe != Fp8Recipe::Blockwise;
    return oneCopy ? cached : cached / 2.0;
}

double fp8CastBytesPerElement(const TrainingConfig& training, CastOperand operand) {
    switch (training.precision) {
    case Precision::Fp8:
        switch (training.fp8Recipe) {
        case Fp8Recipe::Delayed:
            return 4.0;
        case Fp8Recipe::Tensorwise:
            return 6.0;
        case Fp8Recipe::Blockwise:
            return 2.0 + 2.0 * (1.0 + blockScaleBytesPerElement(operand));
        }
        return 4.0;
    case Precision::MxFp8:
        return 4.0;
    case Precision::NvFp4:
        return kNvFp4CastBytes;
    default:
        return 0.0;
    }
}

int fp8CastPasses(const TrainingConfig& training) {
    if (training.precision == Precision::Fp8 && training.fp8Recipe == Fp8Recipe::Tensorwise)
        return 2; // amax reduction, then scale and cast
    if (training.precision == Precision::NvFp4)
        return 2; // the per-tensor amax of the two-level scale, then scale and cast
    return 1;
}

// GEMM throughput: every recipe multiplies at the GPU's FP8 rate (hardware/HardwareProfile.h,
// from the per-tensor FP8 MAMF: H100 1402.6 of 1978.9 TFLOPS). Block scaling on Hopper has no
// scaled MMA: partial sums are promoted to FP32 on the CUDA cores every 128 elements
// (DeepSeek-V3 sec. 3.3.2; TransformerEngine calls Hopper's block-scaled GEMMs
// "software-emulated"), but the sources give no slowdown to apply: DeepSeek-V3 overlaps the
// promotion of one warpgroup with another's MMA, "maintaining high utilization of Tensor
// Cores", DeepGEMM (deepseek-ai/DeepGEMM README) reaches up to 1550 TFLOPS on H800 (same FP8
// peak as H100 SXM), above that per-tensor MAMF, and TransformerEngine's docs name an overhead
// without a figure. So on Hopper no factor: blockwise costs only its casts' bytes. Blackwell
// scales blocks in the tensor cores (TransformerEngine runs the blockwise recipe as MXFP8
// there), below the per-tensor rate: hardware/BlockScaledGemm.h.

std::optional<Message> fp8RecipeWarning(const TrainingConfig& training, const GpuSpec& gpu) {
    if (training.precision != Precision::Fp8)
        return std::nullopt;
    // GPUs with FP4 tensor cores (Blackwell) scale blocks in the tensor cores themselves.
    const bool blockScaledTensorCores = gpu.fp4Tflops.has_value();
    switch (training.fp8Recipe) {
    case Fp8Recipe::Delayed:
        return message(MessageId::Fp8Delayed);
    case Fp8Recipe::Tensorwise:
        return message(MessageId::Fp8Tensorwise);
    case Fp8Recipe::Blockwise:
        return message(blockScaledTensorCores ? MessageId::Fp8BlockwiseNative
                                              : MessageId::Fp8Blockwise);
    }
    return std::nullopt;
}

} // namespace ts
