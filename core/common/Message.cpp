#include "common/Message.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace ts {

namespace {

struct Entry {
    std::string_view key;
    std::string_view english;
};

constexpr std::array kEntries{
    Entry{"", ""},
#define TS_MESSAGE(name, key, english) Entry{key, english},
#include "common/Messages.def"
#undef TS_MESSAGE
};

const Entry& entry(MessageId id) {
    const auto index = static_cast<std::size_t>(id);
    return index < kEntries.size() ? kEntries[index] : kEntries[0];
}

} // namespace

Message message(MessageId id, std::vector<std::string> args) {
    assert(placeholderCount(messageTemplate(id)) == int(args.size()));
    Message m;
    m.id = id;
    m.english = fillPlaceholders(messageTemplate(id), args);
    m.args = std::move(args);
    return m;
}

Message plainMessage(std::string english) {
    Message m;
    m.english = std::move(english);
    return m;
}

std::string_view messageKey(MessageId id) {
    return entry(id).key;
}

std::string_view messageTemplate(MessageId id) {
    return entry(id).english;
}

const std::vector<MessageId>& allMessageIds() {
    static const std::vector<MessageId> ids = [] {
        std::vector<MessageId> out;
        for (std::size_t i = 1; i < kEntries.size(); ++i)
            out.push_back(static_cast<MessageId>(i));
        return out;
    }();
    return ids;
}

int placeholderCount(std::string_view text) {
    int highest = 0;
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '%' && text[i + 1] >= '1' && text[i + 1] <= '9')
            highest = std::max(highest, text[i + 1] - '0');
    return highest;
}

std::string fillPlaceholders(std::string_view text, const std::vector<std::string>& args) {
    std::string out;
    out.reserve(text.size() + 16 * args.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 1 < text.size() && text[i + 1] >= '1' && text[i + 1] <= '9') {
            const std::size_t n = std::size_t(text[i + 1] - '1');
            if (n < args.size()) {
                out += args[n];
                ++i;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

} // namespace ts
