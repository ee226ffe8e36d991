// A torchtitan TOML job config -> scenario (import/TorchtitanImport.cpp). Invariants:
// FuzzImport.h.

#include "FuzzImport.h"

#include <cstdint>
#include <string>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ImportInput input;
    input.text.assign(reinterpret_cast<const char*>(data), size);
    fuzz::checkImport(importTorchtitan(input));
    return 0;
}
