#pragma once
// The core's messages (common/Message.h) in the user's language: each message id maps to a
// template of this file, translated under the context "CoreMessage", with %1.. for the
// message's arguments. A message without an id, or with an id this file lacks, shows its
// English text.

#include "common/Diagnostics.h"
#include "common/Message.h"

#include <QString>

#include <string_view>

namespace ts::gui {

QString messageText(const Message& message);
// A diagnostic's message, translated, with any English amendment after it.
QString diagnosticText(const Diagnostic& diagnostic);

// The untranslated template this file holds for a stable id ("estimate.does_not_fit"); null
// when it holds none. (For the completeness test.)
const char* messageSourceText(std::string_view key);

} // namespace ts::gui
