#pragma once
// printf into a std::string of whatever length the text needs: a fixed buffer cuts a line
// that holds a long name or a large number ("%.3f" of 1e300 is 300 digits). And integers with
// their digits grouped in threes ("32,768"), and user text made safe for a terminal.

#include <string>
#include <string_view>

namespace ts {

std::string printfText(const char* format, ...) __attribute__((format(printf, 1, 2)));

std::string withThousands(long long n);

// Text from a user's file made safe to print on a terminal: each ASCII control character
// (U+0000-U+001F and DEL, which would move the cursor, recolour or clear the screen: ECMA-48)
// written as \xNN, a backslash as \\; everything else, UTF-8 included, as it is.
std::string terminalText(std::string_view text);

} // namespace ts
