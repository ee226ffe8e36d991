#pragma once
// Paths the tests need, from the environment ctest sets (tests/CMakeLists.txt).

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <string>

namespace ts::test {

inline QString envPath(const char* name) {
    const QByteArray value = qgetenv(name);
    return value.isEmpty() ? QString() : QString::fromLocal8Bit(value);
}

inline QString sourceDir() {
    return envPath("TRAINSCAPE_SOURCE_DIR");
}
inline QString binDir() {
    return envPath("TRAINSCAPE_BIN_DIR");
}

inline QString outputDir() {
    QString dir = envPath("TRAINSCAPE_TEST_OUT");
    if (dir.isEmpty())
        dir = QDir::tempPath() + "/trainscape-test-output";
    QDir().mkpath(dir);
    return dir;
}

inline QStringList exampleFiles() {
    QDir dir(sourceDir() + "/resources/examples");
    QStringList files;
    for (const QString& name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

inline std::string readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

} // namespace ts::test
