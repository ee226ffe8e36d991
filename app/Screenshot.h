#pragma once
// Renders a top-level widget to a PNG without showing it on screen (works under the
// offscreen platform, and under a real one without a window flashing up).

#include <QSize>
#include <QString>

class QWidget;

namespace ts::gui {

inline constexpr QSize kScreenshotSize{1400, 900};

// Resizes `window` to `size`, lays it out, grabs it and writes `path` as PNG. Returns false
// with `error` set when the image cannot be written.
bool saveScreenshot(QWidget& window, const QString& path, QString* error,
                    QSize size = kScreenshotSize);

} // namespace ts::gui
