// Bounded memory (issue 19): every extreme but valid scenario of bench/extreme/ resolves and
// estimates (as `trainscape-cli estimate` does, timeline included) in a child process whose
// address space is capped with RLIMIT_AS. A schedule that allocated pp x micro-batches x
// chunks, or a parser that grew without bound, would fail with std::bad_alloc there; a
// timing is not asserted (bench/bench_extreme measures it).

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/EstimateFinite.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioResolver.h"

#include <QDir>
#include <QtTest>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ts;

namespace {

// Address space for one estimate: the binary, Qt and the C++ runtime take ~150 MiB of it.
constexpr rlim_t kAddressSpaceBytes = rlim_t{1} << 30; // 1 GiB

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true; // ASan reserves terabytes of shadow address space
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// 0: estimated, finite; 1: refused; 2: not modelled; 3: not finite; 4: out of memory.
int estimateUnderLimit(const std::string& path) {
    if (!kSanitized) {
        const rlimit limit{kAddressSpaceBytes, kAddressSpaceBytes};
        if (::setrlimit(RLIMIT_AS, &limit) != 0)
            return 5;
    }
    try {
        Diagnostics diags;
        auto resolved = resolveScenarioFile(path, Catalog::builtIn(), diags);
        if (!resolved)
            return 1;
        auto estimate = estimatePlan(*resolved, diags);
        if (!estimate)
            return 2;
        if (firstNonFiniteNumber(estimateToJson(*estimate)))
            return 3;
    } catch (const std::bad_alloc&) {
        return 4;
    }
    return 0;
}

} // namespace

class TestExtremeCorpus : public QObject {
    Q_OBJECT
private slots:
    void boundedMemory_data();
    void boundedMemory();
};

void TestExtremeCorpus::boundedMemory_data() {
    QTest::addColumn<QString>("path");
    const QDir dir(test::sourceDir() + "/bench/extreme");
    const QStringList files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 10);
    for (const QString& name : files)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

void TestExtremeCorpus::boundedMemory() {
    QFETCH(QString, path);
    const std::string file = path.toStdString();
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(estimateUnderLimit(file));
    int status = 0;
    QCOMPARE(::waitpid(pid, &status, 0), pid);
    QVERIFY2(WIFEXITED(status), "the estimate died (a signal)");
    const char* outcome[] = {"estimated",  "refused",       "not modelled",
                             "not finite", "out of memory", "setrlimit failed"};
    const int code = WEXITSTATUS(status);
    QVERIFY2(code == 0, code <= 5 ? outcome[code] : "unexpected exit");
}

QTEST_GUILESS_MAIN(TestExtremeCorpus)
#include "tst_extreme_corpus.moc"
