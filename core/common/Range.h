#pragma once
// An accepted range with the reason for its bounds (scenario/Limits.h names them all).

#include <cstdint>

namespace ts::limits {

template <class T> struct Range {
    T min;
    T max;
    const char* reason; // why these bounds, quoted in the refusal

    constexpr bool contains(T value) const { return value >= min && value <= max; }
};

using IntRange = Range<std::int64_t>;
using RealRange = Range<double>;

} // namespace ts::limits
