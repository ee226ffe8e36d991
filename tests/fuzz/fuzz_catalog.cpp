// A user catalog file (--catalog). Invariant: a refusal carries a diagnostic; an accepted file
// leaves every GPU with finite peaks, a positive fp32 peak, memory and memory bandwidth.

#include "FuzzChecks.h"

#include "catalog/Catalog.h"

#include <cstdint>
#include <string>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    Catalog catalog = Catalog::builtIn();
    Diagnostics diags;
    if (!catalog.addDocument(text, "fuzz.json", diags)) {
        FUZZ_CHECK(diags.hasErrors());
        return 0;
    }
    for (const auto& [id, gpu] : catalog.gpus()) {
        // bf16 and fp8 are 0 on parts without them (T4: no bf16); fp32 and memory never are.
        FUZZ_CHECK(fuzz::finite(gpu.spec.bf16Tflops) && gpu.spec.bf16Tflops >= 0);
        FUZZ_CHECK(fuzz::finite(gpu.spec.fp8Tflops) && gpu.spec.fp8Tflops >= 0);
        FUZZ_CHECK(fuzz::finite(gpu.spec.fp32Tflops) && gpu.spec.fp32Tflops > 0);
        FUZZ_CHECK(fuzz::finite(gpu.spec.memoryGiB) && gpu.spec.memoryGiB > 0);
        FUZZ_CHECK(fuzz::finite(gpu.spec.hbmGBps) && gpu.spec.hbmGBps > 0);
    }
    return 0;
}
