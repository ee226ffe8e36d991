#include "import/ShellWords.h"

#include <cctype>
#include <map>

namespace ts {
namespace {

// One piece of a word: literal text, a scalar reference or a whole array ("${A[@]}").
struct Segment {
    enum Kind { Literal, Scalar, Array } kind = Literal;
    std::string text;     // literal text, or the variable name
    std::string fallback; // ${NAME:-fallback}
    bool hasFallback = false;
};
struct Word {
    std::vector<Segment> segments;
};
struct Token {
    enum Kind { WordToken, Separator, Open, Close } kind = WordToken;
    Word word;
};

bool nameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Quote removal of the word in ${NAME:-word} (bash(1), "Parameter Expansion": the word undergoes
// quote removal, so NNODES=${SLURM_NNODES:-"1"} is 1): single quotes keep their text, double
// quotes theirs with \ escaping \, $, ` and ", and a backslash outside quotes its next character.
std::string withoutQuotes(std::string_view word) {
    std::string out;
    for (std::size_t i = 0; i < word.size(); ++i) {
        const char c = word[i];
        if (c == '\'') {
            const std::size_t close = word.find('\'', i + 1);
            out += word.substr(i + 1, close == std::string_view::npos ? close : close - i - 1);
            i = close == std::string_view::npos ? word.size() : close;
        } else if (c == '"') {
            for (++i; i < word.size() && word[i] != '"'; ++i) {
                if (word[i] == '\\' && i + 1 < word.size() &&
                    std::string_view("\"\\$`").find(word[i + 1]) != std::string_view::npos)
                    ++i;
                out += word[i];
            }
        } else if (c == '\\' && i + 1 < word.size()) {
            out += word[++i];
        } else {
            out += c;
        }
    }
    return out;
}

class Lexer {
public:
    explicit Lexer(std::string_view s) : s_(s) {}

    std::vector<Token> tokens() {
        std::vector<Token> out;
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') {
                pos_ += 2;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++pos_;
            } else if (c == '#') {
                while (pos_ < s_.size() && s_[pos_] != '\n')
                    ++pos_;
            } else if (c == '\n' || c == ';' || c == '&' || c == '|') {
                ++pos_;
                out.push_back({Token::Separator, {}});
            } else if (c == '(') {
                ++pos_;
                out.push_back({Token::Open, {}});
            } else if (c == ')') {
                ++pos_;
                out.push_back({Token::Close, {}});
            } else {
                out.push_back({Token::WordToken, word()});
            }
        }
        return out;
    }

private:
    void literal(Word& w, std::string text) {
        if (!w.segments.empty() && w.segments.back().kind == Segment::Literal)
            w.segments.back().text += text;
        else
            w.segments.push_back({Segment::Literal, std::move(text), {}, false});
    }

    // After '$': a name, ${...} or $(...).
    void dollar(Word& w) {
        if (pos_ < s_.size() && s_[pos_] == '(') {
            const std::size_t start = pos_ - 1;
            int depth = 0;
            do {
                depth += s_[pos_] == '(' ? 1 : s_[pos_] == ')' ? -1 : 0;
                ++pos_;
            } while (pos_ < s_.size() && depth > 0);
            literal(w, std::string(s_.substr(start, pos_ - start)));
            return;
        }
        if (pos_ < s_.size() && s_[pos_] == '{') {
            const std::size_t close = s_.find('}', pos_);
            std::string inner(s_.substr(pos_ + 1, close - pos_ - 1));
            pos_ = close == std::string_view::npos ? s_.size() : close + 1;
            Segment seg{Segment::Scalar, inner, {}, false};
            if (const auto at = inner.find("[@]"); at != std::string::npos) {
                seg.kind = Segment::Array;
                seg.text = inner.substr(0, at);
            } else if (const auto dash = inner.find(":-"); dash != std::string::npos) {
                seg.text = inner.substr(0, dash);
                seg.fallback = withoutQuotes(std::string_view(inner).substr(dash + 2));
                seg.hasFallback = true;
            }
            w.segments.push_back(seg);
            return;
        }
        std::string name;
        while (pos_ < s_.size() && nameChar(s_[pos_]))
            name += s_[pos_++];
        if (name.empty())
            literal(w, "$");
        else
            w.segments.push_back({Segment::Scalar, name, {}, false});
    }

    Word word() {
        Word w;
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' ||
                c == '|' || c == '(' || c == ')')
                break;
            ++pos_;
            if (c == '\'') {
                const std::size_t close = s_.find('\'', pos_);
                literal(w, std::string(s_.substr(pos_, close - pos_)));
                pos_ = close == std::string_view::npos ? s_.size() : close + 1;
            } else if (c == '"') {
                while (pos_ < s_.size() && s_[pos_] != '"') {
                    const char d = s_[pos_++];
                    if (d == '\\' && pos_ < s_.size() &&
                        std::string_view("\"\\$`").find(s_[pos_]) != std::string_view::npos)
                        literal(w, std::string(1, s_[pos_++]));
                    else if (d == '$')
                        dollar(w);
                    else
                        literal(w, std::string(1, d));
                }
                ++pos_;
            } else if (c == '\\' && pos_ < s_.size()) {
                literal(w, std::string(1, s_[pos_++]));
            } else if (c == '$') {
                dollar(w);
            } else {
                literal(w, std::string(1, c));
            }
        }
        return w;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

class Expander {
public:
    ShellCommands run(const std::vector<Token>& tokens) {
        std::size_t i = 0;
        while (i < tokens.size())
            statement(tokens, i);
        return std::move(out_);
    }

private:
    std::vector<std::string> expand(const Word& w) {
        std::vector<std::string> words{std::string()};
        for (const auto& seg : w.segments) {
            if (seg.kind == Segment::Literal) {
                words.back() += seg.text;
            } else if (seg.kind == Segment::Scalar) {
                const auto it = scalars_.find(seg.text);
                if (it != scalars_.end() && !(seg.hasFallback && it->second.empty()))
                    words.back() += it->second;
                else if (seg.hasFallback)
                    words.back() += seg.fallback;
                else
                    words.back() += "${" + seg.text + "}";
            } else {
                const auto it = arrays_.find(seg.text);
                if (it == arrays_.end() || it->second.empty())
                    continue;
                words.back() += it->second.front();
                for (std::size_t k = 1; k < it->second.size(); ++k)
                    words.push_back(it->second[k]);
            }
        }
        const bool onlyArrays = !w.segments.empty() && w.segments.front().kind == Segment::Array &&
                                w.segments.size() == 1;
        if (onlyArrays && words.size() == 1 && words.front().empty())
            return {};
        return words;
    }

    static bool isKeyword(const std::string& w) {
        return w == "if" || w == "then" || w == "else" || w == "elif" || w == "fi" || w == "do" ||
               w == "done" || w == "exec" || w == "export" || w == "!";
    }

    // NAME=... at the start of a word: the name, or "" when it is no assignment.
    static std::string assignedName(const Word& w) {
        if (w.segments.empty() || w.segments.front().kind != Segment::Literal)
            return {};
        const std::string& t = w.segments.front().text;
        const auto eq = t.find('=');
        if (eq == std::string::npos || eq == 0)
            return {};
        for (std::size_t k = 0; k < eq; ++k)
            if (!nameChar(t[k]) || std::isdigit(static_cast<unsigned char>(t[0])))
                return {};
        return t.substr(0, eq);
    }

    void statement(const std::vector<Token>& t, std::size_t& i) {
        std::vector<std::string> words;
        bool commandStarted = false;
        while (i < t.size() && t[i].kind != Token::Separator) {
            if (t[i].kind != Token::WordToken) { // a subshell or stray parenthesis
                ++i;
                continue;
            }
            const Word& w = t[i].word;
            const std::string name = commandStarted ? std::string() : assignedName(w);
            if (!name.empty()) {
                Word value = w;
                value.segments.front().text.erase(0, name.size() + 1);
                if (value.segments.front().text.empty() && i + 1 < t.size() &&
                    t[i + 1].kind == Token::Open) {
                    i += 2;
                    arrayAssignment(name, t, i);
                    continue;
                }
                const auto expanded = expand(value);
                scalars_[name] = expanded.empty() ? std::string() : expanded.front();
                ++i;
                continue;
            }
            auto expanded = expand(w);
            if (!commandStarted && expanded.size() == 1 && isKeyword(expanded.front())) {
                ++i;
                continue;
            }
            commandStarted = true;
            for (auto& e : expanded) {
                if (e.find("$(") != std::string::npos)
                    out_.notes.push_back("command substitution left unexpanded: " + e);
                words.push_back(std::move(e));
            }
            ++i;
        }
        ++i; // the separator
        if (!words.empty())
            out_.commands.push_back(std::move(words));
    }

    void arrayAssignment(const std::string& name, const std::vector<Token>& t, std::size_t& i) {
        std::vector<std::string> items;
        for (; i < t.size() && t[i].kind != Token::Close; ++i)
            if (t[i].kind == Token::WordToken)
                for (auto& e : expand(t[i].word))
                    items.push_back(std::move(e));
        ++i;
        arrays_[name] = items;
        out_.commands.push_back(items);
    }

    std::map<std::string, std::string> scalars_;
    std::map<std::string, std::vector<std::string>> arrays_;
    ShellCommands out_;
};

} // namespace

ShellCommands readShellCommands(std::string_view script) {
    return Expander().run(Lexer(script).tokens());
}

} // namespace ts
