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
#include <functional>
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
    bool fp8 = false;     // FP8 or MXFP8 training
    std::string gpu = {}; // the cluster's GPU (catalog id, or the GPU object's name)
    double error() const { return std::abs(predicted - measured) / measured; }
    double signedError() const { return (predicted - measured) / measured; }
};

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

// The 53 runs of the Megatron-Bridge 26.02 and 26.06 containers joined the dev set with issue
// 16; the figures of the first 71 cases keep their own ratchet.
bool isFirst71(const json& c) {
    const std::string source = c.at("source").get<std::string>();
    return source != "Megatron-Bridge 26.02" && source != "Megatron-Bridge 26.06";
}

std::string dataPath(const char* name) {
    return (test::sourceDir() + "/tests/data/" + name).toStdString();
}

json readData(const char* name) {
    return json::parse(test::readAll(QString::fromStdString(dataPath(name))));
}

// Whether a subset's median and p90 are no worse than its entry in `best` (a ratchet object
// of tests/data/accuracy-ratchet.json; true without one). Prints the entry to write when they
// are better.
bool ratchetHolds(const json& best, const std::string& name, double median, double p90) {
    if (!best.contains(name))
        return true;
    const double bestMedian = best.at(name).at("median").get<double>();
    const double bestP90 = best.at(name).at("p90").get<double>();
    if (median < bestMedian - kTolerance || p90 < bestP90 - kTolerance)
        std::printf("    better than the ratchet: \"%s\": {\"median\": %.4f, \"p90\": %.4f}\n",
                    name.c_str(), std::min(median, bestMedian), std::min(p90, bestP90));
    return median <= bestMedian + kTolerance && p90 <= bestP90 + kTolerance;
}

// One case's scenario estimated as a user's file would be: read, resolved against the built-in
// catalog, estimated. Without an estimate, `why` lists the errors.
struct CaseEstimate {
    std::optional<ResolvedScenario> resolved;
    std::optional<Estimate> estimate;
    std::string why;
};

CaseEstimate estimateScenario(const json& scenarioJson) {
    Diagnostics diags;
    CaseEstimate out;
    const auto scenario = scenarioFromJson(nlohmann::ordered_json(scenarioJson), diags);
    if (scenario)
        out.resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    if (out.resolved)
        out.estimate = estimatePlan(*out.resolved, diags);
    if (!out.estimate)
        for (const auto& d : diags.errors()) {
            out.why += ' ';
            out.why += d.toString();
        }
    return out;
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
    void allDevCases();
    void containerRatios();
    void blockScaledPairs();
    void epOverlapPairs();
    void statedKeys();

private:
    json cases_;
    std::vector<CaseResult> results_;
    std::vector<CaseResult> memory_;
    int dense_ = 0;
    std::vector<std::string> failures_;
    std::vector<CaseResult> others_; // cp > 1 and MoE cases
    std::map<std::string, std::vector<std::string>> otherFailures_;
    std::map<std::string, int> otherCount_;
    std::vector<CaseResult> all_; // every estimated case of the 124 (issue 16)
    int notEstimated_ = 0;

    using CasePair = std::pair<const CaseResult*, const CaseResult*>;
    // Every estimated case whose twin (`twinId` of its id; "" = none) was estimated too, on
    // the same model and cluster, in id order.
    std::vector<CasePair> twins(const std::function<std::string(const std::string&)>& twinId) const;
};

std::vector<TestAccuracy::CasePair>
TestAccuracy::twins(const std::function<std::string(const std::string&)>& twinId) const {
    std::map<std::string, const CaseResult*> byId;
    for (const CaseResult& r : all_)
        byId[r.id] = &r;
    std::map<std::string, const json*> caseById;
    for (const json& c : cases_)
        caseById[c.at("id").get<std::string>()] = &c;
    std::vector<CasePair> out;
    for (const auto& [id, r] : byId) {
        const std::string other = twinId(id);
        if (other.empty() || !byId.count(other))
            continue;
        const json& a = caseById.at(id)->at("scenario");
        const json& b = caseById.at(other)->at("scenario");
        if (a.at("model") == b.at("model") && a.at("cluster") == b.at("cluster"))
            out.emplace_back(r, byId.at(other));
    }
    return out;
}

void TestAccuracy::initTestCase() {
    const std::string text = test::readAll(QString::fromStdString(dataPath("published-dev.json")));
    QVERIFY2(!text.empty(), "tests/data/published-dev.json is missing");
    cases_ = json::parse(text);
    for (const json& c : cases_) {
        const bool first71 = isFirst71(c);
        const json& scenarioJson = c.at("scenario");
        const std::string subset = subsetOf(scenarioJson);
        const std::string precision =
            scenarioJson.at("training").value("precision", std::string("bf16"));
        const bool fp8 = precision == "fp8" || precision == "mxfp8";
        const bool dense = isDense(scenarioJson);
        if (first71 && dense)
            ++dense_;
        else if (first71)
            ++otherCount_[subset];
        const CaseEstimate e = estimateScenario(scenarioJson);
        const std::optional<ResolvedScenario>& resolved = e.resolved;
        const std::optional<Estimate>& estimate = e.estimate;
        if (!estimate) {
            const std::string& why = e.why;
            ++notEstimated_;
            if (first71)
                (dense ? failures_ : otherFailures_[subset])
                    .push_back(c.at("id").get<std::string>() + ":" + why);
            else
                qWarning("not estimated: %s:%s", c.at("id").get<std::string>().c_str(),
                         why.c_str());
            continue;
        }
        const json& measured = c.at("measured");
        if (!measured.at("step_s").is_null()) {
            const std::string gpu = resolved->cluster.gpuId.empty() ? resolved->cluster.gpu.name
                                                                    : resolved->cluster.gpuId;
            all_.push_back({c.at("id"), c.at("source"), subset, measured.at("step_s").get<double>(),
                            estimate->stepSeconds, fp8, gpu});
        }
        if (!first71)
            continue;
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
    QCOMPARE(dense_, 49); // of the first 71 cases
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
    const json ratchet = readData("accuracy-ratchet.json");
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
    count["all"] = 71;
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
            // Issue 5's target on the first 71 cases: every case estimates (coverage >= 95%),
            // median error at most 10% and p90 at most 25% over all of them.
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

// Issue 16: all 124 dev cases, per subset (dense, MoE, CP, FP8, per GPU, per container).
// Targets: median <= 5%, p90 <= 15%, MoE median <= 8%. "dev124" in the ratchet file keeps
// the best figures of each subset listed there.
void TestAccuracy::allDevCases() {
    QCOMPARE(notEstimated_, 0);
    QCOMPARE(static_cast<int>(all_.size()), static_cast<int>(cases_.size()));
    std::map<std::string, std::vector<const CaseResult*>> groups;
    for (const CaseResult& r : all_) {
        groups["all"].push_back(&r);
        groups[r.subset].push_back(&r);
        if (r.fp8)
            groups["fp8"].push_back(&r);
        groups["gpu " + r.gpu].push_back(&r);
        groups["source " + r.source].push_back(&r);
    }
    const json ratchet = readData("accuracy-ratchet.json");
    const json best = ratchet.value("dev124", json::object());
    std::printf("\nAll %zu dev cases, step-time |error| by subset\n", all_.size());
    std::printf("  %-46s %5s %8s %8s %8s\n", "subset", "cases", "median", "p90", "signed");
    for (const auto& [name, members] : groups) {
        std::vector<double> errors, signedErrors;
        for (const CaseResult* r : members) {
            errors.push_back(r->error());
            signedErrors.push_back(r->signedError());
        }
        const double median = quantile(errors, 0.5), p90 = quantile(errors, 0.9);
        std::printf("  %-46s %5zu %7.1f%% %7.1f%% %+7.1f%%\n", name.c_str(), errors.size(),
                    100 * median, 100 * p90, 100 * quantile(signedErrors, 0.5));
        QVERIFY2(ratchetHolds(best, name, median, p90),
                 (name + ": median or p90 got worse").c_str());
    }
    std::vector<const CaseResult*> sorted = groups["all"];
    std::sort(sorted.begin(), sorted.end(),
              [](const CaseResult* a, const CaseResult* b) { return a->error() > b->error(); });
    const bool everyCase = qEnvironmentVariableIsSet("TRAINSCAPE_ACCURACY_ALL");
    std::printf("%s (predicted vs measured step, signed error):\n",
                everyCase ? "Every case" : "Worst fifteen");
    for (std::size_t i = 0;
         i < (everyCase ? sorted.size() : std::min<std::size_t>(15, sorted.size())); ++i)
        std::printf("  %-76s %9.3f s %9.3f s %+7.1f%%\n", sorted[i]->id.c_str(),
                    sorted[i]->predicted, sorted[i]->measured, 100 * sorted[i]->signedError());
    auto figure = [&](const std::string& name, double q) {
        std::vector<double> errors;
        for (const CaseResult* r : groups[name])
            errors.push_back(r->error());
        return quantile(errors, q);
    };
    const bool met =
        figure("all", 0.5) <= 0.05 && figure("all", 0.9) <= 0.15 && figure("moe", 0.5) <= 0.08;
    std::printf("Issue 16 target (median <= 5%%, p90 <= 15%%, MoE median <= 8%%): %s\n",
                met ? "met" : "NOT met");
}

// Identical scenarios measured in the 26.02 and the 26.06 containers (same model, cluster and
// id): the predicted ratio of their step times must match the measured one within 10%.
void TestAccuracy::containerRatios() {
    const std::string older = "bridge_26.02", newer = "bridge_26.06";
    int pairs = 0, within = 0;
    double worst = 0;
    std::printf("\n26.02 / 26.06 step-time ratios (measured, predicted, predicted/measured - 1)\n");
    for (const auto& [r, n] : twins([&](const std::string& id) {
             return id.rfind(older, 0) == 0 ? newer + id.substr(older.size()) : std::string();
         })) {
        const std::string& id = r->id;
        const double measured = r->measured / n->measured;
        const double predicted = r->predicted / n->predicted;
        const double deviation = predicted / measured - 1.0;
        ++pairs;
        within += std::abs(deviation) <= 0.10;
        worst = std::max(worst, std::abs(deviation));
        std::printf("  %-66s %6.3f %6.3f %+7.1f%%\n", id.substr(older.size() + 1).c_str(), measured,
                    predicted, 100 * deviation);
    }
    std::printf("  %d pairs, %d within 10%%, worst %.1f%%\n", pairs, within, 100 * worst);
    QCOMPARE(pairs, 16);
    const json ratchet = readData("accuracy-ratchet.json");
    const int bestWithin = ratchet.value("container_pairs_within_10pct", 0);
    if (within > bestWithin)
        std::printf("  better than the ratchet: \"container_pairs_within_10pct\": %d\n", within);
    QVERIFY2(within >= bestWithin, "fewer 26.02/26.06 pairs within 10% than before");
}

// One model on one cluster measured in per-tensor FP8 and in MXFP8 in the same container
// (Megatron-Bridge's "_FP8_" and "_MXFP8_" rows; each precision has its own tuned plan, which
// the prediction carries too): the predicted MXFP8/FP8 step ratio must
// match the measured one within 10% for each pair and within 3% on average
// (hardware/BlockScaledGemm.h was fitted on these six pairs).
void TestAccuracy::blockScaledPairs() {
    const std::string mx = "_MXFP8_", fp8 = "_FP8_";
    int pairs = 0;
    double sumMeasured = 0, sumPredicted = 0;
    std::printf("\nMXFP8 / FP8 step-time ratios (measured, predicted, predicted/measured - 1)\n");
    for (const auto& [r, f] : twins([&](const std::string& id) {
             const std::size_t at = id.find(mx);
             return at == std::string::npos ? std::string()
                                            : id.substr(0, at) + fp8 + id.substr(at + mx.size());
         })) {
        const std::string& id = r->id;
        const double measured = r->measured / f->measured;
        const double predicted = r->predicted / f->predicted;
        ++pairs;
        sumMeasured += measured;
        sumPredicted += predicted;
        std::printf("  %-66s %6.3f %6.3f %+7.1f%%\n", id.c_str(), measured, predicted,
                    100 * (predicted / measured - 1.0));
        QVERIFY2(std::abs(predicted / measured - 1.0) <= 0.10, id.c_str());
    }
    QCOMPARE(pairs, 6);
    const double meanDeviation = sumPredicted / sumMeasured - 1.0;
    std::printf("  %d pairs, mean ratio measured %.3f, predicted %.3f\n", pairs,
                sumMeasured / pairs, sumPredicted / pairs);
    QVERIFY2(std::abs(meanDeviation) <= 0.03, "mean MXFP8/FP8 ratio off by more than 3%");
}

// The same run measured with the expert-parallel all-to-all overlap off and on
// (tests/data/published-ep-overlap.json, from Megatron-Bridge's skill documents): what the
// overlap saves must match the measured saving (off/on step ratio within 10%), and each step
// time must be within 15%. The overlap's exposed fraction (OverlapModel::epExposedFraction)
// was fitted on these two pairs: the check keeps the fit from drifting.
void TestAccuracy::epOverlapPairs() {
    const json doc = readData("published-ep-overlap.json");
    std::printf(
        "\nEP overlap off / on (measured, predicted s; off/on ratio measured, predicted)\n");
    int pairs = 0;
    for (const json& pair : doc.at("pairs")) {
        const std::string id = pair.at("id").get<std::string>();
        double predicted[2] = {0, 0};
        for (int on = 0; on < 2; ++on) {
            json scenario = pair.at("scenario");
            scenario["parallelism"]["overlap"]["ep"] = on == 1;
            const CaseEstimate e = estimateScenario(scenario);
            QVERIFY2(e.estimate, (id + ":" + e.why).c_str());
            predicted[on] = e.estimate->stepSeconds;
        }
        const double off = pair.at("measured_off_s").get<double>();
        const double on = pair.at("measured_on_s").get<double>();
        const double ratioDeviation = (predicted[0] / predicted[1]) / (off / on) - 1.0;
        std::printf("  %-48s off %6.2f %6.2f (%+5.1f%%)  on %6.2f %6.2f (%+5.1f%%)  ratio %.3f "
                    "%.3f (%+5.1f%%)\n",
                    id.c_str(), off, predicted[0], 100 * (predicted[0] / off - 1.0), on,
                    predicted[1], 100 * (predicted[1] / on - 1.0), off / on,
                    predicted[0] / predicted[1], 100 * ratioDeviation);
        QVERIFY2(std::abs(ratioDeviation) <= 0.10, id.c_str());
        QVERIFY2(std::abs(predicted[0] / off - 1.0) <= 0.15, id.c_str());
        QVERIFY2(std::abs(predicted[1] / on - 1.0) <= 0.15, id.c_str());
        ++pairs;
    }
    QCOMPARE(pairs, 2);
}

// The 124 cases again with the keys their sources state beyond the shared format
// (tests/data/published-stated-keys.json: Megatron-Bridge's FP8 rows ran per-tensor current
// scaling, the project's "tensorwise"). Issue 16's targets and the ratchets above stay on the
// cases as published; this reports what the unrecorded settings are worth, and ratchets it
// ("dev124_stated").
void TestAccuracy::statedKeys() {
    const json stated = readData("published-stated-keys.json");
    std::map<std::string, const CaseResult*> published;
    for (const CaseResult& r : all_)
        published[r.id] = &r;
    std::map<std::string, std::vector<double>> errors;
    int changed = 0;
    std::printf("\nWith the stated keys (published-stated-keys.json): the cases they change\n");
    for (const json& c : cases_) {
        const std::string id = c.at("id");
        json doc = c.at("scenario");
        const bool set = test::applyStatedKeys(doc, stated, id) > 0;
        const CaseResult* before = published.count(id) ? published.at(id) : nullptr;
        QVERIFY2(before, (id + ": not estimated as published").c_str());
        CaseResult r = *before;
        if (set) {
            const CaseEstimate e = estimateScenario(doc);
            QVERIFY2(e.estimate, (id + " (stated keys):" + e.why).c_str());
            r.predicted = e.estimate->stepSeconds;
            ++changed;
            std::printf("  %-76s %+7.1f%% -> %+7.1f%%\n", id.c_str(), 100 * before->signedError(),
                        100 * r.signedError());
        }
        errors["all"].push_back(r.error());
        errors[r.subset].push_back(r.error());
        errors["gpu " + r.gpu].push_back(r.error());
    }
    QCOMPARE(changed, static_cast<int>(stated.at("cases").size())); // every listed id exists
    const json best = readData("accuracy-ratchet.json").value("dev124_stated", json::object());
    std::printf("  %-46s %5s %8s %8s\n", "subset", "cases", "median", "p90");
    for (const auto& [name, e] : errors) {
        const double median = quantile(e, 0.5), p90 = quantile(e, 0.9);
        std::printf("  %-46s %5zu %7.1f%% %7.1f%%\n", name.c_str(), e.size(), 100 * median,
                    100 * p90);
        QVERIFY2(ratchetHolds(best, name, median, p90),
                 (name + " (stated): median or p90 got worse").c_str());
    }
}

QTEST_GUILESS_MAIN(TestAccuracy)
#include "tst_accuracy.moc"
