// costs.carbon_csv -> hourly grid series. Invariants: every hour is finite and inside the
// accepted ranges; a refusal is an error at /costs/carbon_csv.

#include "FuzzChecks.h"

#include "scenario/GridCsv.h"
#include "scenario/Limits.h"

#include <cstdint>
#include <string_view>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Diagnostics diags;
    auto hours = parseGridCsv(text, "/costs/carbon_csv", diags);
    if (!hours) {
        FUZZ_CHECK(diags.hasErrorAt("/costs/carbon_csv"));
        return 0;
    }
    FUZZ_CHECK(!hours->empty());
    for (const GridHour& h : *hours) {
        FUZZ_CHECK(limits::kGridGco2Kwh.contains(h.gco2PerKwh));
        if (h.usdPerKwh)
            FUZZ_CHECK(limits::kElectricityUsdKwh.contains(*h.usdPerKwh));
    }
    return 0;
}
