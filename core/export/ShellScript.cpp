#include "export/ShellScript.h"

namespace ts {

// A comma is plain to the shell but quoted all the same: ShellCheck (SC2054) reads an unquoted
// comma in an array element as a mistaken separator.
std::string shellQuote(std::string_view word) {
    auto safe = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || c == '=' || c == '+' ||
               c == '@' || c == '%';
    };
    bool plain = !word.empty();
    for (char c : word)
        plain = plain && safe(c);
    if (plain)
        return std::string(word);
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::string shellWord(std::string_view value) {
    if (!value.empty() && value[0] == '$')
        return "\"${" + std::string(value.substr(1)) + "}\"";
    return shellQuote(value);
}

std::string commentText(std::string_view text) {
    std::string out;
    for (char c : text)
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
    return out;
}

ShellScript& ShellScript::line(std::string_view text) {
    text_ += text;
    text_ += '\n';
    return *this;
}

ShellScript& ShellScript::comment(std::string_view text) {
    return line("# " + commentText(text));
}

ShellScript& ShellScript::assign(std::string_view name, std::string_view value) {
    return line(std::string(name) + "=" + shellQuote(value));
}

ShellScript& ShellScript::assignDefault(std::string_view name, std::string_view defaultValue) {
    // Two steps, so that the default is one literal word whatever it holds.
    const std::string n(name);
    return line("if [[ -z \"${" + n + ":-}\" ]]; then " + n + "=" + shellQuote(defaultValue) +
                "; fi");
}

ShellScript& ShellScript::array(std::string_view name, const std::vector<CliArg>& args) {
    line(std::string(name) + "=(");
    for (const auto& arg : args) {
        std::string entry = "    " + arg.flag;
        for (const auto& value : arg.values) {
            entry += ' ';
            entry += shellWord(value);
        }
        line(entry);
    }
    return line(")");
}

} // namespace ts
