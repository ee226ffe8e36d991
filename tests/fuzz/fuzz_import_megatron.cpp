// A Megatron-LM command line or launch script -> scenario (import/MegatronImport.cpp).
// Invariants: FuzzImport.h.

#include "FuzzImport.h"

#include <cstdint>
#include <string>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ImportInput input;
    input.text.assign(reinterpret_cast<const char*>(data), size);
    fuzz::checkImport(importMegatron(input));
    return 0;
}
