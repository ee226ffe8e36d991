#include "estimate/PrecisionMemory.h"

namespace ts {

double lowPrecisionWeightCopyBytes(Precision precision, int zero) {
    if (zero >= 3)
        return 0.0;
    switch (precision) {
    case Precision::Fp8:
        return 2.0;
    case Precision::MxFp8:
        return 2.0 * (1.0 + 1.0 / 32.0);
    case Precision::NvFp4:
        return 2.0 * (0.5 + 1.0 / 16.0);
    default:
        return 0.0;
    }
}

} // namespace ts
