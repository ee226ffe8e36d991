#pragma once
// The library tests run the same cases on both backends: SQLite in a temporary folder, and
// PostgreSQL at $TRAINSCAPE_TEST_POSTGRES_URL (scripts/test.sh starts a throwaway server and
// sets it; without it the PostgreSQL rows are skipped, saying why).

#include "store/Library.h"
#include "store/PostgresLibrary.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <string>

namespace ts::test {

inline constexpr const char* kPostgresUrlEnv = "TRAINSCAPE_TEST_POSTGRES_URL";

inline std::string postgresTestUrl() {
    return qEnvironmentVariable(kPostgresUrlEnv).toStdString();
}

// One data row per backend: the column "backend" is "sqlite" or "postgresql".
inline void addBackendRows() {
    QTest::addColumn<QString>("backend");
    QTest::newRow("sqlite") << QStringLiteral("sqlite");
    QTest::newRow("postgresql") << QStringLiteral("postgresql");
}

// Where a fresh library of `backend` lives: a new file in `dir`, or the test server's
// database, emptied.
inline std::string freshLibraryLocation(const QString& backend, const QTemporaryDir& dir,
                                        const char* name = "library.sqlite") {
    if (backend == "sqlite")
        return dir.filePath(name).toStdString();
    const std::string url = postgresTestUrl();
    auto library = store::PostgresLibrary::open(url);
    if (library)
        library.value()->dropAll();
    return url;
}

// Skips the row when its backend is not available here.
#define TS_REQUIRE_BACKEND(backend)                                                                \
    do {                                                                                           \
        if ((backend) == "postgresql" && ts::test::postgresTestUrl().empty())                      \
            QSKIP("no PostgreSQL server: set TRAINSCAPE_TEST_POSTGRES_URL (scripts/test.sh "       \
                  "starts one)");                                                                  \
    } while (0)

inline std::unique_ptr<store::Library> openOrFail(const std::string& location) {
    auto library = store::openLibrary(location);
    if (!library) {
        qWarning("cannot open %s: %s", location.c_str(), library.error().message.c_str());
        return nullptr;
    }
    return std::move(*library);
}

} // namespace ts::test
