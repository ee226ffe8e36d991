#pragma once
// What tests/library_writer saves, so that a test can tell an intact version from a torn one:
// each version's note carries the FNV-1a hash of its scenario text (no Qt: the writer is a
// plain core program).

#include <cstdint>
#include <cstdio>
#include <string>

namespace ts::test {

inline std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t hash = 1469598103934665603ull; // FNV-1a 64-bit offset basis and prime
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

inline std::string writerScenario(int writer, int save, std::size_t padBytes) {
    char head[96];
    std::snprintf(head, sizeof head,
                  R"({"format": "trainscape.scenario/1", "name": "w%d-%d", "pad": ")", writer,
                  save);
    std::string text = head;
    for (std::size_t i = 0; i < padBytes; ++i)
        text += static_cast<char>('a' + (i * 7 + static_cast<std::size_t>(save)) % 26);
    text += "\"}\n";
    return text;
}

inline std::string writerNote(int writer, int save, const std::string& text) {
    char note[96];
    std::snprintf(note, sizeof note, "w%d s%d fnv=%016llx", writer, save,
                  static_cast<unsigned long long>(fnv1a(text)));
    return note;
}

// True when `note` is writerNote(..., text) for the text.
inline bool noteMatches(const std::string& note, const std::string& text) {
    const auto at = note.find(" fnv=");
    if (at == std::string::npos)
        return false;
    char hash[32];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
    return note.substr(at + 5) == hash;
}

} // namespace ts::test
