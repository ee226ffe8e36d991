// Calibration profiles (issue 6): nccl-tests import and fit, GEMM CSV import, the profile
// format, the registry and scenario selection, and the estimate moving with a profile.

#include "TestSupport.h"

#include "calibration/CalibratedSettings.h"
#include "calibration/CalibrationRegistry.h"
#include "calibration/GemmCsv.h"
#include "calibration/LogInterpolation.h"
#include "calibration/NcclTestsLog.h"
#include "calibration/ProfileJson.h"
#include "catalog/Catalog.h"
#include "energy/PowerModel.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

using namespace ts;

namespace {

// A log in the layout nccl-tests prints (tests/fixtures/nccl/README.md), for a collective
// that follows time = latency + bytes x factor / busbw exactly, times a deterministic
// relative noise of amplitude `noise`.
std::string syntheticLog(Collective kind, int ranks, int nodes, double latencyUs, double busbwGBps,
                         double noise, double minBytes = 8, double maxBytes = 8589934592.0) {
    std::ostringstream out;
    char buf[512];
    out << "# nThread 1 nGpus 1 minBytes " << std::int64_t(minBytes) << " maxBytes "
        << std::int64_t(maxBytes)
        << " step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n";
    out << "#\n# Using devices\n";
    const int perNode = ranks / nodes;
    for (int r = 0; r < ranks; ++r) {
        std::snprintf(buf, sizeof buf,
                      "#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] NVIDIA "
                      "H200\n",
                      r, 1000 + r, ("node-" + std::to_string(r / perNode)).c_str(), r % perNode,
                      16 + r % perNode);
        out << buf;
    }
    out << "#\n#                                                              out-of-place        "
           "               in-place\n";
    out << "#       size         count      type   redop    root     time   algbw   busbw #wrong "
           "    time   algbw   busbw #wrong\n";
    out << "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)      "
           "      (us)  (GB/s)  (GB/s)\n";
    const double factor = busBandwidthFactor(kind, ranks);
    const char* redop =
        kind == Collective::AllGather || kind == Collective::AllToAll ? "none" : "sum";
    int i = 0;
    for (double bytes = minBytes; bytes <= maxBytes; bytes *= 2, ++i) {
        const double t = (latencyUs + factor * bytes / (busbwGBps * 1e3)) *
                         (1.0 + noise * std::sin(1.7 * i + 0.3));
        const double algbw = bytes / t / 1e3;
        std::snprintf(buf, sizeof buf,
                      "%12lld  %12lld  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  %6d  %7.2f  %6.2f  "
                      "%6.2f  %6d\n",
                      static_cast<long long>(bytes), static_cast<long long>(bytes / 4), "float",
                      redop, -1, t, algbw, algbw * factor, 0, t, algbw, algbw * factor, 0);
        out << buf;
    }
    out << "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 12.34 \n#\n";
    return out.str();
}

std::string fixture(const char* name) {
    return test::readAll(test::sourceDir() + "/tests/fixtures/nccl/" + name);
}

// A dense scenario whose TP (inside a node) and DP (across nodes) communication is exposed.
const char* kExposedScenario = R"({
  "format": "trainscape.scenario/1",
  "name": "Llama 3 8B on 64 H100, no overlap",
  "model": {"preset": "llama3-8b"},
  "cluster": {"preset": "dgx-h100", "num_gpus": 64},
  "training": {"seq_len": 8192, "global_batch": 512, "micro_batch": 1, "precision": "bf16",
               "optimizer": "adam"},
  "parallelism": {"tp": 8, "pp": 1, "cp": 1, "ep": 1, "dp": 8, "vpp": 1,
                  "sequence_parallel": true, "zero": 1, "recompute": "selective",
                  "schedule": "1f1b",
                  "overlap": {"tp": false, "dp": false, "pp": false}},
  "calibration": null
})";

CalibrationProfile collectiveProfile(const std::string& id, double scaleUpGBps,
                                     double scaleOutGBps) {
    CalibrationProfile p;
    p.id = id;
    p.kind = ProfileKind::Measured;
    p.gpu = "h100-sxm-80gb";
    p.provenance = {"test", "2026-11-30", "synthetic"};
    for (Collective c : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter})
        p.collectives.push_back({c, CollectiveScope::ScaleUp, 8, 1, 5.0, scaleUpGBps, {}, ""});
    p.collectives.push_back(
        {Collective::AllReduce, CollectiveScope::ScaleOut, 16, 2, 20.0, scaleOutGBps, {}, ""});
    return p;
}

std::optional<ResolvedScenario>
resolveWith(const std::string& text, const CalibrationRegistry& registry, Diagnostics& diags) {
    auto scenario = parseScenarioText(text, diags);
    if (!scenario)
        return std::nullopt;
    return resolveScenario(*scenario, Catalog::builtIn(), registry, diags);
}

std::string withCalibration(const std::string& id) {
    std::string text = kExposedScenario;
    const std::string from = "\"calibration\": null";
    text.replace(text.find(from), from.size(), "\"calibration\": \"" + id + "\"");
    return text;
}

double exposedComm(const Estimate& e) {
    return e.time.tpExposed + e.time.dpExposed + e.time.ppExposed;
}

} // namespace

class TestCalibration : public QObject {
    Q_OBJECT
private slots:
    void fitRecoversSyntheticLog_data();
    void fitRecoversSyntheticLog();
    void realFormatFixtures_data();
    void realFormatFixtures();
    void badLogs_data();
    void badLogs();
    void gemmCsv();
    void gemmCsvErrors_data();
    void gemmCsvErrors();
    void interpolation();
    void profileRoundTrip();
    void profileErrors_data();
    void profileErrors();
    void builtInProfiles();
    void registryFolder();
    void resolverSelectsProfile();
    void estimateMovesWithCollectives();
    void estimateMovesWithMatmulAndAttention();
    void matmulTableBetweenPoints();
    void importedLogChangesEstimate();
    void measuredPowerReplacesAssumptions();
};

void TestCalibration::fitRecoversSyntheticLog_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<double>("latencyUs");
    QTest::addColumn<double>("busbw");
    QTest::addColumn<double>("noise");
    auto row = [](const char* name, Collective kind, int ranks, int nodes, double lat, double bw,
                  double noise) {
        QTest::newRow(name) << int(kind) << ranks << nodes << lat << bw << noise;
    };
    row("all_reduce 8 GPUs NVLink exact", Collective::AllReduce, 8, 1, 12.0, 370.0, 0.0);
    row("all_reduce 8 GPUs NVLink 2% noise", Collective::AllReduce, 8, 1, 12.0, 370.0, 0.02);
    row("all_reduce 2 nodes 2% noise", Collective::AllReduce, 16, 2, 45.0, 340.0, 0.02);
    row("all_gather 4 nodes 2% noise", Collective::AllGather, 32, 4, 60.0, 180.0, 0.02);
    row("reduce_scatter 8 GPUs 1% noise", Collective::ReduceScatter, 8, 1, 10.0, 360.0, 0.01);
    row("all_to_all 2 nodes 2% noise", Collective::AllToAll, 16, 2, 80.0, 40.0, 0.02);
    row("send_recv 2 nodes 2% noise", Collective::SendRecv, 2, 2, 9.0, 47.0, 0.02);
}

void TestCalibration::fitRecoversSyntheticLog() {
    QFETCH(int, kind);
    QFETCH(int, ranks);
    QFETCH(int, nodes);
    QFETCH(double, latencyUs);
    QFETCH(double, busbw);
    QFETCH(double, noise);
    const auto collective = static_cast<Collective>(kind);
    const std::string name = std::string(collectiveName(collective)) + "_perf.log";
    NcclLogError error;
    auto log = parseNcclTestsLog(syntheticLog(collective, ranks, nodes, latencyUs, busbw, noise),
                                 name, std::nullopt, error);
    QVERIFY2(log, error.message.c_str());
    QCOMPARE(int(log->collective), kind);
    QCOMPARE(log->ranks, ranks);
    QCOMPARE(log->nodes, nodes);
    std::string fitError;
    auto fit = fitAlphaBeta(collectivePoints(*log), log->collective, log->ranks, fitError);
    QVERIFY2(fit, fitError.c_str());
    QVERIFY2(std::abs(fit->latencyUs / latencyUs - 1) < 0.05,
             qPrintable(QString("latency %1 us, expected %2").arg(fit->latencyUs).arg(latencyUs)));
    QVERIFY2(std::abs(fit->busbwGBps / busbw - 1) < 0.05,
             qPrintable(QString("busbw %1 GB/s, expected %2").arg(fit->busbwGBps).arg(busbw)));
}

void TestCalibration::realFormatFixtures_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("latencyUs"); // what the generator used (README.md)
    QTest::addColumn<double>("busbw");
    QTest::newRow("two-node all_reduce")
        << "all_reduce_perf_2node_h100.txt" << int(Collective::AllReduce) << 16 << 2 << 31 << 45.0
        << 345.0;
    QTest::newRow("one-node all_gather")
        << "all_gather_perf_1node_h100.txt" << int(Collective::AllGather) << 8 << 1 << 23 << 14.0
        << 362.0;
}

void TestCalibration::realFormatFixtures() {
    QFETCH(QString, file);
    QFETCH(int, kind);
    QFETCH(int, ranks);
    QFETCH(int, nodes);
    QFETCH(int, rows);
    QFETCH(double, latencyUs);
    QFETCH(double, busbw);
    NcclLogError error;
    // A neutral file name: the collective comes from the log's own "Collective test" line.
    auto log = parseNcclTestsLog(fixture(qPrintable(file)), "log.txt", std::nullopt, error);
    QVERIFY2(log, qPrintable(QString("line %1: %2").arg(error.line).arg(error.message.c_str())));
    QCOMPARE(int(log->collective), kind);
    QCOMPARE(log->ranks, ranks);
    QCOMPARE(log->nodes, nodes);
    QCOMPARE(int(log->rows.size()), rows);
    QCOMPARE(log->deviceName, std::string("NVIDIA H100 80GB HBM3"));
    QVERIFY(log->reportedAvgBusbwGBps.has_value());
    std::string fitError;
    auto m = measurementFromLog(*log, fitError);
    QVERIFY2(m, fitError.c_str());
    QCOMPARE(m->scope, nodes > 1 ? CollectiveScope::ScaleOut : CollectiveScope::ScaleUp);
    QVERIFY(std::abs(*m->latencyUs / latencyUs - 1) < 0.05);
    QVERIFY(std::abs(m->busbwGBps / busbw - 1) < 0.05);
    QCOMPARE(int(m->points.size()), rows);
}

void TestCalibration::badLogs_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    const std::string ar = fixture("all_reduce_perf_2node_h100.txt");
    std::vector<std::string> lines;
    {
        std::istringstream in(ar);
        std::string l;
        while (std::getline(in, l))
            lines.push_back(l);
    }
    auto firstLines = [&](std::size_t n) {
        std::string out;
        for (std::size_t i = 0; i < n && i < lines.size(); ++i)
            out += lines[i] + "\n";
        return out;
    };
    std::size_t columnsLine = 0, firstRow = 0, summary = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!columnsLine && lines[i].find("busbw") != std::string::npos &&
            lines[i].find("size") != std::string::npos)
            columnsLine = i + 1;
        if (columnsLine && !firstRow && !lines[i].empty() && lines[i][0] == ' ')
            firstRow = i + 1;
        if (lines[i].find("Out of bounds") != std::string::npos)
            summary = i + 1;
    }
    QVERIFY(columnsLine > 0 && firstRow > columnsLine && summary > firstRow);
    auto row = [](const char* name, const std::string& text, const char* file, int line,
                  const char* message) {
        QTest::newRow(name) << QString::fromStdString(text) << file << line << message;
    };
    row("empty", "", "all_reduce_perf.log", 1, "empty log");
    row("blank lines only", "\n  \n\n", "all_reduce_perf.log", 1, "empty log");
    row("foreign (ib_write_bw)", fixture("foreign_ib_write_bw.txt"), "all_reduce_perf.log", 1,
        "not an nccl-tests log");
    row("foreign (text)", "hello\nworld\n", "x.log", 1, "not an nccl-tests log");
    // Cut in the middle of the tenth row: the row has too few columns.
    {
        std::string text = firstLines(firstRow + 8);
        const std::string& cut = lines[firstRow + 8];
        text += cut.substr(0, cut.size() / 2) + "\n";
        row("truncated mid-row", text, "a.log", int(firstRow + 9), "truncated row");
    }
    row("truncated after a row", firstLines(firstRow + 5), "a.log", int(firstRow + 5), "truncated");
    row("truncated after the header", firstLines(columnsLine + 1), "a.log", int(columnsLine + 1),
        "no result rows");
    row("truncated before the table", firstLines(6), "a.log", 6, "before the table's column");
    {
        std::string text = ar;
        const std::string ok = "Out of bounds values : 0 OK";
        text.replace(text.find(ok), ok.size(), "Out of bounds values : 3 FAILED");
        row("failing run", text, "a.log", int(summary), "wrong results");
    }
    {
        std::string text = firstLines(firstRow + 2);
        std::string bad = lines[firstRow + 2];
        bad.replace(bad.rfind(" 0"), 2, " 7");
        text += bad + "\n";
        for (std::size_t i = firstRow + 3; i < lines.size(); ++i)
            text += lines[i] + "\n";
        row("wrong values in a row", text, "a.log", int(firstRow + 3), "wrong values");
    }
    row("second run", ar + ar, "a.log", int(lines.size() + 3), "second run");
    {
        std::string text = ar;
        const std::string program = "all_reduce_perf_mpi";
        text.replace(text.find(program), program.size(), "broadcast_perf");
        row("broadcast", text, "a.log", 3, "broadcast_perf");
    }
    {
        // all_gather on 2 ranks without a name: its busbw/algbw is 1/2, as send/recv's is 1.
        std::string text =
            syntheticLog(Collective::AllGather, 2, 2, 10.0, 40.0, 0.0, 1024.0, 1 << 30);
        row("unnamed all_gather", text, "log.txt", 8, "cannot tell which collective");
    }
    {
        // Rank lines that do not match the table: busbw = 2(n-1)/n algbw for 16, not 8.
        std::string text = ar;
        const std::string from = "Collective test starting: all_reduce_perf_mpi";
        text.replace(text.find(from), from.size(), "Collective test starting: all_gather_perf");
        row("collective does not match the table", text, "a.log", 0, "bus factor");
    }
}

void TestCalibration::badLogs() {
    QFETCH(QString, text);
    QFETCH(QString, fileName);
    QFETCH(int, line);
    QFETCH(QString, message);
    NcclLogError error;
    auto log = parseNcclTestsLog(text.toStdString(), fileName.toStdString(), std::nullopt, error);
    QVERIFY(!log);
    QVERIFY2(QString::fromStdString(error.message).contains(message),
             qPrintable(QString("line %1: %2").arg(error.line).arg(error.message.c_str())));
    if (line > 0)
        QCOMPARE(error.line, line);
    else
        QVERIFY(error.line > 0);
}

void TestCalibration::gemmCsv() {
    CsvError error;
    auto points = parseGemmCsv("# tools/calibrate/matmul_sweep.py\n"
                               "m,n,k,dtype,time_us,tflops\n"
                               "8192,8192,8192,bf16,1400,\n"
                               "4096,14336,4096,torch.bfloat16,,610.5\n"
                               "1024,9216,14336,float8_e4m3fn,,1402.6\n",
                               error);
    QVERIFY2(points, error.message.c_str());
    QCOMPARE(points->size(), std::size_t(3));
    QVERIFY(std::abs((*points)[0].tflops - 2.0 * 8192.0 * 8192 * 8192 / 1400e-6 / 1e12) < 1e-6);
    QCOMPARE((*points)[1].dtype, MatmulDtype::Bf16);
    QCOMPARE((*points)[1].tflops, 610.5);
    QCOMPARE((*points)[2].dtype, MatmulDtype::Fp8);
}

void TestCalibration::gemmCsvErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "" << 1 << "empty CSV";
    QTest::newRow("no time column") << "m,n,k,dtype\n1,2,3,bf16\n" << 1 << "time_us or tflops";
    QTest::newRow("truncated row") << "m,n,k,dtype,time_us\n1024,1024,1024,bf16,10\n2048,2048\n"
                                   << 3 << "truncated row";
    QTest::newRow("bad dtype") << "m,n,k,dtype,time_us\n1024,1024,1024,int4,10\n"
                               << 2 << "unknown dtype";
    QTest::newRow("negative time") << "m,n,k,dtype,time_us\n1024,1024,1024,bf16,-1\n"
                                   << 2 << "time_us";
    QTest::newRow("header only") << "m,n,k,dtype,time_us\n" << 1 << "no rows";
}

void TestCalibration::gemmCsvErrors() {
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    CsvError error;
    QVERIFY(!parseGemmCsv(text.toStdString(), error));
    QCOMPARE(error.line, line);
    QVERIFY2(QString::fromStdString(error.message).contains(message), error.message.c_str());
}

void TestCalibration::interpolation() {
    const std::vector<LogCurvePoint> curve = {{1e3, 1.0}, {1e6, 100.0}, {1e9, 400.0}};
    QCOMPARE(interpolateOnLogSize(curve, 1e3), 1.0);
    QCOMPARE(interpolateOnLogSize(curve, 1e2), 1.0);    // below: the first point
    QCOMPARE(interpolateOnLogSize(curve, 1e12), 400.0); // above: the last point
    QVERIFY(std::abs(interpolateOnLogSize(curve, std::sqrt(1e3 * 1e6)) - 50.5) < 1e-9);
    QVERIFY(std::abs(interpolateOnLogSize(curve, 1e7) - 200.0) < 1e-9);

    std::vector<LogSpacePoint<3>> grid = {{{1024, 1024, 1024}, 0.5}, {{4096, 4096, 4096}, 0.8}};
    QCOMPARE(interpolateInLogSpace<3>(grid, {1024, 1024, 1024}), 0.5);
    QVERIFY(std::abs(interpolateInLogSpace<3>(grid, {2048, 2048, 2048}) - 0.65) < 1e-12);
    const double between = interpolateInLogSpace<3>(grid, {1500, 1500, 1500});
    QVERIFY(between > 0.5 && between < 0.65);
    QCOMPARE(interpolateInLogSpace<3>(grid, {65536, 65536, 65536}), 0.8); // no extrapolation
    QCOMPARE(interpolateInLogSpace<3>(grid, {16, 16, 16}), 0.5);
}

void TestCalibration::profileRoundTrip() {
    CalibrationProfile p;
    p.id = "lab-h200";
    p.name = "Lab H200";
    p.kind = ProfileKind::Measured;
    p.gpu = "h200-sxm-141gb";
    p.deviceName = "NVIDIA H200";
    p.provenance = {"lab node 7", "2026-11-30", "tools/calibrate/run_all.sh"};
    p.sources = {{"paper", "A paper", "https://example.org/paper"}};
    p.notes = "round trip";
    p.matmul = {{4096, 4096, 4096, MatmulDtype::Bf16, 712.25, ""},
                {1024, 9216, 14336, MatmulDtype::Fp8, 1402.6, "paper"}};
    p.attention = {{8192, 128, true, 480.5, 360.25, ""}, {4096, 64, false, 300.0, {}, ""}};
    p.hbm = HbmMeasurement{4310.5, ""};
    p.kernelOverheadUs = 2.1;
    p.collectives = {{Collective::AllReduce,
                      CollectiveScope::ScaleOut,
                      16,
                      2,
                      45.5,
                      344.7,
                      {{8, 45.0, 0.0}, {1 << 20, 60.25, 32.5}, {8589934592.0, 47000, 342.5}},
                      ""},
                     {Collective::SendRecv, CollectiveScope::ScaleUp, 2, 1, {}, 370, {}, "paper"}};
    MeasuredPower power;
    power.how = "nvidia-smi power.draw at 10 Hz during tools/calibrate/run_all.sh";
    power.idle = PhasePower{71.5, 74.0, 45};
    power.computeBound = PhasePower{655.25, 702.0, 900};
    power.training = PhasePower{610.0, {}, 1200};
    p.power = power;
    const Json json = profileToJson(p);
    Diagnostics diags;
    auto back = profileFromJson(json, diags);
    QVERIFY2(back, diags.all().empty() ? "" : diags.all()[0].toString().c_str());
    QCOMPARE(*back, p);
    // And through text and a file.
    QTemporaryDir dir;
    const std::string path = dir.filePath("p.json").toStdString();
    std::string error;
    QVERIFY2(saveProfileFile(p, path, error), error.c_str());
    auto loaded = loadProfileFile(path, diags);
    QVERIFY(loaded);
    QCOMPARE(loaded->origin, path);
    loaded->origin.clear();
    QCOMPARE(*loaded, p);
}

void TestCalibration::profileErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    const QString head = R"({"format": "trainscape.calibration/1", "id": "x", "kind": "measured",
        "provenance": {"where": "w", "when": "", "how": "h"}, )";
    auto row = [&](const char* name, const QString& body, const char* path, const char* msg) {
        QTest::newRow(name) << head + body + "}" << path << msg;
    };
    QTest::newRow("wrong format")
        << R"({"format": "trainscape.calibration/9", "id": "x", "kind": "measured",
              "provenance": {"where": "w", "how": "h"}})"
        << "/format"
        << "unsupported format";
    QTest::newRow("missing provenance")
        << R"({"format": "trainscape.calibration/1", "id": "x", "kind": "measured"})"
        << "/provenance"
        << "required";
    QTest::newRow("bad kind")
        << R"({"format": "trainscape.calibration/1", "id": "x", "kind": "guessed",
              "provenance": {"where": "w", "how": "h"}})"
        << "/kind"
        << "published";
    row("unknown dtype", R"("matmul": [{"m": 1, "n": 1, "k": 1, "dtype": "int3", "tflops": 1}])",
        "/matmul/0/dtype", "unknown dtype");
    row("zero tflops", R"("matmul": [{"m": 1, "n": 1, "k": 1, "dtype": "bf16", "tflops": 0}])",
        "/matmul/0/tflops", "");
    row("misspelled key",
        R"("collectives": [{"collective": "all_reduce", "scope": "scale_up", "ranks": 8,
           "nodes": 1, "busbw": 370, "busbw_gb_s": 370}])",
        "/collectives/0/busbw", "busbw_gb_s");
    row("scale_up across nodes",
        R"("collectives": [{"collective": "all_reduce", "scope": "scale_up", "ranks": 16,
           "nodes": 2, "busbw_gb_s": 370}])",
        "/collectives/0/scope", "scale_out");
    row("unknown collective",
        R"("collectives": [{"collective": "broadcast", "scope": "scale_up", "ranks": 8,
           "nodes": 1, "busbw_gb_s": 370}])",
        "/collectives/0/collective", "unknown collective");
    row("unsorted points",
        R"("collectives": [{"collective": "all_reduce", "scope": "scale_up", "ranks": 8,
           "nodes": 1, "busbw_gb_s": 370, "points": [
           {"bytes": 1024, "time_us": 10, "busbw_gb_s": 0.1},
           {"bytes": 512, "time_us": 9, "busbw_gb_s": 0.1}]}])",
        "/collectives/0/points/1/bytes", "sorted");
    row("unknown source", R"("matmul": [{"m": 1, "n": 1, "k": 1, "dtype": "bf16", "tflops": 1,
           "source": "nowhere"}])",
        "/matmul/0/source", "unknown source");
    row("power: unknown phase", R"("power": {"how": "h", "phases": {"nccl": {"watts": 300,
           "samples": 10}}})",
        "/power/phases/nccl", "unknown key");
    row("power: negative watts", R"("power": {"how": "h", "phases": {"idle": {"watts": -5,
           "samples": 10}}})",
        "/power/phases/idle/watts", "");
    row("power: maximum below mean", R"("power": {"how": "h", "phases": {"idle": {"watts": 90,
           "max_watts": 80, "samples": 10}}})",
        "/power/phases/idle/max_watts", "below the mean");
    row("power: no samples", R"("power": {"how": "h", "phases": {"idle": {"watts": 90}}})",
        "/power/phases/idle/samples", "required");
    QTest::newRow("published without a source")
        << R"({"format": "trainscape.calibration/1", "id": "x", "kind": "published",
              "provenance": {"where": "w", "how": "h"},
              "matmul": [{"m": 1, "n": 1, "k": 1, "dtype": "bf16", "tflops": 1}]})"
        << "/matmul/0/source"
        << "names the source";
}

void TestCalibration::profileErrors() {
    QFETCH(QString, text);
    QFETCH(QString, path);
    QFETCH(QString, message);
    Diagnostics diags;
    QVERIFY(!parseProfile(text.toStdString(), diags));
    bool found = false;
    for (const auto& d : diags.errors())
        if (d.path == path.toStdString() && QString::fromStdString(d.message).contains(message))
            found = true;
    QVERIFY2(found, diags.errors().empty()
                        ? "no error"
                        : (diags.errors()[0].path + ": " + diags.errors()[0].message).c_str());
}

void TestCalibration::builtInProfiles() {
    const auto& registry = CalibrationRegistry::builtIn();
    QVERIFY(registry.profiles().size() >= 2);
    for (const auto& [id, p] : registry.profiles()) {
        // Where, when and how, always; a published profile names a source for every figure
        // (the reader enforces it), each with its address.
        QVERIFY2(!p->provenance.where.empty() && !p->provenance.when.empty() &&
                     !p->provenance.how.empty(),
                 id.c_str());
        if (p->kind == ProfileKind::Published)
            QVERIFY2(!p->sources.empty(), id.c_str());
        for (const auto& s : p->sources)
            QVERIFY2(s.url.rfind("https://", 0) == 0, s.id.c_str());
        QVERIFY2(p->gpu.empty() || Catalog::builtIn().gpu(p->gpu), p->gpu.c_str());
        QCOMPARE(p->origin.rfind("built-in:", 0), std::size_t(0));
    }
}

void TestCalibration::registryFolder() {
    QTemporaryDir dir;
    CalibrationProfile p = collectiveProfile("lab-net", 400, 50);
    std::string error;
    QVERIFY(saveProfileFile(p, dir.filePath("lab.json").toStdString(), error));
    QFile bad(dir.filePath("broken.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"format": "trainscape.calibration/1", "id": "b", "kind": "measured",
                  "provenance": {"where": "w", "how": "h"}, "hbm": {"achieved_gb_s": -1}})");
    bad.close();
    CalibrationRegistry registry = CalibrationRegistry::builtIn();
    Diagnostics diags;
    QVERIFY(!registry.addDirectory(dir.path().toStdString(), diags)); // broken.json
    QVERIFY(registry.find("lab-net"));
    QVERIFY(!registry.find("b"));
    QVERIFY(diags.hasErrorAt("/hbm/achieved_gb_s"));
    QVERIFY(diags.errors()[0].message.find("broken.json") != std::string::npos);
    QVERIFY(registry.find("h100-sxm-dgx-published")); // the built-in ones stay
    Diagnostics missing;
    QVERIFY(!registry.addDirectory("/nonexistent/calibration", missing));
}

void TestCalibration::resolverSelectsProfile() {
    CalibrationRegistry registry = CalibrationRegistry::builtIn();
    registry.add(collectiveProfile("lab-h100", 400, 50));
    CalibrationProfile h200 = collectiveProfile("lab-h200", 400, 50);
    h200.gpu = "h200-sxm-141gb";
    registry.add(h200);
    {
        Diagnostics diags;
        auto r = resolveWith(withCalibration("lab-h100"), registry, diags);
        QVERIFY(r);
        QCOMPARE(r->calibration, std::optional<std::string>("lab-h100"));
        QVERIFY(r->calibrationProfile);
        QCOMPARE(r->calibrationProfile->id, std::string("lab-h100"));
    }
    {
        Diagnostics diags;
        auto r = resolveWith(withCalibration("h100-sxm-dgx-published"), registry, diags);
        QVERIFY(r && r->calibrationProfile);
    }
    {
        Diagnostics diags;
        QVERIFY(!resolveWith(withCalibration("nope"), registry, diags));
        QVERIFY(diags.hasErrorAt("/calibration"));
        QVERIFY(diags.errors()[0].message.find("lab-h100") != std::string::npos);
    }
    {
        Diagnostics diags;
        QVERIFY(!resolveWith(withCalibration("lab-h200"), registry, diags));
        QVERIFY(diags.hasErrorAt("/calibration"));
        QVERIFY(diags.errors()[0].message.find("h200-sxm-141gb") != std::string::npos);
    }
}

void TestCalibration::estimateMovesWithCollectives() {
    CalibrationRegistry registry;
    registry.add(collectiveProfile("fast", 800, 200)); // beyond any real link: faster than all
    registry.add(collectiveProfile("mid", 300, 40));
    registry.add(collectiveProfile("slow", 100, 10));
    Diagnostics diags;
    auto plain = resolveWith(kExposedScenario, registry, diags);
    auto fast = resolveWith(withCalibration("fast"), registry, diags);
    auto mid = resolveWith(withCalibration("mid"), registry, diags);
    auto slow = resolveWith(withCalibration("slow"), registry, diags);
    QVERIFY(plain && fast && mid && slow);
    auto ePlain = estimatePlan(*plain, diags);
    auto eFast = estimatePlan(*fast, diags);
    auto eMid = estimatePlan(*mid, diags);
    auto eSlow = estimatePlan(*slow, diags);
    QVERIFY(ePlain && eFast && eMid && eSlow);
    QVERIFY(eMid->time.tpExposed > 0 && eMid->time.dpExposed > 0);
    // Faster collectives: shorter exposed communication, and a shorter step.
    QVERIFY(exposedComm(*eFast) < exposedComm(*ePlain));
    QVERIFY(exposedComm(*eFast) < exposedComm(*eMid));
    QVERIFY(exposedComm(*eMid) < exposedComm(*eSlow));
    QVERIFY(eFast->time.tpExposed < eMid->time.tpExposed);
    QVERIFY(eFast->time.dpExposed < eMid->time.dpExposed);
    QVERIFY(eMid->time.tpExposed < eSlow->time.tpExposed);
    QVERIFY(eMid->time.dpExposed < eSlow->time.dpExposed);
    QVERIFY(eFast->stepSeconds < eMid->stepSeconds);
    QVERIFY(eMid->stepSeconds < eSlow->stepSeconds);
    // Inside the NVLink domain the bus bandwidth is used as measured: TP all-gathers and
    // reduce-scatters at 100 vs 300 GB/s take about 3x as long.
    const double tpRatio = eSlow->time.tpExposed / eMid->time.tpExposed;
    QVERIFY2(tpRatio > 2.5 && tpRatio < 3.05, qPrintable(QString::number(tpRatio)));
    // Only communication moves: compute is the same.
    QCOMPARE(eFast->time.compute, ePlain->time.compute);
    QCOMPARE(eSlow->time.compute, ePlain->time.compute);
    // The same through calibratedEstimatorSettings.
    auto viaSettings =
        estimatePlan(*plain, calibratedEstimatorSettings(*plain, *registry.find("fast")), diags);
    QVERIFY(viaSettings);
    QCOMPARE(viaSettings->stepSeconds, eFast->stepSeconds);
}

void TestCalibration::estimateMovesWithMatmulAndAttention() {
    Diagnostics diags;
    auto plain = resolveWith(kExposedScenario, CalibrationRegistry::builtIn(), diags);
    QVERIFY(plain);
    const auto base = estimatePlan(*plain, diags);
    QVERIFY(base);
    auto profileAt = [](double matmulTflops, double attentionTflops) {
        CalibrationProfile p;
        p.id = "kernels";
        p.gpu = "h100-sxm-80gb";
        for (std::int64_t s : {1024, 4096, 16384})
            p.matmul.push_back({s, s, s, MatmulDtype::Bf16, matmulTflops, ""});
        for (std::int64_t seq : {2048, 8192, 32768})
            p.attention.push_back({seq, 128, true, attentionTflops, attentionTflops * 0.8, ""});
        p.hbm = HbmMeasurement{3000, ""};
        return p;
    };
    const auto fastSettings = calibratedEstimatorSettings(*plain, profileAt(900, 600));
    const auto slowSettings = calibratedEstimatorSettings(*plain, profileAt(400, 200));
    const auto fast = estimatePlan(*plain, fastSettings, diags);
    const auto slow = estimatePlan(*plain, slowSettings, diags);
    QVERIFY(fast && slow);
    QVERIFY(fast->time.compute < base->time.compute);
    QVERIFY(slow->time.compute > base->time.compute);
    QVERIFY(fast->stepSeconds < slow->stepSeconds);
    // The measured HBM figure replaces datasheet x default efficiency.
    QVERIFY(std::abs(fastSettings.hardware.hbmEfficiency * fastSettings.hardware.hbmGBps - 3000) <
            1e-9);
    // At a measured point the efficiency is the measured one.
    const HardwareProfile& hw = fastSettings.hardware;
    QVERIFY(hw.measured);
    auto eff = hw.measured->matmulEfficiency(hw, MatmulDtype::Bf16, 4096, 4096, 4096);
    QVERIFY(eff && std::abs(*eff - 900.0 / hw.bf16PeakTflops()) < 1e-9);
    auto att = hw.measured->attentionTflops(8192, 128, true, false);
    QVERIFY(att && std::abs(*att - 600) < 1e-9);
    QVERIFY(!hw.measured->attentionTflops(8192, 128, false, false)); // not measured: the model
    QVERIFY(!hw.measured->matmulEfficiency(hw, MatmulDtype::Fp8, 4096, 4096, 4096));
}

void TestCalibration::matmulTableBetweenPoints() {
    Diagnostics diags;
    auto plain = resolveWith(kExposedScenario, CalibrationRegistry::builtIn(), diags);
    QVERIFY(plain);
    // One published point (ml-engineering MAMF, H100 BF16) and a measured-like pair.
    CalibrationProfile p;
    p.id = "mamf";
    p.matmul = {{2048, 2048, 13312, MatmulDtype::Bf16, 794.5, ""},
                {1024, 1024, 1024, MatmulDtype::Fp16, 400.0, ""},
                {8192, 8192, 8192, MatmulDtype::Fp16, 760.0, ""}};
    const auto settings = calibratedEstimatorSettings(*plain, p);
    const HardwareProfile& hw = settings.hardware;
    auto eff = [&](MatmulDtype dtype, double m, double n, double k) {
        return *hw.measured->matmulEfficiency(hw, dtype, m, n, k);
    };
    const double peak = hw.bf16PeakTflops();
    const MatmulDtype bf16 = MatmulDtype::Bf16, fp16 = MatmulDtype::Fp16;
    QVERIFY(std::abs(eff(bf16, 2048, 2048, 13312) - 794.5 / peak) < 1e-12); // exact
    // Large, well-shaped GEMMs stay near the measured level and never above the best
    // measured efficiency.
    const double large = eff(bf16, 8192, 8192, 8192);
    QVERIFY2(large <= 794.5 / peak + 1e-12 && large > 0.9 * 794.5 / peak,
             qPrintable(QString::number(large * peak)));
    // A shape that quantizes badly (one row past a tile) and a small one come out slower.
    QVERIFY(eff(bf16, 4097, 8192, 8192) < large);
    QVERIFY(eff(bf16, 256, 256, 256) < 0.5 * large);
    // Between two measured sizes: between their efficiencies.
    const double mid = eff(fp16, 2896, 2896, 2896);
    const double peak16 = hw.forDtype(fp16).peakTflops;
    QVERIFY2(mid > 400.0 / peak16 && mid < 760.0 / peak16, qPrintable(QString::number(mid)));
}

void TestCalibration::importedLogChangesEstimate() {
    // The whole path: nccl-tests logs -> trainscape-cli calibrate import-nccl --write ->
    // a scenario selecting the profile from --calibration-dir -> a different estimate.
    const QString cli = test::binDir() + "/trainscape-cli";
    if (!QFile::exists(cli))
        QSKIP("trainscape-cli is not built");
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath("profiles"));
    // Two inter-node networks: 16 ranks on 2 nodes at 40 and at 160 GB/s bus bandwidth; the
    // NVLink all-gather of the fixture in both profiles.
    auto importLog = [&](const char* id, double busbw) {
        QFile log(dir.filePath(QString("%1-all_reduce_perf.log").arg(id)));
        if (!log.open(QIODevice::WriteOnly))
            return Json();
        log.write(syntheticLog(Collective::AllReduce, 16, 2, 50.0, busbw, 0.0).c_str());
        log.close();
        QProcess import;
        import.start(cli,
                     {"calibrate", "import-nccl", log.fileName(),
                      test::sourceDir() + "/tests/fixtures/nccl/all_gather_perf_1node_h100.txt",
                      "--write", dir.filePath(QString("profiles/%1.json").arg(id)), "--id", id,
                      "--gpu", "h100-sxm-80gb", "--json"});
        import.waitForFinished(60000);
        if (import.exitCode() != 0) {
            qWarning() << import.readAllStandardError();
            return Json();
        }
        return Json::parse(import.readAllStandardOutput().toStdString());
    };
    const Json out = importLog("lab-slow", 40.0);
    QVERIFY(importLog("lab-fast", 160.0).is_array());
    QVERIFY(out.is_array());
    QCOMPARE(out.size(), std::size_t(2));
    QCOMPARE(out[0]["collective"].get<std::string>(), std::string("all_reduce"));
    QCOMPARE(out[0]["ranks"].get<int>(), 16);
    QCOMPARE(out[0]["nodes"].get<int>(), 2);
    QVERIFY(std::abs(out[0]["latency_us"].get<double>() / 50.0 - 1) < 0.05);
    QVERIFY(std::abs(out[0]["busbw_gb_s"].get<double>() / 40.0 - 1) < 0.05);
    QCOMPARE(out[1]["collective"].get<std::string>(), std::string("all_gather"));

    auto writeScenario = [&](const char* name, const std::string& text) {
        QFile f(dir.filePath(name));
        if (f.open(QIODevice::WriteOnly))
            f.write(text.c_str());
        return f.fileName();
    };
    const QString slowFile = writeScenario("slow.json", withCalibration("lab-slow"));
    const QString fastFile = writeScenario("fast.json", withCalibration("lab-fast"));
    const QString plainFile = writeScenario("plain.json", kExposedScenario);
    auto estimate = [&](const QString& file) {
        QProcess p;
        p.start(cli, {"--calibration-dir", dir.filePath("profiles"), "estimate", file, "--json"});
        p.waitForFinished(60000);
        if (p.exitCode() != 0)
            qWarning() << p.readAllStandardError();
        return p.exitCode() == 0 ? Json::parse(p.readAllStandardOutput().toStdString()) : Json();
    };
    const Json slow = estimate(slowFile), fast = estimate(fastFile), base = estimate(plainFile);
    QVERIFY(!slow.is_null() && !fast.is_null() && !base.is_null());
    const double stepSlow = slow["time"]["step_s"].get<double>();
    const double stepFast = fast["time"]["step_s"].get<double>();
    const double stepBase = base["time"]["step_s"].get<double>();
    // The imported profile changes the estimate, and the faster network gives a shorter step.
    QVERIFY2(stepSlow != stepBase, qPrintable(QString::number(stepSlow)));
    QVERIFY2(stepFast < stepSlow, qPrintable(QString("%1 vs %2").arg(stepFast).arg(stepSlow)));

    // Without the folder the id is unknown: exit 2 with the path.
    QProcess unknown;
    unknown.start(cli, {"estimate", slowFile});
    QVERIFY(unknown.waitForFinished(60000));
    QCOMPARE(unknown.exitCode(), 2);
    QVERIFY(unknown.readAllStandardError().contains("/calibration"));

    // A truncated log is refused with its line number.
    QFile cut(dir.filePath("cut.log"));
    QVERIFY(cut.open(QIODevice::WriteOnly));
    const std::string full = syntheticLog(Collective::AllReduce, 8, 1, 10, 300, 0);
    cut.write(full.substr(0, full.find("# Out of bounds")).c_str());
    cut.close();
    QProcess refused;
    refused.start(cli, {"calibrate", "import-nccl", cut.fileName()});
    QVERIFY(refused.waitForFinished(60000));
    QCOMPARE(refused.exitCode(), 2);
    const QString err = refused.readAllStandardError();
    QVERIFY2(err.contains("cut.log:") && err.contains("truncated"), qPrintable(err));
}

// A profile's measured board power replaces the assumed idle power and phase fractions
// (calibration/MeasuredPower.h) where the scenario sets neither; a figure the scenario sets wins.
void TestCalibration::measuredPowerReplacesAssumptions() {
    CalibrationProfile p = collectiveProfile("power", 300, 40);
    p.collectives.clear();
    MeasuredPower power;
    power.how = "synthetic";
    power.idle = PhasePower{80, 85, 50};
    power.computeBound = PhasePower{600, 690, 900};
    power.memoryBound = PhasePower{400, 450, 80};
    p.power = power;
    CalibrationRegistry registry;
    registry.add(p);
    Diagnostics diags;
    auto plain = resolveWith(kExposedScenario, registry, diags);
    auto measured = resolveWith(withCalibration("power"), registry, diags);
    QVERIFY(plain && measured);
    const double tdp = measured->cluster.gpu.tdpW;
    QCOMPARE(*measured->costs.gpuIdleW, 80.0);
    QVERIFY(qFuzzyCompare(measured->costs.gpuPower.computeBound, (600 - 80) / (tdp - 80)));
    QVERIFY(qFuzzyCompare(measured->costs.gpuPower.memoryBound, (400 - 80) / (tdp - 80)));
    QCOMPARE(measured->costs.gpuPower.communicating, kDefaultGpuPowerFractions.communicating);
    const auto has = [](const ResolvedScenario& r, MessageId id) {
        return std::any_of(r.costs.assumptions.begin(), r.costs.assumptions.end(),
                           [id](const Message& m) { return m.id == id; });
    };
    QVERIFY(has(*plain, MessageId::PhasePowerAssumed) && has(*plain, MessageId::IdlePowerAssumed));
    QVERIFY(!has(*measured, MessageId::PhasePowerAssumed));
    QVERIFY(!has(*measured, MessageId::IdlePowerAssumed));
    QVERIFY(has(*measured, MessageId::PhasePowerMeasured));
    // The power model now draws the measured watts.
    ClusterPower cp;
    cp.gpuTdpW = tdp;
    cp.gpuIdleW = *measured->costs.gpuIdleW;
    cp.fractions = measured->costs.gpuPower;
    QVERIFY(std::abs(cp.gpuWatts().computeBound - 600) < 1e-9);
    QVERIFY(std::abs(cp.gpuWatts().memoryBound - 400) < 1e-9);
    // Less power than the assumed 0.9 of TDP: less energy per step.
    auto ePlain = estimatePlan(*plain, diags);
    auto eMeasured = estimatePlan(*measured, diags);
    QVERIFY(ePlain && eMeasured);
    QVERIFY(eMeasured->stepJoules && ePlain->stepJoules);
    QVERIFY(*eMeasured->stepJoules < *ePlain->stepJoules);

    // What the scenario sets stays.
    std::string text = withCalibration("power");
    text.replace(text.find("\"calibration\""), 0,
                 R"("costs": {"gpu_idle_w": 100, "gpu_compute_fraction": 0.7}, )");
    auto own = resolveWith(text, registry, diags);
    QVERIFY(own);
    QCOMPARE(*own->costs.gpuIdleW, 100.0);
    QCOMPARE(own->costs.gpuPower.computeBound, 0.7);
    QVERIFY(qFuzzyCompare(own->costs.gpuPower.memoryBound, (400 - 100) / (tdp - 100)));

    // A profile with these measured watts, registered as `id` and selected by the scenario.
    const auto resolveMeasured = [&](const std::string& id, const MeasuredPower& watts,
                                     Diagnostics& d) {
        p.power = watts;
        p.id = id;
        registry.add(p);
        return resolveWith(withCalibration(id), registry, d);
    };
    const auto warnedAt = [](const Diagnostics& d, const std::string& piece) {
        const auto warnings = d.warnings();
        return std::any_of(warnings.begin(), warnings.end(), [&](const auto& w) {
            return w.path == "/calibration" && w.message.find(piece) != std::string::npos;
        });
    };

    // A phase measured below idle is not used, and the resolver says so.
    power.memoryBound = PhasePower{60, 70, 80};
    Diagnostics lowDiags;
    auto low = resolveMeasured("low", power, lowDiags);
    QVERIFY(low);
    QCOMPARE(low->costs.gpuPower.memoryBound, kDefaultGpuPowerFractions.memoryBound);
    QVERIFY(warnedAt(lowDiags, "below its idle power"));

    // An idle figure at or above the TDP is not used either, and said so.
    MeasuredPower hotIdle;
    hotIdle.idle = PhasePower{tdp + 50, tdp + 60, 50};
    Diagnostics hotDiags;
    auto hot = resolveMeasured("hot", hotIdle, hotDiags);
    QVERIFY(hot);
    QCOMPARE(*hot->costs.gpuIdleW, *plain->costs.gpuIdleW);
    QVERIFY(has(*hot, MessageId::IdlePowerAssumed) && has(*hot, MessageId::PhasePowerAssumed));
    QVERIFY(warnedAt(hotDiags, "not below the GPU's TDP"));
}

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
