// The error band of every estimate (time.expected_error; core/accuracy/ErrorBand.h and
// tools/errorband): the percentile and similarity code on hand-made rows; the generated
// residual table against the estimator as it now is (a stale table fails); and the band's
// calibration: leaving each published run out in turn, the band from all the others must
// hold its measured step time for 70-90% of the runs (issue 16). Prints the coverage and
// the median width, overall and per subset. The same for the peak-memory band
// (memory.expected_error, a project key): its table, its calibration, and where it is null.

#include "TestSupport.h"

#include "PublishedErrorBand.h"
#include "accuracy/ErrorBand.h"
#include "accuracy/PublishedRuns.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <vector>

using namespace ts;

namespace {

RunTraits denseH100(std::int64_t gpus = 64) {
    RunTraits t;
    t.generation = GpuGeneration::Hopper;
    t.numGpus = gpus;
    return t;
}

RunTraits moeGb200() {
    RunTraits t;
    t.moe = true;
    t.generation = GpuGeneration::Blackwell;
    t.precision = Precision::MxFp8;
    t.cudaGraphs = CudaGraphs::Full;
    t.dispatcher = MoeDispatcher::HybridEp;
    t.numGpus = 256;
    return t;
}

// Residuals that can be told apart: ids "r0".."r(n-1)" holding residual i / 100.
struct Table {
    std::vector<std::string> ids;
    std::vector<ValidationResidual> runs;
    Table(int n, const RunTraits& traits) : ids(std::size_t(n)) {
        for (int i = 0; i < n; ++i) {
            ids[std::size_t(i)] = std::string("r").append(std::to_string(i));
            runs.push_back({ids[std::size_t(i)], traits, i / 100.0});
        }
    }
};

} // namespace

class TestErrorBand : public QObject {
    Q_OBJECT
private slots:
    void quantiles_data();
    void quantiles();
    void centralIntervalHoldsItsShare();
    void distances_data();
    void distances();
    void generations_data();
    void generations();
    void bandNeedsEnoughSimilarRuns();
    void bandTakesTheNearest();
    void bandLeavesOneOut();
    void bandText();
    void tableFollowsTheEstimator();
    void leaveOneOutCalibration();
    void memoryTableFollowsTheEstimator();
    void memoryLeaveOneOut();
    void memoryBandWherePublished();
};

void TestErrorBand::quantiles_data() {
    QTest::addColumn<QVector<double>>("values");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");
    // numpy.quantile(values, q) (linear interpolation between order statistics).
    QTest::newRow("median of odd") << QVector<double>{3, 1, 2} << 0.5 << 2.0;
    QTest::newRow("median of even") << QVector<double>{4, 1, 3, 2} << 0.5 << 2.5;
    QTest::newRow("p10 of 11") << QVector<double>{10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0} << 0.1 << 1.0;
    QTest::newRow("p90 of 5") << QVector<double>{0, 1, 2, 3, 4} << 0.9 << 3.6;
    QTest::newRow("p10 of 5") << QVector<double>{0, 1, 2, 3, 4} << 0.1 << 0.4;
    QTest::newRow("one value") << QVector<double>{-0.2} << 0.9 << -0.2;
    QTest::newRow("none") << QVector<double>{} << 0.5 << 0.0;
    QTest::newRow("q above 1 clamps") << QVector<double>{1, 2} << 1.5 << 2.0;
}

void TestErrorBand::quantiles() {
    QFETCH(QVector<double>, values);
    QFETCH(double, q);
    QFETCH(double, expected);
    QVERIFY(std::abs(quantile(std::vector<double>(values.begin(), values.end()), q) - expected) <
            1e-12);
}

void TestErrorBand::centralIntervalHoldsItsShare() {
    std::vector<double> v;
    for (int i = 0; i <= 100; ++i)
        v.push_back(i);
    std::reverse(v.begin(), v.end());
    const auto i80 = centralInterval(v, 0.8);
    QVERIFY(i80);
    QCOMPARE(i80->low, 10.0);
    QCOMPARE(i80->high, 90.0);
    const auto inside = std::count_if(v.begin(), v.end(),
                                      [&](double x) { return x >= i80->low && x <= i80->high; });
    QCOMPARE(int(inside), 81); // 80% of 101, the ends included
    QVERIFY(!centralInterval({}, 0.8));
    QVERIFY(!centralInterval({1.0}, 0.0));
    QVERIFY(!centralInterval({1.0}, 1.5));
}

void TestErrorBand::distances_data() {
    QTest::addColumn<int>("change");
    QTest::addColumn<double>("distance");
    QTest::newRow("same") << 0 << 0.0;
    QTest::newRow("MoE vs dense") << 1 << 3.0;
    QTest::newRow("Ampere vs Hopper") << 2 << 1.0;
    QTest::newRow("FP16 vs BF16") << 3 << 0.0;
    QTest::newRow("FP8 vs BF16") << 4 << 1.0;
    QTest::newRow("2x the GPUs") << 5 << 0.25;
    QTest::newRow("1/8 the GPUs") << 6 << 0.75;
    QTest::newRow("1024x the GPUs: capped") << 7 << 1.0;
    QTest::newRow("full vs no CUDA graphs") << 8 << 1.0;
    QTest::newRow("per-layer vs no CUDA graphs") << 9 << 0.5;
    QTest::newRow("cp > 1") << 10 << 1.0;
    QTest::newRow("fine-tuning") << 11 << 1.0;
    QTest::newRow("dispatcher of a dense run: not read") << 12 << 0.0;
    QTest::newRow("unknown GPU is like none") << 13 << 1.0;
}

void TestErrorBand::distances() {
    QFETCH(int, change);
    QFETCH(double, distance);
    const RunTraits a = denseH100(64);
    RunTraits b = a;
    switch (change) {
    case 1:
        b.moe = true;
        break;
    case 2:
        b.generation = GpuGeneration::Ampere;
        break;
    case 3:
        b.precision = Precision::Fp16;
        break;
    case 4:
        b.precision = Precision::Fp8;
        break;
    case 5:
        b.numGpus = 128;
        break;
    case 6:
        b.numGpus = 8;
        break;
    case 7:
        b.numGpus = 65536;
        break;
    case 8:
        b.cudaGraphs = CudaGraphs::Full;
        break;
    case 9:
        b.cudaGraphs = CudaGraphs::Layers;
        break;
    case 10:
        b.longContext = true;
        break;
    case 11:
        b.finetune = true;
        break;
    case 12:
        b.dispatcher = MoeDispatcher::DeepEp;
        break;
    case 13: {
        RunTraits u = a;
        u.generation = GpuGeneration::Unknown;
        QCOMPARE(runDistance(u, u), distance);
        return;
    }
    default:
        break;
    }
    QCOMPARE(runDistance(a, b), distance);
    QCOMPARE(runDistance(b, a), distance); // symmetric
}

void TestErrorBand::generations_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("generation");
    const auto row = [](const char* id, const char* name, GpuGeneration g) {
        QTest::newRow(id) << QString(id) << QString(name) << int(g);
    };
    row("a100-sxm-80gb", "NVIDIA A100 SXM4 80GB", GpuGeneration::Ampere);
    row("h100-sxm-80gb", "NVIDIA H100 SXM5 80GB", GpuGeneration::Hopper);
    row("h200-sxm-141gb", "NVIDIA H200 SXM 141GB", GpuGeneration::Hopper);
    row("b200-sxm-180gb", "NVIDIA B200 SXM 180GB (HGX/DGX, 1000 W)", GpuGeneration::Blackwell);
    row("gb300", "NVIDIA GB300 (per Blackwell Ultra GPU, 1400 W)", GpuGeneration::Blackwell);
    row("rtx-4090", "NVIDIA GeForce RTX 4090 24GB", GpuGeneration::Ada);
    row("rtx-a6000", "NVIDIA RTX A6000 48GB", GpuGeneration::Ampere);
    row("rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation 48GB", GpuGeneration::Ada);
    row("l4", "NVIDIA L4 24GB", GpuGeneration::Ada);
    row("a10g", "NVIDIA A10G 24GB (AWS G5)", GpuGeneration::Ampere);
    row("t4", "NVIDIA T4 16GB", GpuGeneration::Turing);
    row("mi300x", "AMD Instinct MI300X", GpuGeneration::Cdna);
    row("gaudi3", "Intel Gaudi 3 (OAM, air-cooled)", GpuGeneration::Gaudi);
    // An explicit GPU object (the torchtitan runs): only a name.
    row("", "H100 SXM 96GB HBM2e, 500 W power limit (Meta Grand Teton)", GpuGeneration::Hopper);
    row("", "My accelerator", GpuGeneration::Unknown);
}

void TestErrorBand::generations() {
    QFETCH(QString, id);
    QFETCH(QString, name);
    QFETCH(int, generation);
    QCOMPARE(int(gpuGeneration(id.toStdString(), name.toStdString())), generation);
}

void TestErrorBand::bandNeedsEnoughSimilarRuns() {
    const Table seven(7, denseH100());
    QVERIFY(!errorBand(denseH100(), seven.runs)); // minCases is 8
    const Table eight(8, denseH100());
    const auto band = errorBand(denseH100(), eight.runs);
    QVERIFY(band);
    QCOMPARE(band->cases, 8);
    // Too far: the same runs, seen from an MoE scenario (3 away), give no band.
    QVERIFY(!errorBand(moeGb200(), eight.runs));
}

void TestErrorBand::bandTakesTheNearest() {
    // 30 runs at 64 GPUs with residual +0.5 and 30 at 128 GPUs (0.25 away) with -0.5: from
    // 64 GPUs the nearest 30 are the first kind only. (The runs view their ids: a deque keeps
    // them in place as more are added; a vector's reallocation freed them, found by ASan.)
    std::deque<std::string> ids;
    for (int i = 0; i < 60; ++i)
        ids.push_back(std::string("run").append(std::to_string(100 + i)));
    std::vector<ValidationResidual> runs;
    for (int i = 0; i < 60; ++i)
        runs.push_back({ids[std::size_t(i)], denseH100(i < 30 ? 64 : 128), i < 30 ? 0.5 : -0.5});
    const auto band = errorBand(denseH100(64), runs);
    QVERIFY(band);
    QCOMPARE(band->cases, 30);
    QCOMPARE(band->low, 0.5);
    QCOMPARE(band->high, 0.5);
    // Ten more at 64 GPUs: all 40 are equally near, and every run tied with the 30th is kept.
    for (int i = 0; i < 10; ++i)
        ids.push_back(std::string("tie").append(std::to_string(i)));
    for (int i = 0; i < 10; ++i)
        runs.push_back({ids[std::size_t(60 + i)], denseH100(64), 0.5});
    QCOMPARE(errorBand(denseH100(64), runs)->cases, 40);
    // Far runs (an MoE run 3 away) never enter, however few the near ones.
    runs.push_back({"moe", moeGb200(), 5.0});
    QVERIFY(errorBand(denseH100(64), runs)->high < 1.0);
}

void TestErrorBand::bandLeavesOneOut() {
    Table t(9, denseH100());
    t.runs.back().residual = 10.0; // r8
    const auto with = errorBand(denseH100(), t.runs);
    const auto without = errorBand(denseH100(), t.runs, {}, "r8");
    QVERIFY(with && without);
    QCOMPARE(with->cases, 9);
    QCOMPARE(without->cases, 8);
    QVERIFY(with->high > 1.0);     // r8 pulls the 90th percentile up
    QVERIFY(without->high < 0.08); // the others hold 0.00 .. 0.07
    QVERIFY(!errorBand(denseH100(), Table(8, denseH100()).runs, {}, "r0")); // 7 left
}

void TestErrorBand::bandText() {
    ExpectedError e{-0.04, 0.06, 31, "basis"};
    QCOMPARE(QString::fromStdString(errorBandText(e)),
             QString::fromUtf8("\u22124% \u2026 +6% on 31 similar runs"));
    e = {0.021, 0.149, 9, ""};
    QCOMPARE(QString::fromStdString(errorBandText(e)),
             QString::fromUtf8("+2% \u2026 +15% on 9 similar runs"));
    e = {-0.3, -0.004, 12, ""};
    QCOMPARE(QString::fromStdString(errorBandText(e)),
             QString::fromUtf8("\u221230% \u2026 0% on 12 similar runs"));
}

// The table compiled into trainscape_errorband is the current estimator's: the build writes
// it again whenever core changes (tools/errorband/CMakeLists.txt).
void TestErrorBand::tableFollowsTheEstimator() {
    const std::string text = test::readAll(test::sourceDir() + "/tests/data/published-dev.json");
    QVERIFY2(!text.empty(), "tests/data/published-dev.json is missing");
    const PublishedRuns now = estimatePublishedRuns(nlohmann::json::parse(text));
    const auto table = publishedResiduals();
    QCOMPARE(table.size(), now.runs.size());
    QVERIFY(table.size() >= 100); // of the 124 dev cases
    for (std::size_t i = 0; i < table.size(); ++i) {
        QCOMPARE(std::string(table[i].id), now.runs[i].id);
        QVERIFY2(table[i].traits == now.runs[i].traits, now.runs[i].id.c_str());
        QVERIFY2(std::abs(table[i].residual - now.runs[i].residual()) < 1e-12,
                 now.runs[i].id.c_str());
    }
}

void TestErrorBand::leaveOneOutCalibration() {
    const auto table = publishedResiduals();
    QVERIFY(!table.empty());
    struct Tally {
        int runs = 0, banded = 0, inside = 0;
        std::vector<double> widths;
    };
    std::map<std::string, Tally> tallies;
    for (const ValidationResidual& run : table) {
        const auto band = errorBand(run.traits, table, {}, run.id);
        for (const std::string& subset :
             {std::string("all"), std::string(run.traits.moe ? "MoE" : "dense")}) {
            Tally& t = tallies[subset];
            ++t.runs;
            if (!band)
                continue;
            ++t.banded;
            t.widths.push_back(band->high - band->low);
            if (run.residual >= band->low && run.residual <= band->high)
                ++t.inside;
        }
    }
    std::printf("\nError band, leave-one-out over the %zu published runs (band from the others)\n",
                table.size());
    std::printf("  %-6s %5s %7s %9s %13s\n", "subset", "runs", "banded", "coverage",
                "median width");
    for (const auto& [subset, t] : tallies)
        std::printf("  %-6s %5d %7d %8.1f%% %12.1f%%\n", subset.c_str(), t.runs, t.banded,
                    t.banded ? 100.0 * t.inside / t.banded : 0.0, 100.0 * quantile(t.widths, 0.5));
    const Tally& all = tallies["all"];
    const double coverage = double(all.inside) / double(all.banded);
    // Most runs get a band (else calibration would be measured on few) ...
    QVERIFY2(all.banded >= 0.8 * all.runs, "fewer than 80% of the runs have a band");
    // ... and it holds the measured value for 70-90% of them (issue 16).
    QVERIFY2(coverage >= 0.70, "the band holds fewer than 70% of the runs left out");
    QVERIFY2(coverage <= 0.90, "the band holds more than 90% of the runs left out: too wide");
}

// The memory table is the current estimator's over the published memory figures (the 18
// torchtitan peaks of published-dev.json and the torchtune ones of finetune-dev.json), the
// contradicted ones left out (finetune-inconsistent.json, and the paged optimizers).
void TestErrorBand::memoryTableFollowsTheEstimator() {
    const auto read = [](const char* name) {
        const std::string text = test::readAll(test::sourceDir() + "/tests/data/" + name);
        return text.empty() ? nlohmann::json() : nlohmann::json::parse(text);
    };
    const nlohmann::json inconsistent = read("finetune-inconsistent.json");
    QVERIFY(inconsistent.is_object());
    const PublishedMemory now = estimatePublishedMemory(
        {read("published-dev.json"), read("finetune-dev.json")}, inconsistent.at("cases"));
    const auto table = publishedMemoryResiduals();
    QCOMPARE(table.size(), now.runs.size());
    QVERIFY(table.size() >= 30); // 18 torchtitan, 17 torchtune
    QVERIFY(now.notEstimated.empty());
    QVERIFY(now.leftOut.size() >= inconsistent.at("cases").size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        QCOMPARE(std::string(table[i].id), now.runs[i].id);
        QVERIFY2(table[i].traits == now.runs[i].traits, now.runs[i].id.c_str());
        QVERIFY2(std::abs(table[i].residual - now.runs[i].residual()) < 1e-12,
                 now.runs[i].id.c_str());
    }
}

// Each memory figure left out in turn: the band from the others. Printed per subset; most
// figures get one, and it holds the measured figure for 60-95% of them (fewer, and more
// alike, figures than the step times: a looser range than issue 16's 70-90%).
void TestErrorBand::memoryLeaveOneOut() {
    const auto table = publishedMemoryResiduals();
    QVERIFY(!table.empty());
    const ErrorBandRule rule = memoryErrorBandRule();
    int banded = 0, inside = 0;
    std::map<std::string, std::pair<int, int>> perSubset; // banded, inside
    std::vector<double> widths;
    for (const ValidationResidual& run : table) {
        const auto band = errorBand(run.traits, table, rule, run.id);
        if (!band)
            continue;
        const bool in = run.residual >= band->low && run.residual <= band->high;
        ++banded;
        inside += in ? 1 : 0;
        widths.push_back(band->high - band->low);
        auto& sub = perSubset[run.traits.finetune ? "fine-tuning" : "pre-training"];
        ++sub.first;
        sub.second += in ? 1 : 0;
    }
    std::printf("\nMemory band, leave-one-out over the %zu published memory figures\n",
                table.size());
    for (const auto& [subset, t] : perSubset)
        std::printf("  %-12s banded %2d, coverage %5.1f%%\n", subset.c_str(), t.first,
                    t.first ? 100.0 * t.second / t.first : 0.0);
    const double coverage = banded ? double(inside) / double(banded) : 0.0;
    std::printf("  all          banded %2d of %zu, coverage %5.1f%%, median width %.1f%%\n", banded,
                table.size(), 100.0 * coverage, 100.0 * quantile(widths, 0.5));
    QVERIFY2(banded >= 0.7 * double(table.size()), "fewer than 70% of the figures have a band");
    QVERIFY2(coverage >= 0.60, "the memory band holds fewer than 60% of the figures left out");
    QVERIFY2(coverage <= 0.95, "the memory band holds more than 95%: too wide to say anything");
}

// A PyTorch fine-tuning plan gets a band from the torchtune figures; a Megatron-LM plan, for
// which no memory was published, gets none (and the JSON says null).
void TestErrorBand::memoryBandWherePublished() {
    const auto bandOf = [](const char* example) -> std::optional<ExpectedError> {
        Diagnostics diags;
        const std::string text =
            test::readAll(test::sourceDir() + "/resources/examples/" + example);
        const auto scenario = parseScenarioText(text, diags);
        const auto resolved =
            scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
        if (!resolved)
            return std::nullopt;
        return publishedMemoryErrorBand(*resolved);
    };
    const auto qlora = bandOf("llama3.1-8b-qlora-1xrtx4090.json");
    QVERIFY(qlora);
    QVERIFY(qlora->low < 0 && qlora->high > 0);
    QVERIFY(qlora->cases >= 8);
    QVERIFY2(qlora->basis.find("PyTorch modules") != std::string::npos, qlora->basis.c_str());
    QVERIFY2(qlora->basis.find("fine-tuning") != std::string::npos, qlora->basis.c_str());
    QVERIFY(!bandOf("llama3-70b-64xh100.json")); // Megatron-LM
    QVERIFY(!bandOf("deepseek-v3-1024xh100.json"));
}

QTEST_GUILESS_MAIN(TestErrorBand)
#include "tst_error_band.moc"
