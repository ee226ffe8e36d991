#pragma once
// Writing bash scripts that survive any value: words single-quoted where needed (a '$',
// a space or a quote in a path stays literal), comments kept on one line, and argument
// arrays in the layout of Megatron-LM's examples/gpt3/train_gpt3_175b_distributed.sh.

#include <string>
#include <string_view>
#include <vector>

namespace ts {

// A command-line flag and its values. A value that starts with '$' is a reference to a
// script variable and is written as "${NAME}"; every other value is quoted literally.
struct CliArg {
    std::string flag;
    std::vector<std::string> values;
};

// One word for bash: unchanged when it holds only safe characters, else single-quoted
// with each ' written as '\''.
std::string shellQuote(std::string_view word);
// A value as an array element or argument: a "$NAME" reference in double quotes, else
// shellQuote.
std::string shellWord(std::string_view value);
// Text safe inside a '#' comment: newlines and control characters become spaces.
std::string commentText(std::string_view text);

class ShellScript {
public:
    ShellScript& line(std::string_view text = {});
    ShellScript& comment(std::string_view text);
    // NAME='literal value'
    ShellScript& assign(std::string_view name, std::string_view value);
    // NAME keeps its value from the environment, else gets the literal default.
    ShellScript& assignDefault(std::string_view name, std::string_view defaultValue);
    // NAME=( --flag value ... ), one flag per line.
    ShellScript& array(std::string_view name, const std::vector<CliArg>& args);
    const std::string& text() const { return text_; }

private:
    std::string text_;
};

} // namespace ts
