// Scenario text -> reader -> resolver -> estimator. Invariants: a refusal names a path or the
// document; an accepted scenario writes back to text that reads to the same scenario; an
// estimate has finite numbers and a breakdown that sums to its step time.

#include "FuzzScenario.h"

#include <cstdint>
#include <string_view>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Diagnostics diags;
    auto scenario = parseScenarioText(text, diags);
    if (!scenario) {
        FUZZ_CHECK(diags.hasErrors());
        return 0;
    }
    fuzz::checkScenario(*scenario);
    return 0;
}
