#pragma once
// Every setting of the desktop application, typed, with its key and default in one place.

#include "Preference.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ts::gui::settings {

inline const Preference<QStringList> recentFiles{"MainWindow/recentFiles"};
inline const Preference<QByteArray> windowGeometry{"MainWindow/geometry"};
inline const Preference<QByteArray> windowState{"MainWindow/state"};
inline const Preference<QString> lastDirectory{"MainWindow/lastDirectory"};
// "" = the system's language; otherwise a locale name such as "zh_CN" or "en".
inline const Preference<QString> language{"Interface/language"};

inline constexpr int kMaxRecentFiles = 8;

} // namespace ts::gui::settings
