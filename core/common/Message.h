#pragma once
// A user-facing message of the core with a stable id: the English text the command line
// prints, and the arguments a translation places at %1, %2, ... The desktop app maps each
// id to a translated template and falls back to `english` for a message without one. Every
// id is listed once in common/Messages.def, so a test can prove that each has a translation.

#include <string>
#include <string_view>
#include <vector>

namespace ts {

enum class MessageId : int {
    None, // free text: no template, shown as `english` in every language
#define TS_MESSAGE(name, key, english) name,
#include "common/Messages.def"
#undef TS_MESSAGE
};

struct Message {
    MessageId id = MessageId::None;
    std::vector<std::string> args; // %1, %2, ... of the template, already formatted
    std::string english;

    bool operator==(const Message&) const = default;
};

// The message `id` with `args` put into its English template.
Message message(MessageId id, std::vector<std::string> args = {});
// A message without an id (a text from outside the core's own list, e.g. a catalog note).
Message plainMessage(std::string english);

// The stable id ("estimate.does_not_fit"); "" for MessageId::None.
std::string_view messageKey(MessageId id);
// The English template with its %1.. placeholders; "" for MessageId::None.
std::string_view messageTemplate(MessageId id);
// Every id the core can emit (not None), in the order of Messages.def.
const std::vector<MessageId>& allMessageIds();
// The highest placeholder number in `text` (0 for none).
int placeholderCount(std::string_view text);

// `text` with each %N (N = 1..9) replaced by args[N-1], in one pass: an argument that itself
// holds "%2" is not replaced again. A %N without an argument, and a '%' before anything but a
// digit 1..9, stay as they are.
std::string fillPlaceholders(std::string_view text, const std::vector<std::string>& args);

} // namespace ts
