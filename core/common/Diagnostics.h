#pragma once
// Errors and warnings as values: each names the JSON path (RFC 6901 pointer, e.g.
// "/parallelism/tp") of what caused it and says what would be right.

#include "common/Message.h"

#include <string>
#include <string_view>
#include <vector>

namespace ts {

enum class Severity { Error, Warning };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string path;    // JSON pointer; "" is the whole document
    std::string message; // what is wrong and what would be right (English)
    // The message's id and arguments, for a translation (common/Message.h); None for a text
    // the core has no template for. `amendment` is English text added after the template's
    // (amendLast), shown as it is.
    MessageId id = MessageId::None;
    std::vector<std::string> args;
    std::string amendment;

    std::string toString() const;
};

class Diagnostics {
public:
    void error(std::string path, std::string message);
    void warning(std::string path, std::string message);
    void error(std::string path, Message message);
    void warning(std::string path, Message message);

    bool hasErrors() const { return errorCount_ > 0; }
    std::size_t errorCount() const { return errorCount_; }
    // Diagnostics past kMaxKept are counted, not kept: a file of a million bad entries gets
    // its first thousand messages and a count, not a gigabyte of text.
    static constexpr std::size_t kMaxKept = 1000;
    std::size_t dropped() const { return dropped_; }
    const std::vector<Diagnostic>& all() const { return items_; }
    std::vector<Diagnostic> errors() const;
    std::vector<Diagnostic> warnings() const;
    // True when some diagnostic's path equals `path` or lies below it.
    bool hasErrorAt(const std::string& path) const;
    void append(const Diagnostics& other);
    // Adds `text` to the last diagnostic's message (e.g. the reason of a limit).
    void amendLast(const std::string& text);

private:
    void add(Diagnostic d);

    std::vector<Diagnostic> items_;
    std::size_t errorCount_ = 0;
    std::size_t dropped_ = 0;
};

// Input quoted in a message, cut to a readable length: "text" when short, else its first
// `maxBytes` bytes (never splitting a UTF-8 character), "..." and its size, so that a 15 MB key
// or CSV cell never fills a terminal.
std::string quoteInput(std::string_view text, std::size_t maxBytes = 60);

// Appends a key or an index to a JSON pointer, escaping '~' and '/' per RFC 6901.
std::string jsonPointerChild(const std::string& parent, const std::string& key);
std::string jsonPointerChild(const std::string& parent, std::size_t index);

} // namespace ts
