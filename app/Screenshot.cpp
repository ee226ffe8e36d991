#include "Screenshot.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QPixmap>
#include <QWidget>

namespace ts::gui {

bool saveScreenshot(QWidget& window, const QString& path, QString* error, QSize size) {
    window.resize(size);
    if (!window.isVisible()) {
        window.setAttribute(Qt::WA_DontShowOnScreen);
        window.show();
    }
    // Let layouts, dock sizes and deferred polish settle before grabbing.
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    const QPixmap shot = window.grab();

    QImageWriter writer(path, "png");
    if (shot.isNull() || !writer.write(shot.toImage())) {
        if (error)
            *error = shot.isNull() ? QStringLiteral("the window rendered an empty image")
                                   : writer.errorString();
        return false;
    }
    return true;
}

} // namespace ts::gui
