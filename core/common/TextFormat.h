#pragma once
// printf into a std::string of whatever length the text needs: a fixed buffer cuts a line
// that holds a long name or a large number ("%.3f" of 1e300 is 300 digits).

#include <string>

namespace ts {

std::string printfText(const char* format, ...) __attribute__((format(printf, 1, 2)));

} // namespace ts
