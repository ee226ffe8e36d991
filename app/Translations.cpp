#include "Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace ts::gui {

namespace {

// Owned by the application object, so they live exactly as long as it does.
QTranslator* appTranslator = nullptr;
QTranslator* qtTranslator = nullptr;

void drop(QTranslator*& translator) {
    if (!translator)
        return;
    QCoreApplication::removeTranslator(translator);
    delete translator;
    translator = nullptr;
}

} // namespace

void removeTranslations() {
    drop(appTranslator);
    drop(qtTranslator);
}

bool installTranslations(const QString& language) {
    removeTranslations();
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);

    auto* qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        qtTranslator = qt;
    } else {
        delete qt;
    }

    auto* app = new QTranslator(QCoreApplication::instance());
    if (!app->load(locale, QStringLiteral("trainscape"), QStringLiteral("_"),
                   QStringLiteral(":/i18n"))) {
        delete app;
        return false;
    }
    QCoreApplication::installTranslator(app);
    appTranslator = app;
    return true;
}

} // namespace ts::gui
