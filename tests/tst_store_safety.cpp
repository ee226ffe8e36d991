// The library never loses a committed version: a writer killed with SIGKILL mid-save,
// hundreds of times; several processes saving one scenario at once; a full disk; a
// read-only file. Each on SQLite and, where a server can show it, PostgreSQL.

#include "LibraryWriterContent.h"
#include "StoreFixtures.h"
#include "TestSupport.h"

#include "store/SqliteLibrary.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <set>

using namespace ts;
using namespace ts::store;

namespace {

QString writerPath() {
    return QCoreApplication::applicationDirPath() + "/library_writer";
}

// The version numbers a writer said it committed.
std::vector<int> committedNumbers(const QByteArray& output) {
    std::vector<int> numbers;
    for (const QByteArray& line : output.split('\n'))
        if (line.startsWith("committed "))
            numbers.push_back(line.mid(10).toInt());
    return numbers;
}

// A library holding one scenario to write to; returns its id.
ScenarioId seedLibrary(const std::string& location) {
    auto library = test::openOrFail(location);
    if (!library)
        return 0;
    const std::string text = test::writerScenario(0, 0, 100);
    auto id = library->addScenario("target", text, test::writerNote(0, 0, text), {});
    return id ? *id : 0;
}

// Every version intact (its text matches the hash in its note), numbered 1..N without gaps,
// every number in `committed` present; SQLite: integrity_check says ok. Returns N, or -1.
int verifyLibrary(const std::string& location, ScenarioId id, const std::set<int>& committed) {
    auto library = test::openOrFail(location);
    if (!library)
        return -1;
    if (auto* sqlite = dynamic_cast<SqliteLibrary*>(library.get())) {
        const std::string check = sqlite->integrityCheck();
        if (check != "ok") {
            qWarning("integrity_check: %s", check.c_str());
            return -1;
        }
    }
    auto record = library->record(id);
    if (!record) {
        qWarning("%s", record.error().message.c_str());
        return -1;
    }
    int expected = 1;
    for (const auto& version : record->versions) {
        if (version.info.number != expected++ ||
            !test::noteMatches(version.info.note, version.scenarioJson)) {
            qWarning("version %d is torn or out of order", version.info.number);
            return -1;
        }
    }
    const int count = static_cast<int>(record->versions.size());
    for (int number : committed)
        if (number > count) {
            qWarning("committed version %d is lost (library has %d)", number, count);
            return -1;
        }
    return count;
}

} // namespace

class TestStoreSafety : public QObject {
    Q_OBJECT
private slots:
    void killedWritersLoseNothing_data();
    void killedWritersLoseNothing();
    void concurrentWritersLoseNoUpdate_data() { test::addBackendRows(); }
    void concurrentWritersLoseNoUpdate();
    void fullDiskIsAClearError();
    void readOnlyFileIsAClearError();
    void readOnlyServerIsAClearError();
};

void TestStoreSafety::killedWritersLoseNothing_data() {
    QTest::addColumn<QString>("backend");
    QTest::addColumn<int>("kills");
    QTest::newRow("sqlite") << QStringLiteral("sqlite") << 200;
    QTest::newRow("postgresql") << QStringLiteral("postgresql") << 60;
}

void TestStoreSafety::killedWritersLoseNothing() {
    QFETCH(QString, backend);
    QFETCH(int, kills);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const std::string location = test::freshLibraryLocation(backend, dir);
    const ScenarioId id = seedLibrary(location);
    QVERIFY(id != 0);
    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("kill delays from seed %u", seed);
    QRandomGenerator random(seed);
    std::set<int> committed{1};
    QElapsedTimer timer;
    timer.start();
    int killedMidRun = 0;
    for (int round = 0; round < kills; ++round) {
        QProcess writer;
        writer.start(writerPath(), {"save", QString::fromStdString(location), QString::number(id),
                                    "100000", QString::number(round), "--pad", "20000"});
        QVERIFY2(writer.waitForStarted(), qPrintable(writer.errorString()));
        // Once it is saving (its first commit reported), a kill 0-20 ms later lands anywhere
        // in a save: building the text, inside the transaction, in the commit's fsync.
        writer.waitForReadyRead(10000);
        QThread::usleep(random.bounded(20000));
        killedMidRun += writer.state() == QProcess::Running;
        writer.kill(); // SIGKILL
        QVERIFY(writer.waitForFinished(10000));
        for (int number : committedNumbers(writer.readAllStandardOutput()))
            committed.insert(number);
        if (round % 50 == 49)
            QVERIFY(verifyLibrary(location, id, committed) > 0);
    }
    const int count = verifyLibrary(location, id, committed);
    qInfo("%d kills (%d mid-run) in %.1f s; %zu versions reported committed, %d in the library",
          kills, killedMidRun, timer.elapsed() / 1000.0, committed.size(), count);
    QVERIFY(count > 0);
    QVERIFY(killedMidRun > kills * 9 / 10);
    QVERIFY(committed.size() > static_cast<size_t>(kills)); // each writer got saves through
    // Still a working library.
    auto library = test::openOrFail(location);
    QCOMPARE(*library->saveVersion(id, "{}", "after the kills", count), count + 1);
}

void TestStoreSafety::concurrentWritersLoseNoUpdate() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const std::string location = test::freshLibraryLocation(backend, dir);
    const ScenarioId id = seedLibrary(location);
    QVERIFY(id != 0);
    constexpr int kWriters = 4, kSaves = 25;
    std::vector<std::unique_ptr<QProcess>> writers;
    for (int w = 1; w <= kWriters; ++w) {
        auto process = std::make_unique<QProcess>();
        process->start(writerPath(),
                       {"save", QString::fromStdString(location), QString::number(id),
                        QString::number(kSaves), QString::number(w), "--pad", "3000"});
        writers.push_back(std::move(process));
    }
    std::set<int> committed{1};
    std::size_t reported = 1;
    for (auto& writer : writers) {
        QVERIFY(writer->waitForFinished(120000));
        const QByteArray out = writer->readAllStandardOutput();
        QVERIFY2(writer->exitCode() == 0, out.right(400).constData());
        const auto numbers = committedNumbers(out);
        QCOMPARE(numbers.size(), size_t(kSaves));
        reported += numbers.size();
        committed.insert(numbers.begin(), numbers.end());
    }
    // No two writers were handed one number, and every save is there.
    QCOMPARE(committed.size(), reported);
    QCOMPARE(verifyLibrary(location, id, committed), 1 + kWriters * kSaves);
    auto library = test::openOrFail(location);
    const auto versions = library->versions(id);
    QVERIFY(versions.ok());
    std::set<std::string> notes;
    for (const auto& v : *versions)
        notes.insert(v.note.substr(0, v.note.find(" fnv=")));
    QCOMPARE(notes.size(), size_t(1 + kWriters * kSaves));
}

void TestStoreSafety::fullDiskIsAClearError() {
    QTemporaryDir dir;
    const std::string location = dir.filePath("full.sqlite").toStdString();
    const ScenarioId id = seedLibrary(location);
    QVERIFY(id != 0);
    qint64 used = QFileInfo(QString::fromStdString(location)).size();
    // Files may grow to 300 KB past today's size: a disk that fills up a few saves in.
    QProcess writer;
    writer.start(writerPath(),
                 {"save", QString::fromStdString(location), QString::number(id), "1000", "1",
                  "--pad", "40000", "--fsize-limit", QString::number(used + 300000)});
    QVERIFY(writer.waitForFinished(60000));
    const QByteArray out = writer.readAllStandardOutput();
    QCOMPARE(writer.exitCode(), 3);
    QVERIFY2(out.contains("error DiskFull: ") && out.contains("the disk is full") &&
                 out.contains("nothing was saved"),
             out.right(400).constData());
    const auto numbers = committedNumbers(out);
    QVERIFY(!numbers.empty());
    const std::set<int> committed(numbers.begin(), numbers.end());
    QCOMPARE(verifyLibrary(location, id, committed), numbers.back());
    // With room again, saving goes on.
    auto library = test::openOrFail(location);
    QCOMPARE(*library->saveVersion(id, "{}", "room again", std::nullopt), numbers.back() + 1);
}

void TestStoreSafety::readOnlyFileIsAClearError() {
    QTemporaryDir dir;
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                          QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                          QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                          QFileDevice::ExeGroup);
    const QString path = dir.filePath("readonly.sqlite");
    const ScenarioId id = seedLibrary(path.toStdString());
    QVERIFY(id != 0);
    {
        auto library = test::openOrFail(path.toStdString());
        const std::string text = test::writerScenario(0, 1, 100);
        QVERIFY(library->saveVersion(id, text, test::writerNote(0, 1, text), 1).ok());
    }
    QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup |
                                            QFileDevice::ReadOther));
    // As root the writer reads and writes as nobody, whom the mode binds.
    QProcess writer;
    writer.start(writerPath(), {"readonly", path, QString::number(id)});
    QVERIFY(writer.waitForFinished(30000));
    const QByteArray out = writer.readAllStandardOutput();
    QVERIFY2(writer.exitCode() == 0, out.constData());
    QVERIFY(out.contains("read 2 versions"));
    QVERIFY2(out.contains("error ReadOnly: ") && out.contains("read-only"), out.constData());
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QCOMPARE(verifyLibrary(path.toStdString(), id, {1, 2}), 2);
}

void TestStoreSafety::readOnlyServerIsAClearError() {
    const std::string url = test::postgresTestUrl();
    if (url.empty())
        QSKIP("no PostgreSQL server: set TRAINSCAPE_TEST_POSTGRES_URL (scripts/test.sh)");
    QTemporaryDir dir;
    const ScenarioId id = seedLibrary(test::freshLibraryLocation("postgresql", dir));
    QVERIFY(id != 0);
    // A session that may only read (a standby, or a role with default_transaction_read_only).
    const std::string readOnlyUrl = url + (url.find('?') == std::string::npos ? "?" : "&") +
                                    "options=-c%20default_transaction_read_only%3Don";
    auto library = test::openOrFail(readOnlyUrl);
    QVERIFY(library);
    QCOMPARE(library->versions(id)->size(), size_t(1));
    auto saved = library->saveVersion(id, "{}", "", std::nullopt);
    QVERIFY(!saved.ok());
    QCOMPARE(saved.error().kind, StoreErrorKind::ReadOnly);
    QVERIFY2(saved.error().message.find("read-only") != std::string::npos,
             saved.error().message.c_str());
    QCOMPARE(verifyLibrary(url, id, {1}), 1);
}

QTEST_GUILESS_MAIN(TestStoreSafety)
#include "tst_store_safety.moc"
