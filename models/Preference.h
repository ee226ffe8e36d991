#pragma once
// A typed setting (Tiled's Preference<T>): one key and its default, declared once, so that
// no string lookups into QSettings are scattered over the code.
//
//     inline Preference<QString> language{"Interface/language", QString()};
//     language.set("zh_CN");  QString l = language;

#include <QSettings>
#include <QString>
#include <QVariant>

namespace ts::gui {

template <class T> class Preference {
public:
    Preference(const char* key, T defaultValue = T())
        : key_(QString::fromLatin1(key)), default_(std::move(defaultValue)) {}

    T get() const {
        const QVariant value = QSettings().value(key_);
        return value.isValid() && value.canConvert<T>() ? value.value<T>() : default_;
    }
    operator T() const { return get(); }
    void set(const T& value) const { QSettings().setValue(key_, QVariant::fromValue(value)); }
    void clear() const { QSettings().remove(key_); }
    const QString& key() const { return key_; }

private:
    QString key_;
    T default_;
};

} // namespace ts::gui
