// trainscape-cli search and capacity as a user runs them: the formats of
// shared/spec/scenario-format.md, every reported scenario accepted by `estimate` with the same
// estimate, every bundled example, and bad options refused with exit 2.

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
};

Run runCli(const QStringList& args, int timeoutMs = 240000) {
    QProcess process;
    process.start(ts::test::binDir() + "/trainscape-cli", args);
    Run run;
    if (!process.waitForFinished(timeoutMs)) {
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

// A coarse space so that every example searches in a few seconds here.
const char* kCoarse = "micro_batch=1,zero=1,offload.optimizer=none,offload.params=none,"
                      "offload.activations=none,recompute=selective|full,recompute_layers=0,"
                      "dp_shard=0";

} // namespace

class TestCliSearch : public QObject {
    Q_OBJECT

private slots:
    // issue 37 item 2: for every bundled example and every target that exports the example's
    // own plan (as it is or with --adapt), the best plan of `search --target T` exports to T as
    // it is, and lists T among its "targets".
    void searchTargetLaunchesTheBest_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : ts::test::exampleFiles())
            QTest::newRow(qPrintable(QFileInfo(f).baseName())) << f;
    }
    void searchTargetLaunchesTheBest() {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const char* pins = "micro_batch=1,offload.optimizer=none,offload.params=none,"
                           "offload.activations=none,recompute=selective|full,recompute_layers=0,"
                           "dp_shard=0";
        int checked = 0;
        for (const QString target :
             {"megatron", "bridge", "deepspeed", "torchtitan", "torchtune", "slurm", "k8s"}) {
            const bool own =
                runCli({"export", file, "--target", target, "--out", dir.filePath("own")})
                    .exitCode == 0;
            const bool adapted = runCli({"export", file, "--target", target, "--adapt", "--out",
                                         dir.filePath("adapted")})
                                     .exitCode == 0;
            if (!own && !adapted)
                continue;
            const Run run =
                runCli({"search", file, "--json", "--top", "1", "--target", target, "--pin", pins});
            QVERIFY2(run.exitCode == 0, qPrintable(target + ": " + run.err));
            const json out = json::parse(run.out.toStdString());
            QVERIFY2(!out["plans"].empty(), qPrintable(target + ": no plan"));
            const json& best = out["plans"][0];
            const json& targets = best["targets"];
            QVERIFY2(std::find(targets.begin(), targets.end(), target.toStdString()) !=
                         targets.end(),
                     qPrintable(target + ": not among " + QString::fromStdString(targets.dump())));
            QFile f(dir.filePath("best.json"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(best["scenario"].dump(2)));
            f.close();
            const Run exported = runCli({"export", dir.filePath("best.json"), "--target", target,
                                         "--out", dir.filePath("best-" + target)});
            QVERIFY2(exported.exitCode == 0, qPrintable(target + ": " + exported.err));
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    // capacity --target T sizes with plans T launches as they are: each option's scenario
    // exports to T.
    void capacityTargetLaunchesEachOption() {
        QTemporaryDir dir;
        const QString file = ts::test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json";
        const Run run = runCli({"capacity", file, "--tokens", "2e10", "--deadline-days", "30",
                                "--gpus", "h100-sxm-80gb,a100-sxm-80gb", "--max-gpus", "256",
                                "--target", "torchtitan", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json out = json::parse(run.out.toStdString());
        QVERIFY(!out["options"].empty());
        for (const json& o : out["options"]) {
            QFile f(dir.filePath("option.json"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(o["scenario"].dump(2)));
            f.close();
            const Run exported = runCli({"export", dir.filePath("option.json"), "--target",
                                         "torchtitan", "--out", dir.filePath("out")});
            QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        }
        QCOMPARE(runCli({"capacity", file, "--tokens", "2e10", "--deadline-days", "30", "--target",
                         "nonesuch"})
                     .exitCode,
                 2);
    }

    void searchEveryExample_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : ts::test::exampleFiles())
            QTest::newRow(qPrintable(QFileInfo(f).baseName())) << f;
    }
    void searchEveryExample() {
        QFETCH(QString, file);
        const Run run = runCli({"search", file, "--json", "--top", "3", "--pin", kCoarse});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json out = json::parse(run.out.toStdString());
        QCOMPARE(QString::fromStdString(out["format"]), QString("trainscape.search/1"));
        QVERIFY(out["plans_in_space"].get<long long>() >= out["plans_evaluated"].get<long long>());
        QVERIFY(out["seconds"].get<double>() >= 0);
        QVERIFY(!out["plans"].empty() && out["plans"].size() <= 3);
        double previous = 0;
        for (const json& p : out["plans"]) {
            const double step = p["estimate"]["time"]["step_s"];
            QVERIFY(step >= previous);
            previous = step;
            QVERIFY(p["estimate"]["fits"].get<bool>());
        }
        // The best plan is a scenario `estimate` accepts, with the same estimate.
        QTemporaryDir dir;
        const QString path = dir.filePath("best.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(out["plans"][0]["scenario"].dump(2)));
        f.close();
        const Run estimate = runCli({"estimate", path, "--json"});
        QCOMPARE(estimate.exitCode, 0);
        QCOMPARE(json::parse(estimate.out.toStdString()), out["plans"][0]["estimate"]);
    }

    void searchObjectiveAndPareto() {
        const QString file = ts::test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json";
        const Run run = runCli({"search", file, "--json", "--top", "2", "--objective",
                                "cost-per-token", "--pareto", "--threads", "2", "--pin", kCoarse});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json out = json::parse(run.out.toStdString());
        QCOMPARE(QString::fromStdString(out["objective"]), QString("cost-per-token"));
        QVERIFY(out["pareto"].contains("time-cost"));
        QVERIFY(!out["pareto"]["time-memory"].empty());
        const double a = out["plans"][0]["estimate"]["cost"]["usd_per_million_tokens"];
        const double b = out["plans"][1]["estimate"]["cost"]["usd_per_million_tokens"];
        QVERIFY(a <= b);
    }

    void capacityFormat() {
        const QString file = ts::test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json";
        const Run run = runCli({"capacity", file, "--tokens", "1e12", "--deadline-days", "30",
                                "--gpus", "h100-sxm-80gb,a100-sxm-80gb,no-such-gpu", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json out = json::parse(run.out.toStdString());
        QCOMPARE(QString::fromStdString(out["format"]), QString("trainscape.capacity/1"));
        QCOMPARE(int(out["options"].size()), 2);
        for (const json& o : out["options"]) {
            QVERIFY(o["days"].get<double>() <= 30);
            QVERIFY(o["train_usd"].get<double>() > 0);
            QCOMPARE(o["scenario"]["cluster"]["num_gpus"].get<long long>(),
                     o["num_gpus"].get<long long>());
        }
        // More GPUs of the older kind for the same deadline.
        QVERIFY(out["options"][1]["num_gpus"].get<long long>() >=
                out["options"][0]["num_gpus"].get<long long>());
        QCOMPARE(int(out["impossible"].size()), 1);
        QCOMPARE(QString::fromStdString(out["impossible"][0]["gpu"]), QString("no-such-gpu"));
    }

    void capacityImpossibleSaysWhy() {
        const QString file = ts::test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json";
        const Run run = runCli({"capacity", file, "--tokens", "1e15", "--deadline-days", "1",
                                "--gpus", "h100-sxm-80gb", "--max-gpus", "64", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const json out = json::parse(run.out.toStdString());
        QVERIFY(out["options"].empty());
        const QString reason = QString::fromStdString(out["impossible"][0]["reason"]);
        QVERIFY2(reason.contains("the deadline of 1.0 days needs") && reason.contains("64 GPUs"),
                 qPrintable(reason));
    }

    void badOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString file = ts::test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json";
        QTest::newRow("objective")
            << QStringList{"search", file, "--objective", "speed"} << "step-time";
        QTest::newRow("pin field") << QStringList{"search", file, "--pin", "tpp=2"} << "tpp";
        QTest::newRow("pin value") << QStringList{"search", file, "--pin", "zero=7"} << "zero";
        QTest::newRow("no tokens")
            << QStringList{"search", file, "--objective", "time-to-train"} << "/training/tokens";
        QTest::newRow("capacity needs tokens")
            << QStringList{"capacity", file, "--deadline-days", "3"} << "--tokens";
    }
    void badOptions() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = runCli(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestCliSearch)
#include "tst_cli_search.moc"
