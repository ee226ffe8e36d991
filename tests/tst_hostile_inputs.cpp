// The hostile-input suite (issue 19): every case of tests/data/hostile/cases.json runs the
// real trainscape-cli on files an attacker or a careless script would write, and checks the
// exit code and a fragment of the message (the JSON path, or file:line). The cases cover the
// crashes, hangs and silent acceptances found, the limits of scenario/Limits.h, and every input
// kind the CLI reads: scenarios, cluster graphs, carbon CSVs, GEMM CSVs, nccl-tests logs,
// catalogs and calibration profiles. No case may take long: each runs under a 60 s timeout and
// the slowest is reported.

#include "TestSupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace ts;
using nlohmann::ordered_json;

namespace {

const ordered_json& suite() {
    static const ordered_json doc =
        ordered_json::parse(test::readAll(test::sourceDir() + "/tests/data/hostile/cases.json"));
    return doc;
}

std::string replaced(std::string text, const ordered_json& replace) {
    if (!replace.is_array() || replace.size() != 2)
        return text;
    const std::string from = replace[0].get<std::string>(), to = replace[1].get<std::string>();
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// The bytes of one file of a case (make_cases.py describes the kinds).
std::string contentOf(const ordered_json& spec) {
    if (spec.contains("patch")) {
        ordered_json doc = suite()["base"];
        doc.merge_patch(spec["patch"]);
        return doc.dump(1);
    }
    if (spec.contains("text"))
        return spec["text"].get<std::string>();
    if (spec.contains("hex"))
        return QByteArray::fromHex(QByteArray::fromStdString(spec["hex"].get<std::string>()))
            .toStdString();
    if (spec.contains("pieces")) {
        std::string out;
        for (const auto& piece : spec["pieces"])
            for (int i = 0; i < piece[1].get<int>(); ++i)
                out += piece[0].get<std::string>();
        return out;
    }
    if (spec.contains("keys")) {
        std::string out = "{\"format\": \"trainscape.scenario/1\"";
        for (int i = 0; i < spec["keys"].get<int>(); ++i)
            out += ", \"k" + std::to_string(i) + "\": " + std::to_string(i);
        return out + "}";
    }
    if (spec.contains("copy"))
        return replaced(test::readAll(test::sourceDir() + "/" +
                                      QString::fromStdString(spec["copy"].get<std::string>())),
                        spec.value("replace", ordered_json()));
    return {};
}

bool writeFile(const QString& path, const std::string& bytes) {
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(bytes.data(), static_cast<qint64>(bytes.size())) ==
               static_cast<qint64>(bytes.size());
}

} // namespace

class TestHostileInputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void refusedCleanly_data();
    void refusedCleanly();
    void cleanupTestCase();

private:
    qint64 slowestMs_ = 0;
    QString slowest_;
};

void TestHostileInputs::initTestCase() {
    QVERIFY(suite().contains("cases"));
    QVERIFY2(suite()["cases"].size() >= 120, "the issue asks for at least 120 cases");
}

void TestHostileInputs::refusedCleanly_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < suite()["cases"].size(); ++i) {
        const auto& c = suite()["cases"][i];
        const std::string name =
            c["category"].get<std::string>() + ": " + c["name"].get<std::string>();
        QTest::newRow(name.c_str()) << static_cast<int>(i);
    }
}

void TestHostileInputs::refusedCleanly() {
    QFETCH(int, index);
    const ordered_json& c = suite()["cases"][static_cast<std::size_t>(index)];
    QTemporaryDir dir;
    for (auto it = c["files"].begin(); it != c["files"].end(); ++it)
        QVERIFY(writeFile(dir.filePath(QString::fromStdString(it.key())), contentOf(*it)));
    QStringList args;
    for (const auto& a : c["args"])
        args << QString::fromStdString(a.get<std::string>());
    QProcess cli;
    cli.setWorkingDirectory(dir.path());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("TRAINSCAPE_CALIBRATION_DIR");
    cli.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    cli.start(test::binDir() + "/trainscape-cli", args);
    QVERIFY(cli.waitForStarted());
    const bool finished = cli.waitForFinished(60'000);
    const qint64 ms = timer.elapsed();
    if (!finished)
        cli.kill();
    QVERIFY2(finished, "did not finish within 60 s");
    if (ms > slowestMs_) {
        slowestMs_ = ms;
        slowest_ = QString::fromStdString(c["name"].get<std::string>());
    }
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    const QString all = err + out;
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit); // no crash, no abort
    const int expected = c["exit"].get<int>();
    QVERIFY2(cli.exitCode() == expected, qPrintable(QString("exit %1, expected %2: %3")
                                                        .arg(cli.exitCode())
                                                        .arg(expected)
                                                        .arg(all.left(600))));
    for (const char* key : {"message", "message2"}) {
        if (!c.contains(key))
            continue;
        const QString fragment = QString::fromStdString(c[key].get<std::string>());
        QVERIFY2(all.contains(fragment),
                 qPrintable(QString("no \"%1\" in: %2").arg(fragment, all.left(600))));
    }
    // "absent": what must not reach the terminal (raw control characters of a name, say).
    if (c.contains("absent")) {
        const QString fragment = QString::fromStdString(c["absent"].get<std::string>());
        QVERIFY2(!all.contains(fragment), qPrintable(QString("printed: %1").arg(all.left(600))));
    }
    // A refusal is bounded: quoted input is cut, and a flood of errors (Diagnostics::kMaxKept)
    // ends with a count.
    if (expected != 0)
        QVERIFY2(err.size() < 256'000, qPrintable(QString::number(err.size())));
}

void TestHostileInputs::cleanupTestCase() {
    qInfo("%zu cases; the slowest took %lld ms (%s)", suite()["cases"].size(),
          static_cast<long long>(slowestMs_), qPrintable(slowest_));
}

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "tst_hostile_inputs.moc"
