#include "hardware/BlockScaledGemm.h"

#include "hardware/HardwareProfile.h"
#include "scenario/PlanConfig.h"

#include <cstddef>

namespace ts {

bool multipliesBlockScaled(const TrainingConfig& training, bool blockScaledTensorCores) {
    if (!blockScaledTensorCores)
        return false;
    switch (training.precision) {
    case Precision::MxFp8:
    case Precision::NvFp4:
        return true;
    case Precision::Fp8:
        return training.fp8Recipe == Fp8Recipe::Blockwise;
    default:
        return false;
    }
}

void applyBlockScaledGemm(const TrainingConfig& training, bool blockScaledTensorCores,
                          HardwareProfile& hw) {
    if (!multipliesBlockScaled(training, blockScaledTensorCores))
        return;
    const auto index = static_cast<std::size_t>(matmulDtypeFor(training.precision));
    hw.matmul[index].efficiency *= kBlockScaledMmaEfficiency;
}

} // namespace ts
