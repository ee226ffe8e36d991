#include "common/Diagnostics.h"

#include <algorithm>

namespace ts {

std::string quoteInput(std::string_view text, std::size_t maxBytes) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "\"" + std::string(...).
    std::string out;
    out.reserve(std::min(text.size(), maxBytes) + 32);
    out += '"';
    if (text.size() <= maxBytes) {
        out.append(text);
        out += '"';
        return out;
    }
    std::size_t cut = maxBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    out.append(text.substr(0, cut));
    out.append("...\" (");
    out.append(std::to_string(text.size()));
    out.append(" bytes)");
    return out;
}

std::string Diagnostic::toString() const {
    const char* kind = severity == Severity::Error ? "error" : "warning";
    return std::string(kind) + ": " + (path.empty() ? std::string("/") : path) + ": " + message;
}

void Diagnostics::add(Diagnostic d) {
    if (d.severity == Severity::Error)
        ++errorCount_;
    if (items_.size() >= kMaxKept) {
        ++dropped_;
        return;
    }
    items_.push_back(std::move(d));
}

void Diagnostics::error(std::string path, std::string message) {
    error(std::move(path), plainMessage(std::move(message)));
}

void Diagnostics::warning(std::string path, std::string message) {
    warning(std::move(path), plainMessage(std::move(message)));
}

void Diagnostics::error(std::string path, Message message) {
    Diagnostic d;
    d.path = std::move(path);
    d.message = std::move(message.english);
    d.id = message.id;
    d.args = std::move(message.args);
    add(std::move(d));
}

void Diagnostics::warning(std::string path, Message message) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.path = std::move(path);
    d.message = std::move(message.english);
    d.id = message.id;
    d.args = std::move(message.args);
    add(std::move(d));
}

void Diagnostics::amendLast(const std::string& text) {
    if (!items_.empty()) {
        items_.back().message += text;
        items_.back().amendment += text;
    }
}

std::vector<Diagnostic> Diagnostics::errors() const {
    std::vector<Diagnostic> out;
    for (const auto& d : items_)
        if (d.severity == Severity::Error)
            out.push_back(d);
    return out;
}

std::vector<Diagnostic> Diagnostics::warnings() const {
    std::vector<Diagnostic> out;
    for (const auto& d : items_)
        if (d.severity == Severity::Warning)
            out.push_back(d);
    return out;
}

bool Diagnostics::hasErrorAt(const std::string& path) const {
    for (const auto& d : items_) {
        if (d.severity != Severity::Error)
            continue;
        if (d.path == path ||
            (d.path.size() > path.size() && d.path.compare(0, path.size(), path) == 0 &&
             d.path[path.size()] == '/'))
            return true;
    }
    return false;
}

void Diagnostics::append(const Diagnostics& other) {
    for (const auto& d : other.items_)
        add(d);
    // Errors the other dropped still count.
    errorCount_ += other.errorCount_ - other.errors().size();
    dropped_ += other.dropped_;
}

std::string jsonPointerChild(const std::string& parent, const std::string& key) {
    std::string escaped;
    escaped.reserve(key.size());
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return parent + "/" + escaped;
}

std::string jsonPointerChild(const std::string& parent, std::size_t index) {
    return parent + "/" + std::to_string(index);
}

} // namespace ts
