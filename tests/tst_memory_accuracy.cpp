// Peak memory of the published pre-training runs that report one (tests/data/published-dev.json:
// torchtitan's llama3_h100_202412 benchmark, 18 cases, torch.cuda.max_memory_reserved), each
// against the estimate's figure for the metric it measured (AccuracyStats.h, memoryFor).
// Issue 16's target: median |error| <= 8%, p90 <= 15%. tests/data/memory-ratchet.json keeps
// the best figures so far.

#include "AccuracyStats.h"
#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cstdio>
#include <string>
#include <vector>

using namespace ts;
using nlohmann::json;

namespace {

constexpr double kTolerance = 0.001;
constexpr double kGiB = double(1ull << 30);

std::string dataPath(const char* name) {
    return (test::sourceDir() + "/tests/data/" + name).toStdString();
}

} // namespace

class TestMemoryAccuracy : public QObject {
    Q_OBJECT
private slots:
    void publishedPeaks();
};

void TestMemoryAccuracy::publishedPeaks() {
    const json cases =
        json::parse(test::readAll(QString::fromStdString(dataPath("published-dev.json"))));
    std::vector<double> errors;
    std::printf("\nPeak memory per GPU of the published pre-training runs, against the metric "
                "measured\n");
    for (const json& c : cases) {
        const json& m = c.at("measured");
        if (!m.contains("peak_memory_gib") || m.at("peak_memory_gib").is_null())
            continue;
        const std::string metric = m.value("memory_metric", json()).is_string()
                                       ? m.at("memory_metric").get<std::string>()
                                       : std::string();
        Diagnostics diags;
        const auto s = scenarioFromJson(nlohmann::ordered_json(c.at("scenario")), diags);
        QVERIFY(s);
        const auto r = resolveScenario(*s, Catalog::builtIn(), diags);
        QVERIFY(r);
        const auto e = estimatePlan(*r, diags);
        QVERIFY2(e, c.at("id").get<std::string>().c_str());
        const double measured = m.at("peak_memory_gib").get<double>();
        const double predicted = test::memoryFor(*e, metric) / kGiB;
        errors.push_back(std::abs(predicted - measured) / measured);
        std::printf("  %-50s %-9s %6.1f GiB %6.1f GiB %+7.1f%%  (allocated %.1f, device %.1f)\n",
                    c.at("id").get<std::string>().c_str(), metric.c_str(), predicted, measured,
                    100 * (predicted - measured) / measured, e->peakAllocatedBytes / kGiB,
                    e->peakBytes / kGiB);
    }
    const double median = test::quantile(errors, 0.5), p90 = test::quantile(errors, 0.9);
    std::printf("  %zu cases: median %.2f%%, p90 %.2f%% (target: median <= 8%%, p90 <= 15%%)\n",
                errors.size(), 100 * median, 100 * p90);
    QCOMPARE(errors.size(), std::size_t(18));
    const json best =
        json::parse(test::readAll(QString::fromStdString(dataPath("memory-ratchet.json"))));
    const double bm = best.at("median"), bp = best.at("p90");
    if (median < bm - kTolerance || p90 < bp - kTolerance)
        std::printf("  better than the ratchet: {\"median\": %.4f, \"p90\": %.4f}\n",
                    std::min(median, bm), std::min(p90, bp));
    QVERIFY2(median <= bm + kTolerance, "median peak-memory error got worse");
    QVERIFY2(p90 <= bp + kTolerance, "p90 peak-memory error got worse");
}

QTEST_GUILESS_MAIN(TestMemoryAccuracy)
#include "tst_memory_accuracy.moc"
