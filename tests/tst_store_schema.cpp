// The library's files and schema: migrations from every older schema (the first one on),
// refusal of files that are not libraries or are damaged (left byte for byte untouched), a
// newer schema refused, WAL and foreign keys, backup, the default XDG location, and
// PostgreSQL passwords kept out of every message.

#include "StoreFixtures.h"
#include "TestSupport.h"

#include "store/LibraryBundle.h"
#include "store/SqliteLibrary.h"
#include "store/SqliteSchema.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace ts;
using namespace ts::store;

namespace {

QByteArray fileHash(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

bool exec(sqlite3* db, const char* sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    if (rc != SQLITE_OK)
        qWarning("%s: %s", sql, error ? error : "?");
    sqlite3_free(error);
    return rc == SQLITE_OK;
}

// A library file stopped at `schema`, holding what that schema can hold.
bool makeOldSqliteLibrary(const std::string& path, int schema) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        return false;
    bool ok = sqlite::migrate(db, 0, schema).ok() &&
              exec(db, "INSERT INTO scenarios VALUES (7, 'old one', '2025-01-02T03:04:05.000Z');"
                       "INSERT INTO versions VALUES (7, 1, '2025-01-02T03:04:05.000Z', 'n1', "
                       "'{\"format\": \"trainscape.scenario/1\"}');"
                       "INSERT INTO versions VALUES (7, 2, '2025-01-03T03:04:05.000Z', 'n2', "
                       "'{\"format\": \"trainscape.scenario/1\", \"name\": \"x\"}');");
    if (ok && schema >= 2)
        ok = exec(db, "INSERT INTO tags VALUES (7, 'legacy')");
    sqlite3_close(db);
    return ok;
}

bool makeOldPostgresLibrary(const std::string& url, int schema) {
    auto fresh = PostgresLibrary::open(url);
    if (!fresh || !fresh.value()->dropAll().ok())
        return false;
    fresh.value().reset();
    auto old = PostgresLibrary::open(url, schema);
    if (!old || old.value()->schemaVersion() != schema)
        return false;
    auto id = old.value()->addScenario("old one", R"({"format": "trainscape.scenario/1"})", "n1",
                                       schema >= 2 ? std::vector<std::string>{"legacy"}
                                                   : std::vector<std::string>{});
    return id.ok() && old.value()->saveVersion(*id, R"({"name": "x"})", "n2", 1).ok();
}

} // namespace

class TestStoreSchema : public QObject {
    Q_OBJECT
private slots:
    void migratesFromEverySchema_data();
    void migratesFromEverySchema();
    void refusesFilesThatAreNotLibraries_data();
    void refusesFilesThatAreNotLibraries();
    void refusesDamagedLibrary();
    void refusesNewerSchema();
    void walAndForeignKeys();
    void backup_data() { test::addBackendRows(); }
    void backup();
    void defaultLocationFollowsXdg();
    void postgresPasswordsAreNeverShown();
};

void TestStoreSchema::migratesFromEverySchema_data() {
    QTest::addColumn<QString>("backend");
    QTest::addColumn<int>("schema");
    for (const QString& backend : {QStringLiteral("sqlite"), QStringLiteral("postgresql")})
        for (int schema = 1; schema < sqlite::kSchemaVersion; ++schema)
            QTest::addRow("%s-from-%d", qPrintable(backend), schema) << backend << schema;
}

void TestStoreSchema::migratesFromEverySchema() {
    QFETCH(QString, backend);
    QFETCH(int, schema);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    std::string location = test::postgresTestUrl();
    if (backend == "sqlite") {
        location = dir.filePath("old.sqlite").toStdString();
        QVERIFY(makeOldSqliteLibrary(location, schema));
    } else {
        QVERIFY(makeOldPostgresLibrary(location, schema));
    }
    auto library = test::openOrFail(location);
    QVERIFY(library);
    QCOMPARE(library->schemaVersion(), sqlite::kSchemaVersion);
    auto list = library->listScenarios();
    QVERIFY(list.ok());
    QCOMPARE(list->size(), size_t(1));
    const ScenarioId id = list->front().id;
    QCOMPARE(list->front().name, std::string("old one"));
    QCOMPARE(list->front().versionCount, 2);
    QCOMPARE(library->version(id, 1)->info.note, std::string("n1"));
    QCOMPARE(list->front().tags,
             schema >= 2 ? std::vector<std::string>{"legacy"} : std::vector<std::string>{});
    // What the newer steps added works on the upgraded library.
    QVERIFY(library->addTag(id, "upgraded").ok());
    QVERIFY(library->storeEstimate(id, 2, {"e", "{}", ""}).ok());
    QCOMPARE(*library->saveVersion(id, "{}", "after upgrade", 2), 3);
    // Opening again changes nothing.
    library.reset();
    library = test::openOrFail(location);
    QCOMPARE(library->versions(id)->size(), size_t(3));
}

void TestStoreSchema::refusesFilesThatAreNotLibraries_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("text") << QByteArray("{\"format\": \"trainscape.scenario/1\"}\n")
                          << "not an SQLite database";
    QTest::newRow("short") << QByteArray("SQLite format 3") << "not an SQLite database";
    QTest::newRow("binary") << QByteArray(4096, '\x7f') << "not an SQLite database";
    QTest::newRow("another-program") << QByteArray() << "of another program";
}

void TestStoreSchema::refusesFilesThatAreNotLibraries() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath("file.db");
    if (bytes.isEmpty()) { // another program's SQLite database
        sqlite3* db = nullptr;
        sqlite3_open(path.toUtf8().constData(), &db);
        QVERIFY(exec(db, "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT);"
                         "INSERT INTO photos VALUES (1, 'cat');"));
        sqlite3_close(db);
    } else {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    const QByteArray before = fileHash(path);
    auto library = SqliteLibrary::open(path.toStdString());
    QVERIFY(!library.ok());
    QCOMPARE(library.error().kind, StoreErrorKind::NotALibrary);
    QVERIFY2(QString::fromStdString(library.error().message).contains(expected),
             library.error().message.c_str());
    QVERIFY(library.error().message.find("left untouched") != std::string::npos);
    QCOMPARE(fileHash(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"file.db"}); // no -wal, -shm
}

void TestStoreSchema::refusesDamagedLibrary() {
    QTemporaryDir dir;
    const QString path = dir.filePath("damaged.sqlite");
    {
        auto library = test::openOrFail(path.toStdString());
        QVERIFY(library);
        std::string padded = R"({"pad": ")";
        padded.append(3000, 'x').append(R"("})");
        for (int i = 0; i < 40; ++i)
            QVERIFY(library->addScenario(std::to_string(i), padded, "", {"t"}).ok());
    }
    // Scribble over the pages after the first (the header stays a library's).
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.size() > 16384);
    for (qint64 at = 4096; at < file.size(); at += 4096) {
        file.seek(at + 8);
        file.write(QByteArray(300, '\xa5'));
    }
    file.close();
    const QByteArray before = fileHash(path);
    auto library = SqliteLibrary::open(path.toStdString());
    QVERIFY(!library.ok());
    QCOMPARE(library.error().kind, StoreErrorKind::Corrupt);
    QVERIFY2(library.error().message.find("damaged") != std::string::npos ||
                 library.error().message.find("malformed") != std::string::npos,
             library.error().message.c_str());
    QCOMPARE(fileHash(path), before);
}

void TestStoreSchema::refusesNewerSchema() {
    QTemporaryDir dir;
    const QString path = dir.filePath("future.sqlite");
    QVERIFY(test::openOrFail(path.toStdString()));
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    QVERIFY(exec(db, "PRAGMA user_version = 99"));
    sqlite3_close(db);
    const QByteArray before = fileHash(path);
    auto library = SqliteLibrary::open(path.toStdString());
    QVERIFY(!library.ok());
    QCOMPARE(library.error().kind, StoreErrorKind::TooNew);
    QVERIFY(library.error().message.find("newer Trainscape (schema 99") != std::string::npos);
    QCOMPARE(fileHash(path), before);
}

void TestStoreSchema::walAndForeignKeys() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("wal.sqlite").toStdString();
    auto library = test::openOrFail(path);
    QVERIFY(library);
    auto id = library->addScenario("a", "{}", "", {"t"});
    QVERIFY(library->storeEstimate(*id, 1, {"e", "{}", ""}).ok());
    QVERIFY(library->removeScenario(*id).ok());
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    auto scalar = [&](const char* sql) {
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
        std::string out;
        if (sqlite3_step(stmt) == SQLITE_ROW)
            out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        sqlite3_finalize(stmt);
        return out;
    };
    QCOMPARE(scalar("PRAGMA journal_mode"), std::string("wal"));
    QCOMPARE(scalar("PRAGMA application_id"), std::to_string(sqlite::kApplicationId));
    // The delete cascaded through the foreign keys: nothing is left behind.
    QCOMPARE(scalar("SELECT (SELECT COUNT(*) FROM versions) + (SELECT COUNT(*) FROM tags) + "
                    "(SELECT COUNT(*) FROM estimates)"),
             std::string("0"));
    sqlite3_close(db);
    // A version of a missing scenario is refused by the foreign key.
    ScenarioRecord orphan = firstVersionRecord("x", "{}", "", {});
    orphan.estimates.push_back({2, {"e", "{}", "t"}}); // no version 2
    QVERIFY(!library->insertRecord(orphan).ok());
    QCOMPARE(library->listScenarios()->size(), size_t(0)); // and rolled back whole
}

void TestStoreSchema::backup() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    auto library = test::openOrFail(test::freshLibraryLocation(backend, dir));
    QVERIFY(library);
    auto id = library->addScenario("kept", "{\"a\": 1}", "n", {"t"});
    QVERIFY(library->saveVersion(*id, "{\"a\": 2}", "m", 1).ok());
    const std::string copy = dir.filePath("backup.out").toStdString();
    auto done = library->backup(copy);
    QVERIFY2(done.ok(), done.error().message.c_str());
    std::unique_ptr<Library> restored;
    if (backend == "sqlite") {
        restored = test::openOrFail(copy);
        QVERIFY(restored);
        QCOMPARE(static_cast<SqliteLibrary&>(*restored).integrityCheck(), std::string("ok"));
    } else { // a bundle, imported into a new file
        restored = test::openOrFail(dir.filePath("restored.sqlite").toStdString());
        QVERIFY(importBundle(*restored, test::readAll(QString::fromStdString(copy))).ok());
    }
    auto list = restored->listScenarios();
    QCOMPARE(list->size(), size_t(1));
    QCOMPARE(list->front().tags, std::vector<std::string>{"t"});
    QCOMPARE(nlohmann::json::parse(restored->version(list->front().id, 2)->scenarioJson),
             nlohmann::json::parse("{\"a\": 2}"));
}

void TestStoreSchema::defaultLocationFollowsXdg() {
    const QByteArray savedData = qgetenv("XDG_DATA_HOME");
    const QByteArray savedHome = qgetenv("HOME");
    qputenv("XDG_DATA_HOME", "/srv/data");
    QCOMPARE(defaultLibraryPath(), std::string("/srv/data/trainscape/library.sqlite"));
    qputenv("XDG_DATA_HOME", "relative/ignored"); // the spec: only absolute paths count
    qputenv("HOME", "/home/ada");
    QCOMPARE(defaultLibraryPath(), std::string("/home/ada/.local/share/trainscape/library.sqlite"));
    qunsetenv("XDG_DATA_HOME");
    QCOMPARE(defaultLibraryPath(), std::string("/home/ada/.local/share/trainscape/library.sqlite"));
    // The folder is created on first use.
    QTemporaryDir dir;
    qputenv("XDG_DATA_HOME", dir.path().toUtf8());
    QVERIFY(test::openOrFail(defaultLibraryPath()));
    QVERIFY(QFile::exists(dir.filePath("trainscape/library.sqlite")));
    if (savedData.isNull())
        qunsetenv("XDG_DATA_HOME");
    else
        qputenv("XDG_DATA_HOME", savedData);
    qputenv("HOME", savedHome);
}

void TestStoreSchema::postgresPasswordsAreNeverShown() {
    QCOMPARE(redactPostgresUrl("postgresql://ada:s3cret@db.lab:5432/lib"),
             std::string("postgresql://ada@db.lab:5432/lib"));
    QCOMPARE(redactPostgresUrl("postgresql://ada@db.lab/lib"),
             std::string("postgresql://ada@db.lab/lib"));
    QCOMPARE(redactPostgresUrl("postgresql:///lib?host=/tmp"),
             std::string("postgresql:///lib?host=/tmp"));
    // A server that is not there: the message names the host, not the password.
    auto refused = openLibrary("postgresql://ada:Pa55-word-XYZ@/lib?host=/nonexistent-dir");
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, StoreErrorKind::Connection);
    QVERIFY(refused.error().message.find("Pa55-word-XYZ") == std::string::npos);
    const std::string url = test::postgresTestUrl();
    if (url.empty())
        QSKIP("no PostgreSQL server: set TRAINSCAPE_TEST_POSTGRES_URL (scripts/test.sh)");
    auto library = test::openOrFail(url);
    QVERIFY(library);
    const auto colon = url.find(':', std::string("postgresql://").size());
    const std::string password = url.substr(colon + 1, url.find('@') - colon - 1);
    QVERIFY(password.size() >= 8);
    QVERIFY(library->location().find(password) == std::string::npos);
    // A wrong password is refused without repeating either.
    std::string wrong = url;
    wrong.replace(colon + 1, password.size(), "Wr0ng-pw-123");
    auto denied = openLibrary(wrong);
    QVERIFY(!denied.ok());
    QVERIFY(denied.error().message.find("Wr0ng-pw-123") == std::string::npos);
    QVERIFY(denied.error().message.find(password) == std::string::npos);
}

QTEST_GUILESS_MAIN(TestStoreSchema)
#include "tst_store_schema.moc"
