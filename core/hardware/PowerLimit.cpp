#include "hardware/PowerLimit.h"

#include "common/TextFormat.h"

#include "catalog/Catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ts {

namespace {

bool samePeak(double a, double b) {
    if (a <= 0 || b <= 0)
        return a == b;
    return std::abs(a - b) <= 0.01 * std::max(a, b);
}

} // namespace

std::optional<PowerSibling> findPowerSibling(const GpuSpec& gpu, const Catalog& catalog) {
    if (gpu.mamfBf16Tflops || gpu.tdpW <= 0)
        return std::nullopt;
    const GpuEntry* best = nullptr;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const auto& [id, entry] : catalog.gpus()) {
        const GpuSpec& s = entry.spec;
        if (!s.mamfBf16Tflops || s.tdpW <= 0 || !samePeak(s.bf16Tflops, gpu.bf16Tflops) ||
            !samePeak(s.fp8Tflops, gpu.fp8Tflops))
            continue;
        const double distance = std::abs(s.hbmGBps - gpu.hbmGBps);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = &entry;
        }
    }
    if (!best)
        return std::nullopt;
    PowerSibling sibling;
    sibling.gpuId = best->id;
    sibling.tdpW = best->spec.tdpW;
    sibling.mamfBf16Tflops = *best->spec.mamfBf16Tflops;
    sibling.mamfFp8Tflops = best->spec.mamfFp8Tflops;
    return sibling;
}

double powerLimitThroughputScale(const GpuSpec& gpu) {
    if (!gpu.powerSibling || gpu.powerSibling->tdpW <= 0 || gpu.tdpW <= 0)
        return 1.0;
    const double scale = std::pow(gpu.tdpW / gpu.powerSibling->tdpW, kPowerExponent);
    if (scale <= 1.0 || gpu.powerSibling->mamfBf16Tflops <= 0)
        return scale;
    const double ceiling =
        kMaxMamfFractionOfPeak * gpu.bf16Tflops / gpu.powerSibling->mamfBf16Tflops;
    return std::max(1.0, std::min(scale, ceiling));
}

Message powerSiblingWarning(const GpuSpec& gpu) {
    if (!gpu.powerSibling)
        return {};
    return message(MessageId::PowerSibling,
                   {gpu.name, gpu.powerSibling->gpuId, printfText("%.0f", gpu.tdpW),
                    printfText("%.0f", gpu.powerSibling->tdpW),
                    printfText("%.2f", powerLimitThroughputScale(gpu))});
}

} // namespace ts
