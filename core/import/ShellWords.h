#pragma once
// Reading a launch script the way bash would hand its words to a program, without running
// it: quotes, backslashes and line continuations; variables set in the script (NAME=value,
// also inside if ... then ... fi) and ${NAME:-default}; arrays NAME=( ... ) and "${NAME[@]}".
// Command substitutions $(...) stay literal text (a note says so). Enough for the launch
// scripts of Megatron-LM's examples and of this project's exporters; nothing is executed.

#include <string>
#include <string_view>
#include <vector>

namespace ts {

struct ShellCommands {
    // Every simple command and every array assignment, expanded, in script order.
    std::vector<std::vector<std::string>> commands;
    std::vector<std::string> notes; // what could not be expanded
};

ShellCommands readShellCommands(std::string_view script);

} // namespace ts
