// A calibration profile. Invariants: a refusal carries a diagnostic; an accepted profile writes
// back to JSON that reads to a profile writing the same JSON (a fixed point).

#include "FuzzChecks.h"

#include "calibration/ProfileJson.h"

#include <cstdint>
#include <string>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    Diagnostics diags;
    auto profile = parseProfile(text, diags);
    if (!profile) {
        FUZZ_CHECK(diags.hasErrors());
        return 0;
    }
    const auto json = profileToJson(*profile);
    Diagnostics again;
    auto reread = profileFromJson(json, again);
    FUZZ_CHECK(reread);
    FUZZ_CHECK(profileToJson(*reread) == json);
    return 0;
}
