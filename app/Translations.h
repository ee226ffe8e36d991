#pragma once
// The UI language: Trainscape's own translations (embedded at :/i18n by
// qt_add_translations) plus Qt's, where the system has them for the standard dialogs.

#include <QString>

namespace ts::gui {

// Installs the translators for `language` ("zh_CN"; empty = QLocale::system()), replacing
// any installed before, so every window receives QEvent::LanguageChange. Returns true when
// Trainscape's translation for that language was found; English needs none.
bool installTranslations(const QString& language);

// Back to the source language (English).
void removeTranslations();

} // namespace ts::gui
