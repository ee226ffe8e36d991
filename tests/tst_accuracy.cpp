// Accuracy against published measured runs (tests/data/published-dev.json, a copy of
// shared/validation): every dense case (no MoE, cp = 1) is estimated; the test prints the
// median and 90th-percentile relative step-time error per source and overall, the worst ten,
// and the peak-memory error of the torchtitan cases. The long-context (cp > 1) and MoE cases
// are estimated and reported as separate subsets, as are the FP8/MXFP8 cases and all cases
// together (which must meet issue 5's target: median <= 10%, p90 <= 25%, coverage >= 95%).
// The best figures so far live in
// tests/data/accuracy-ratchet.json: the test fails when a change makes the overall median or
// p90 worse (beyond a 0.1 percentage-point tolerance), or a subset's, so accuracy only
// ratchets up.

#include "AccuracyStats.h"
#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ts;
using nlohmann::json;

namespace {

constexpr double kTolerance = 0.001; // 0.1 percentage points

struct CaseResult {
    std::string id;
    std::string source;
    std::string subset; // "dense" (cp = 1, no MoE), "cp" (cp > 1), "moe"
    double measured = 0;
    double predicted = 0;
    bool fp8 = false; // FP8 or MXFP8 training
    double error() const { return std::abs(predicted - measured) / measured; }
    double signedError() const { return (predicted - measured) / measured; }
};

double quantile(std::vector<double> v, double q) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    // Linear interpolation between order statistics (numpy's default).
    const double pos = q * double(v.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

// The subsets reported separately: MoE (with or without MLA), long context (cp > 1), dense.
std::string subsetOf(const json& scenario) {
    const json& model = scenario.at("model");
    if (model.contains("moe") && !model.at("moe").is_null())
        return "moe";
    const json& par = scenario.at("parallelism");
    if (par.contains("cp") && par.at("cp").get<int>() > 1)
        return "cp";
    return "dense";
}

bool isDense(const json& scenario) {
    const json& model = scenario.at("model");
    const bool moe = model.contains("moe") && !model.at("moe").is_null();
    const bool mla = model.contains("mla") && !model.at("mla").is_null();
    const json& par = scenario.at("parallelism");
    const int cp = par.contains("cp") ? par.at("cp").get<int>() : 1;
    return !moe && !mla && cp == 1;
}

std::string dataPath(const char* name) {
    return (test::sourceDir() + "/tests/data/" + name).toStdString();
}

} // namespace

class TestAccuracy : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyDenseCaseEstimates();
    void stepTimeRatchet();
    void peakMemoryOfTorchtitanCases();
    void subsetRatchets();

private:
    json cases_;
    std::vector<CaseResult> results_;
    std::vector<CaseResult> memory_;
    int dense_ = 0;
    std::vector<std::string> failures_;
    std::vector<CaseResult> others_; // cp > 1 and MoE cases
    std::map<std::string, std::vector<std::string>> otherFailures_;
    std::map<std::string, int> otherCount_;
};

void TestAccuracy::initTestCase() {
    const std::string text = test::readAll(QString::fromStdString(dataPath("published-dev.json")));
    QVERIFY2(!text.empty(), "tests/data/published-dev.json is missing");
    cases_ = json::parse(text);
    for (const json& c : cases_) {
        const json& scenarioJson = c.at("scenario");
        const std::string subset = subsetOf(scenarioJson);
        const std::string precision =
            scenarioJson.at("training").value("precision", std::string("bf16"));
        const bool fp8 = precision == "fp8" || precision == "mxfp8";
        const bool dense = isDense(scenarioJson);
        if (dense)
            ++dense_;
        else
            ++otherCount_[subset];
        Diagnostics diags;
        const auto scenario = scenarioFromJson(nlohmann::ordered_json(scenarioJson), diags);
        std::optional<ResolvedScenario> resolved;
        if (scenario)
            resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
        std::optional<Estimate> estimate;
        if (resolved)
            estimate = estimatePlan(*resolved, diags);
        if (!estimate) {
            std::string why;
            for (const auto& d : diags.errors()) {
                why += ' ';
                why += d.toString();
            }
            (dense ? failures_ : otherFailures_[subset])
                .push_back(c.at("id").get<std::string>() + ":" + why);
            continue;
        }
        const json& measured = c.at("measured");
        if (!dense) {
            if (!measured.at("step_s").is_null())
                others_.push_back({c.at("id"), c.at("source"), subset,
                                   measured.at("step_s").get<double>(), estimate->stepSeconds,
                                   fp8});
            continue;
        }
        if (!measured.at("step_s").is_null())
            results_.push_back({c.at("id"), c.at("source"), subset,
                                measured.at("step_s").get<double>(), estimate->stepSeconds, fp8});
        if (!measured.at("peak_memory_gib").is_null()) {
            // Against the figure the source measured (measured.memory_metric; AccuracyStats.h).
            const json metric = measured.value("memory_metric", json());
            memory_.push_back(
                {c.at("id"), c.at("source"), subset, measured.at("peak_memory_gib").get<double>(),
                 test::memoryFor(*estimate, metric.is_string() ? metric.get<std::string>() : "") /
                     double(1ull << 30)});
        }
    }
}

void TestAccuracy::everyDenseCaseEstimates() {
    for (const std::string& f : failures_)
        qWarning("not estimated: %s", f.c_str());
    QCOMPARE(dense_, 49);
    QVERIFY(failures_.empty());
}

void TestAccuracy::stepTimeRatchet() {
    QVERIFY(!results_.empty());
    std::map<std::string, std::vector<double>> bySource;
    std::vector<double> all;
    for (const CaseResult& r : results_) {
        bySource[r.source].push_back(r.error());
        all.push_back(r.error());
    }
    std::printf("\nStep-time error |pred - meas| / meas on %zu dense cases\n", all.size());
    std::printf("  %-44s %5s %8s %8s\n", "source", "cases", "median", "p90");
    for (const auto& [source, errors] : bySource)
        std::printf("  %-44s %5zu %7.1f%% %7.1f%%\n", source.c_str(), errors.size(),
                    100 * quantile(errors, 0.5), 100 * quantile(errors, 0.9));
    const double median = quantile(all, 0.5);
    const double p90 = quantile(all, 0.9);
    std::printf("  %-44s %5zu %7.1f%% %7.1f%%\n", "overall", all.size(), 100 * median, 100 * p90);

    std::vector<CaseResult> sorted = results_;
    std::sort(sorted.begin(), sorted.end(),
              [](const CaseResult& a, const CaseResult& b) { return a.error() > b.error(); });
    std::printf("Worst ten (predicted vs measured step, signed error):\n");
    for (std::size_t i = 0; i < std::min<std::size_t>(10, sorted.size()); ++i)
        std::printf("  %-58s %9.3f s %9.3f s %+7.1f%%\n", sorted[i].id.c_str(), sorted[i].predicted,
                    sorted[i].measured, 100 * sorted[i].signedError());
    if (qEnvironmentVariableIsSet("TRAINSCAPE_ACCURACY_ALL")) {
        std::printf("All cases:\n");
        for (const CaseResult& r : results_)
            std::printf("  %-58s %9.3f s %9.3f s %+7.1f%%\n", r.id.c_str(), r.predicted, r.measured,
                        100 * r.signedError());
    }

    const std::string ratchetText =
        test::readAll(QString::fromStdString(dataPath("accuracy-ratchet.json")));
    QVERIFY2(!ratchetText.empty(), "tests/data/accuracy-ratchet.json is missing");
    const json ratchet = json::parse(ratchetText);
    const double bestMedian = ratchet.at("step_time").at("median").get<double>();
    const double bestP90 = ratchet.at("step_time").at("p90").get<double>();
    std::printf("Ratchet: median %.2f%% (best %.2f%%), p90 %.2f%% (best %.2f%%)\n", 100 * median,
                100 * bestMedian, 100 * p90, 100 * bestP90);
    if (median < bestMedian - kTolerance || p90 < bestP90 - kTolerance)
        std::printf("Better than the ratchet: update tests/data/accuracy-ratchet.json to "
                    "{\"median\": %.4f, \"p90\": %.4f}\n",
                    std::min(median, bestMedian), std::min(p90, bestP90));
    QVERIFY2(median <= bestMedian + kTolerance, "median step-time error got worse");
    QVERIFY2(p90 <= bestP90 + kTolerance, "p90 step-time error got worse");
}

void TestAccuracy::peakMemoryOfTorchtitanCases() {
    QVERIFY(!memory_.empty());
    std::vector<double> errors;
    std::printf("\nPeak memory per GPU (torchtitan, measured = max reserved over GPUs)\n");
    for (const CaseResult& r : memory_) {
        errors.push_back(r.error());
        std::printf("  %-58s %7.1f GiB %7.1f GiB %+7.1f%%\n", r.id.c_str(), r.predicted, r.measured,
                    100 * r.signedError());
    }
    const double median = quantile(errors, 0.5);
    std::printf("  median %.2f%%, p90 %.2f%%, on %zu cases\n", 100 * median,
                100 * quantile(errors, 0.9), errors.size());
    const std::string ratchetText =
        test::readAll(QString::fromStdString(dataPath("accuracy-ratchet.json")));
    const json ratchet = json::parse(ratchetText);
    if (ratchet.contains("peak_memory")) {
        const double best = ratchet.at("peak_memory").at("median").get<double>();
        QVERIFY2(median <= best + kTolerance, "median peak-memory error got worse");
    }
}

// The cp > 1, MoE, FP8/MXFP8 and "all" subsets: printed always; a subset with an entry under
// "subsets" in the ratchet file must estimate every case and must not get worse.
void TestAccuracy::subsetRatchets() {
    const json ratchet =
        json::parse(test::readAll(QString::fromStdString(dataPath("accuracy-ratchet.json"))));
    const json subsets = ratchet.value("subsets", json::object());
    std::map<std::string, std::vector<CaseResult>> members;
    std::map<std::string, std::vector<std::string>> failed = otherFailures_;
    std::map<std::string, int> count = otherCount_;
    for (const auto* list : {&results_, &others_})
        for (const CaseResult& r : *list) {
            members["all"].push_back(r);
            if (r.fp8)
                members["fp8"].push_back(r);
            if (list == &others_)
                members[r.subset].push_back(r);
        }
    count["all"] = static_cast<int>(cases_.size());
    for (const auto& [subset, f] : otherFailures_)
        failed["all"].insert(failed["all"].end(), f.begin(), f.end());
    failed["all"].insert(failed["all"].end(), failures_.begin(), failures_.end());
    count["fp8"] = static_cast<int>(members["fp8"].size()); // of the estimated ones

    for (auto& [subset, rs] : members) {
        std::vector<double> errors;
        for (const CaseResult& r : rs)
            errors.push_back(r.error());
        const auto& notEstimated = failed[subset];
        const double median = quantile(errors, 0.5);
        const double p90 = quantile(errors, 0.9);
        std::printf("\nSubset %s: %d cases, %zu estimated, median %.1f%%, p90 %.1f%%\n",
                    subset.c_str(), count[subset], errors.size(), 100 * median, 100 * p90);
        std::sort(rs.begin(), rs.end(),
                  [](const CaseResult& a, const CaseResult& b) { return a.error() > b.error(); });
        const std::size_t shown = subset == "all" || subset == "fp8" ? 10 : rs.size();
        for (std::size_t i = 0; i < std::min(shown, rs.size()); ++i)
            std::printf("  %-70s %9.3f s %9.3f s %+7.1f%%\n", rs[i].id.c_str(), rs[i].predicted,
                        rs[i].measured, 100 * rs[i].signedError());
        for (const std::string& f : notEstimated)
            std::printf("  not estimated: %s\n", f.c_str());
        if (subset == "all") {
            // Issue 5's target: every published case estimates (coverage >= 95%), median error
            // at most 10% and p90 at most 25% over all of them.
            QVERIFY2(errors.size() >= 0.95 * double(count[subset]), "coverage below 95%");
            QVERIFY2(median <= 0.10, "median step-time error over all cases above 10%");
            QVERIFY2(p90 <= 0.25, "p90 step-time error over all cases above 25%");
        }
        if (!subsets.contains(subset)) {
            std::printf("  not in the ratchet yet: add \"%s\": {\"median\": %.4f, \"p90\": "
                        "%.4f} under \"subsets\" in tests/data/accuracy-ratchet.json\n",
                        subset.c_str(), median, p90);
            continue;
        }
        const double bestMedian = subsets.at(subset).at("median").get<double>();
        const double bestP90 = subsets.at(subset).at("p90").get<double>();
        if (median < bestMedian - kTolerance || p90 < bestP90 - kTolerance)
            std::printf("  better than the ratchet: {\"median\": %.4f, \"p90\": %.4f}\n",
                        std::min(median, bestMedian), std::min(p90, bestP90));
        std::printf("  ratchet: median %.2f%% (best %.2f%%), p90 %.2f%% (best %.2f%%)\n",
                    100 * median, 100 * bestMedian, 100 * p90, 100 * bestP90);
        QVERIFY2(notEstimated.empty(), (subset + ": a case no longer estimates").c_str());
        QVERIFY2(median <= bestMedian + kTolerance, (subset + ": median got worse").c_str());
        QVERIFY2(p90 <= bestP90 + kTolerance, (subset + ": p90 got worse").c_str());
    }
}

QTEST_GUILESS_MAIN(TestAccuracy)
#include "tst_accuracy.moc"
