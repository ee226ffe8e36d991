#pragma once
// printf into a std::string of whatever length the text needs: a fixed buffer cuts a line
// that holds a long name or a large number ("%.3f" of 1e300 is 300 digits). And integers with
// their digits grouped in threes ("32,768").

#include <string>

namespace ts {

std::string printfText(const char* format, ...) __attribute__((format(printf, 1, 2)));

std::string withThousands(long long n);

} // namespace ts
