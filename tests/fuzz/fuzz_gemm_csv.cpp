// GEMM sweep CSV -> matmul points. Invariants: every point has whole dimensions of at least
// 1 and a finite throughput inside the accepted range; a refusal names a line.

#include "FuzzChecks.h"

#include "calibration/GemmCsv.h"
#include "scenario/Limits.h"

#include <cstdint>
#include <string>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    CsvError error;
    auto points = parseGemmCsv(text, error);
    if (!points) {
        FUZZ_CHECK(error.line >= 1 && !error.message.empty());
        FUZZ_CHECK(error.message.size() < 4096);
        return 0;
    }
    FUZZ_CHECK(!points->empty());
    for (const MatmulPoint& p : *points) {
        FUZZ_CHECK(p.m >= 1 && p.n >= 1 && p.k >= 1);
        FUZZ_CHECK(fuzz::finite(p.tflops) && limits::kMatmulTflops.contains(p.tflops));
    }
    return 0;
}
