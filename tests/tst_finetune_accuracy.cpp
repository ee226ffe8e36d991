// Peak memory of the 31 published fine-tuning runs (tests/data/finetune-dev.json, a copy of
// shared/validation/finetune-dev.json: torchtune's README tables, full / LoRA / QLoRA on RTX
// 4090, RTX A6000 and A100), each against the figure its source measured (measured.memory_
// metric: "active" is torch's allocated peak, unstated is the device's peak_bytes). Prints
// the error per method and per GPU and every case; tests/data/finetune-ratchet.json keeps
// the best figures and the test fails when they get worse. Cases the validation data itself
// calls inconsistent (tests/data/finetune-inconsistent.json, with the reason), and those whose
// weights and optimizer states alone exceed the GPU although the run fit (the optimizer must have
// lived outside the GPU: bitsandbytes' paged optimizers allocate CUDA unified memory, which torch's
// allocator neither counts nor keeps resident), are printed and counted apart: the model is
// not fitted to them. Every case is estimated twice: as published, and with the keys its
// sources state that the format cannot (tests/data/finetune-stated-keys.json: the loss the
// cited recipe config computes, execution.cross_entropy); both are ratcheted.

#include "AccuracyStats.h"
#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ts;
using nlohmann::json;

namespace {

constexpr double kTolerance = 0.001; // 0.1 percentage points
constexpr double kGiB = double(1ull << 30);

// The cases the validation data itself contradicts, with the reason (tests/data/finetune-
// inconsistent.json: shared/validation/README.md's two, rows whose stated settings need more
// than they measured, and April 2024 rows that torchtune's own tutorials at the same commit
// contradict); the memory error band leaves the same cases out (tools/errorband).
std::map<std::string, std::string> inconsistentCases() {
    const std::string text =
        test::readAll(test::sourceDir() + "/tests/data/finetune-inconsistent.json");
    std::map<std::string, std::string> out;
    if (text.empty())
        return out;
    const json cases = json::parse(text).at("cases");
    for (const auto& [id, why] : cases.items())
        out[id] = why.get<std::string>();
    return out;
}

struct CaseResult {
    std::string id, method, gpu, metric;
    double measured = 0, predicted = 0;
    bool flagged = false;
    double error() const { return std::abs(predicted - measured) / measured; }
    double signedError() const { return (predicted - measured) / measured; }
};

struct Stats {
    double median = 0, p90 = 0;
    std::size_t n = 0;
};

Stats statsOf(const std::vector<CaseResult>& rs, bool withFlagged) {
    std::vector<double> e;
    for (const CaseResult& r : rs)
        if (withFlagged || !r.flagged)
            e.push_back(r.error());
    return {test::quantile(e, 0.5), test::quantile(e, 0.9), e.size()};
}

std::string dataPath(const char* name) {
    return (test::sourceDir() + "/tests/data/" + name).toStdString();
}

} // namespace

class TestFinetuneAccuracy : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyCaseEstimates();
    void errorPerMethodAndGpu();
    void ratchet();

private:
    // Estimates every case (with `keys` per case id set first) into `into`.
    void estimateCases(const json& cases, const json* stated, std::vector<CaseResult>& into);
    void printCases(const char* title, const std::vector<CaseResult>& rs) const;

    std::vector<CaseResult> results_;       // as published
    std::vector<CaseResult> statedResults_; // with the stated keys
    std::vector<std::string> failures_;
    std::vector<std::string> paged_; // states alone exceed the GPU: a paged optimizer
    std::map<std::string, std::string> inconsistent_;
    std::size_t cases_ = 0, statedCases_ = 0;
};

void TestFinetuneAccuracy::initTestCase() {
    const std::string text = test::readAll(QString::fromStdString(dataPath("finetune-dev.json")));
    QVERIFY2(!text.empty(), "tests/data/finetune-dev.json is missing");
    const std::string statedText =
        test::readAll(QString::fromStdString(dataPath("finetune-stated-keys.json")));
    QVERIFY2(!statedText.empty(), "tests/data/finetune-stated-keys.json is missing");
    const json cases = json::parse(text);
    const json stated = json::parse(statedText);
    cases_ = cases.size();
    statedCases_ = stated.at("cases").size();
    inconsistent_ = inconsistentCases();
    QVERIFY2(!inconsistent_.empty(), "tests/data/finetune-inconsistent.json is missing");
    estimateCases(cases, nullptr, results_);
    estimateCases(cases, &stated, statedResults_);
}

void TestFinetuneAccuracy::estimateCases(const json& cases, const json* stated,
                                         std::vector<CaseResult>& into) {
    for (const json& c : cases) {
        const std::string id = c.at("id");
        json doc = c.at("scenario");
        if (stated)
            test::applyStatedKeys(doc, *stated, id);
        Diagnostics diags;
        const auto scenario = scenarioFromJson(nlohmann::ordered_json(doc), diags);
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
            failures_.push_back(id + (stated ? " (stated keys):" : ":") + why);
            continue;
        }
        const json& m = c.at("measured");
        const std::string metric = m.at("memory_metric").is_null() ? "" : m.at("memory_metric");
        CaseResult r;
        r.id = id;
        r.method = c.at("scenario").at("finetune").at("method");
        r.gpu = resolved->cluster.gpuId;
        r.metric = metric.empty() ? "unstated" : metric;
        r.measured = m.at("peak_memory_gib").get<double>();
        r.predicted = test::memoryFor(*estimate, metric) / kGiB;
        r.flagged = inconsistent_.count(id) > 0;
        if (!r.flagged && pagedOptimizerCase(*estimate)) {
            r.flagged = true;
            if (!stated)
                paged_.push_back(id);
        }
        into.push_back(r);
    }
}

void TestFinetuneAccuracy::everyCaseEstimates() {
    for (const std::string& f : failures_)
        qWarning("not estimated: %s", f.c_str());
    QCOMPARE(cases_, std::size_t(31));
    QCOMPARE(statedCases_, cases_); // every case states its loss
    QVERIFY(failures_.empty());
}

void TestFinetuneAccuracy::printCases(const char* title, const std::vector<CaseResult>& rs) const {
    std::printf("\nPeak memory per GPU, fine-tuning (torchtune README), %s, against the metric "
                "measured\n  %-50s %-9s %9s %9s %8s\n",
                title, "case", "metric", "predicted", "measured", "error");
    for (const CaseResult& r : rs)
        std::printf("  %-50s %-9s %7.2f G %7.2f G %+7.1f%%%s\n", r.id.c_str(), r.metric.c_str(),
                    r.predicted, r.measured, 100 * r.signedError(),
                    r.flagged ? "  (inconsistent case)" : "");
    std::map<std::string, std::vector<CaseResult>> groups;
    for (const CaseResult& r : rs) {
        groups["method " + r.method].push_back(r);
        groups["gpu " + r.gpu].push_back(r);
    }
    std::printf("  %-28s %5s %8s %8s   (without the inconsistent cases)\n", "subset", "cases",
                "median", "p90");
    for (const auto& [name, group] : groups) {
        const Stats all = statsOf(group, true), clean = statsOf(group, false);
        std::printf("  %-28s %5zu %7.1f%% %7.1f%%   %zu: %.1f%% / %.1f%%\n", name.c_str(), all.n,
                    100 * all.median, 100 * all.p90, clean.n, 100 * clean.median, 100 * clean.p90);
    }
}

void TestFinetuneAccuracy::errorPerMethodAndGpu() {
    printCases("as published", results_);
    printCases("with the stated keys (finetune-stated-keys.json)", statedResults_);
    for (const auto& [id, why] : inconsistent_)
        std::printf("  inconsistent: %s: %s\n", id.c_str(), why.c_str());
    for (const std::string& id : paged_)
        std::printf("  inconsistent: %s: weights and optimizer states alone exceed the GPU, yet "
                    "the run fit: the (paged) optimizer was outside torch's allocator\n",
                    id.c_str());
    QVERIFY(!results_.empty());
    QCOMPARE(statedResults_.size(), results_.size());
}

void TestFinetuneAccuracy::ratchet() {
    const std::string text =
        test::readAll(QString::fromStdString(dataPath("finetune-ratchet.json")));
    QVERIFY2(!text.empty(), "tests/data/finetune-ratchet.json is missing");
    const json best = json::parse(text);
    for (const auto& [prefix, rs] : {std::pair{std::string(), &results_},
                                     std::pair{std::string("stated_"), &statedResults_}}) {
        const Stats all = statsOf(*rs, true), clean = statsOf(*rs, false);
        std::printf("\n%s%zu cases: median %.2f%%, p90 %.2f%%; without the %zu inconsistent: "
                    "median %.2f%%, p90 %.2f%% (target: median <= 5%%, p90 <= 12%%)\n",
                    prefix.empty() ? "As published, " : "With the stated keys, ", all.n,
                    100 * all.median, 100 * all.p90, all.n - clean.n, 100 * clean.median,
                    100 * clean.p90);
        for (const auto& [name, s] : {std::pair{"all", all}, std::pair{"consistent", clean}}) {
            const std::string worse =
                test::ratchetCheck(best, prefix + name, s.median, s.p90, kTolerance);
            QVERIFY2(worse.empty(), worse.c_str());
        }
    }
}

QTEST_GUILESS_MAIN(TestFinetuneAccuracy)
#include "tst_finetune_accuracy.moc"
