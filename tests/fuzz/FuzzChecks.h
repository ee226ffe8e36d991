#pragma once
// Invariants the fuzz harnesses check beyond "no crash": a broken one aborts, which libFuzzer
// reports as a crash with the input that caused it.

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                      \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "invariant broken at %s:%d: %s\n", __FILE__, __LINE__,            \
                         #condition);                                                              \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)

namespace ts::fuzz {

inline bool finite(double v) {
    return std::isfinite(v);
}

} // namespace ts::fuzz
