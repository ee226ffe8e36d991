#include "common/Diagnostics.h"

namespace ts {

std::string Diagnostic::toString() const {
    const char* kind = severity == Severity::Error ? "error" : "warning";
    return std::string(kind) + ": " + (path.empty() ? std::string("/") : path) + ": " + message;
}

void Diagnostics::error(std::string path, std::string message) {
    items_.push_back({Severity::Error, std::move(path), std::move(message)});
    ++errorCount_;
}

void Diagnostics::warning(std::string path, std::string message) {
    items_.push_back({Severity::Warning, std::move(path), std::move(message)});
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
    for (const auto& d : other.items_) {
        items_.push_back(d);
        if (d.severity == Severity::Error)
            ++errorCount_;
    }
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
