// trainscape-cli library ... and report, as a user runs them, on an SQLite file and on the
// PostgreSQL test server: exit codes, --json shapes, --db and $TRAINSCAPE_LIBRARY.

#include "StoreFixtures.h"
#include "TestSupport.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
    json doc() const { return json::parse(out.toStdString(), nullptr, false); }
};

Run cli(const QStringList& args, const QString& envLibrary = {}) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("TRAINSCAPE_LIBRARY");
    if (!envLibrary.isEmpty())
        env.insert("TRAINSCAPE_LIBRARY", envLibrary);
    process.setProcessEnvironment(env);
    process.start(ts::test::binDir() + "/trainscape-cli", args);
    Run run;
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        run.err = "timed out";
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QString example(const char* name) {
    return ts::test::sourceDir() + "/resources/examples/" + name;
}

} // namespace

class TestCliLibrary : public QObject {
    Q_OBJECT
private slots:
    void addListShowVersions_data() { ts::test::addBackendRows(); }
    void addListShowVersions();
    void diffTagRemove_data() { ts::test::addBackendRows(); }
    void diffTagRemove();
    void exportImportBackup_data() { ts::test::addBackendRows(); }
    void exportImportBackup();
    void reportFromLibraryIds_data() { ts::test::addBackendRows(); }
    void reportFromLibraryIds();
    void badInput();
};

void TestCliLibrary::addListShowVersions() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const QString db = QString::fromStdString(ts::test::freshLibraryLocation(backend, dir));
    Run add = cli({"library", "--db", db, "add", example("llama3-70b-64xh100.json"), "--note",
                   "TP 8", "--tag", "h100", "--json"});
    QVERIFY2(add.exitCode == 0, qPrintable(add.err));
    QCOMPARE(add.doc()["version"], 1);
    const int id = add.doc()["id"];
    // The option may follow the subcommand; the environment variable works too.
    QCOMPARE(cli({"library", "add", example("llama3-8b-8xh100.json"), "--db", db}).exitCode, 0);
    Run again = cli({"library", "add", example("llama3-70b-64xh100.json"), "--to",
                     QString::number(id), "--based-on", "1", "--note", "v2"},
                    db);
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    Run stale = cli({"library", "add", example("llama3-70b-64xh100.json"), "--to",
                     QString::number(id), "--based-on", "1"},
                    db);
    QCOMPARE(stale.exitCode, 1);
    QVERIFY(stale.err.contains("changed by another process"));

    Run list = cli({"library", "list", "--json"}, db);
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(list.doc()["scenarios"].size(), size_t(2));
    QCOMPARE(list.doc()["scenarios"][0]["latest_version"], 2);
    QCOMPARE(list.doc()["scenarios"][0]["tags"], json::array({"h100"}));
    if (backend == "postgresql") { // the location it prints carries no password
        const QString url = QString::fromStdString(ts::test::postgresTestUrl());
        const QString password = url.section('@', 0, 0).section(':', 2);
        QVERIFY(password.size() >= 8);
        QVERIFY(!list.out.contains(password));
    }
    Run search = cli({"library", "list", "--json", "--search", "8b"}, db);
    QCOMPARE(search.doc()["scenarios"].size(), size_t(1));

    Run versions = cli({"library", "versions", QString::number(id), "--json"}, db);
    QCOMPARE(versions.exitCode, 0);
    QCOMPARE(versions.doc()["versions"].size(), size_t(2));
    QCOMPARE(versions.doc()["versions"][1]["note"], "v2");
    Run show = cli({"library", "show", QString::number(id), "--version", "1"}, db);
    QCOMPARE(show.exitCode, 0);
    QCOMPARE(json::parse(show.out.toStdString()),
             json::parse(ts::test::readAll(example("llama3-70b-64xh100.json"))));
    // The estimate: computed and cached once, then read from the cache.
    Run first = cli({"library", "show", QString::number(id), "--estimate"}, db);
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    QVERIFY(first.err.contains("computed and cached"));
    QCOMPARE(first.doc()["format"], "trainscape.estimate/1");
    Run cached = cli({"library", "show", QString::number(id), "--estimate"}, db);
    QVERIFY(cached.err.contains("from the cache"));
    QCOMPARE(cached.doc(), first.doc());
}

void TestCliLibrary::diffTagRemove() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const QString db = QString::fromStdString(ts::test::freshLibraryLocation(backend, dir));
    QCOMPARE(cli({"library", "add", example("llama3-70b-64xh100.json")}, db).exitCode, 0);
    QCOMPARE(cli({"library", "add", example("llama3-8b-8xh100.json")}, db).exitCode, 0);
    Run diff = cli({"library", "diff", "1@1", "2", "--json"}, db);
    QVERIFY2(diff.exitCode == 0, qPrintable(diff.err));
    bool tp = false;
    const json changes = diff.doc()["changes"];
    for (const auto& change : changes)
        tp = tp || change["key"] == "parallelism.tp";
    QVERIFY(tp);
    QCOMPARE(cli({"library", "diff", "1", "1", "--json"}, db).doc()["changes"].size(), size_t(0));
    QCOMPARE(cli({"library", "tag", "2", "small", "fsdp"}, db).exitCode, 0);
    QCOMPARE(cli({"library", "tag", "2", "fsdp", "--remove"}, db).exitCode, 0);
    QCOMPARE(cli({"library", "list", "--json"}, db).doc()["scenarios"][1]["tags"],
             json::array({"small"}));
    QCOMPARE(cli({"library", "rm", "1"}, db).exitCode, 0);
    Run gone = cli({"library", "show", "1"}, db);
    QCOMPARE(gone.exitCode, 2);
    QVERIFY(gone.err.contains("no scenario with id 1"));
}

void TestCliLibrary::exportImportBackup() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const QString db = QString::fromStdString(ts::test::freshLibraryLocation(backend, dir));
    QCOMPARE(cli({"library", "add", example("llama3-70b-64xh100.json"), "--tag", "a"}, db).exitCode,
             0);
    QCOMPARE(cli({"library", "add", example("llama3-8b-8xh100.json")}, db).exitCode, 0);
    const QString bundle = dir.filePath("bundle.json");
    QCOMPARE(cli({"library", "export", "--out", bundle}, db).exitCode, 0);
    const json doc = json::parse(ts::test::readAll(bundle));
    QCOMPARE(doc["format"], "trainscape.library-bundle/1");
    QCOMPARE(doc["scenarios"].size(), size_t(2));
    const QString one = dir.filePath("one.json");
    QCOMPARE(cli({"library", "export", "2", "--out", one}, db).exitCode, 0);
    QCOMPARE(json::parse(ts::test::readAll(one))["scenarios"].size(), size_t(1));
    // Into a second library file.
    const QString other = dir.filePath("other.sqlite");
    Run imported = cli({"library", "--db", other, "import", bundle, "--json"});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    QCOMPARE(imported.doc()["ids"].size(), size_t(2));
    QCOMPARE(cli({"library", "list", "--json"}, other).doc()["scenarios"][0]["tags"],
             json::array({"a"}));
    const QString copy = dir.filePath("backup.out");
    QCOMPARE(cli({"library", "backup", "--out", copy}, db).exitCode, 0);
    QVERIFY(QFileInfo(copy).size() > 0);
}

void TestCliLibrary::reportFromLibraryIds() {
    QFETCH(QString, backend);
    TS_REQUIRE_BACKEND(backend);
    QTemporaryDir dir;
    const QString db = QString::fromStdString(ts::test::freshLibraryLocation(backend, dir));
    QCOMPARE(cli({"library", "add", example("llama3-70b-64xh100.json")}, db).exitCode, 0);
    const QString md = dir.filePath("r.md");
    Run report = cli({"report", "1@1", example("llama3-8b-8xh100.json"), "--format", "md", "--out",
                      md, "--db", db});
    QVERIFY2(report.exitCode == 0, qPrintable(report.err));
    const QString text = QString::fromStdString(ts::test::readAll(md));
    QVERIFY(text.contains("library 1 version 1"));
    QVERIFY(text.contains("Llama 3 8B"));
    const QString csv = dir.filePath("r.csv");
    QCOMPARE(cli({"report", "1", "1", "--format", "csv", "--out", csv}, db).exitCode, 0);
    QVERIFY(ts::test::readAll(csv).rfind("section,figure,unit,differs", 0) == 0);
    Run missing = cli({"report", "1", "7", "--out", dir.filePath("x.html")}, db);
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("no scenario with id 7"));
    QVERIFY(!QFile::exists(dir.filePath("x.html")));
}

void TestCliLibrary::badInput() {
    QTemporaryDir dir;
    const QString db = dir.filePath("lib.sqlite");
    const QString notALibrary = dir.filePath("notes.txt");
    QFile file(notALibrary);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("my notes\n");
    file.close();
    Run refused = cli({"library", "--db", notALibrary, "list"});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY(refused.err.contains("is not a Trainscape library"));
    QCOMPARE(ts::test::readAll(notALibrary), std::string("my notes\n"));
    const QString invalid = dir.filePath("bad.json");
    QFile bad(invalid);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"format": "trainscape.scenario/1", "model": {"preset": "llama3-8b"},
        "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 64}, "parallelism": {"tp": 3}})");
    bad.close();
    Run rejected = cli({"library", "--db", db, "add", invalid});
    QCOMPARE(rejected.exitCode, 2);
    QVERIFY2(rejected.err.contains("/parallelism/tp"), qPrintable(rejected.err));
    QCOMPARE(cli({"library", "--db", db, "show", "x1"}).exitCode, 2);
    QCOMPARE(cli({"library", "--db", db, "frobnicate"}).exitCode, 2);
    Run one = cli({"report", example("llama3-8b-8xh100.json"), "--out", dir.filePath("r.html")});
    QCOMPARE(one.exitCode, 2);
    Run format = cli({"report", example("llama3-8b-8xh100.json"), example("llama3-8b-8xh100.json"),
                      "--format", "docx", "--out", dir.filePath("r.docx")});
    QCOMPARE(format.exitCode, 2);
    QVERIFY(format.err.contains("expected html, md, csv or pdf"));
    Run neither = cli({"report", "nosuchfile.json", example("llama3-8b-8xh100.json"), "--out",
                       dir.filePath("r.html")});
    QCOMPARE(neither.exitCode, 2);
    QVERIFY(neither.err.contains("neither a scenario file nor a library id"));
}

QTEST_GUILESS_MAIN(TestCliLibrary)
#include "tst_cli_library.moc"
