// Peak memory of the 31 published fine-tuning runs (tests/data/finetune-dev.json, a copy of
// shared/validation/finetune-dev.json: torchtune's README tables, full / LoRA / QLoRA on RTX
// 4090, RTX A6000 and A100), each against the figure its source measured (measured.memory_
// metric: "active" is torch's allocated peak, unstated is the device's peak_bytes). Prints
// the error per method and per GPU and every case; tests/data/finetune-ratchet.json keeps
// the best figures and the test fails when they get worse. Cases the validation data itself
// calls inconsistent (kInconsistent, with the reason), and those whose weights and optimizer
// states alone exceed the GPU although the run fit (the optimizer must have lived outside
// the GPU: bitsandbytes' paged optimizers allocate CUDA unified memory, which torch's
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

// shared/validation/README.md and the cases' own warnings: the Llama 2 70B full fine-tune
// reports 70.4 GB where GPU-resident bf16 weights, gradients and 32-bit Adam states need about
// 103 GB per GPU (bitsandbytes' paged optimizer keeps its states in CUDA unified memory,
// outside torch's allocator); the RTX A6000 rows of the September 2024 table report about
// twice the RTX 4090's figure at the same stated settings; five rows need more than they
// measured at their stated settings, and three April 2024 rows have a second source at their
// commit that contradicts them (below).
const std::map<std::string, std::string> kInconsistent = {
    {"ttreadme2405_llama2-70b_full_a100_8gpu",
     "paged optimizer states outside torch's allocator (12 B/param would need ~103 GB/GPU)"},
    {"ttreadme2409_llama3.1-8b_full_rtxa6000_1gpu", "2x the RTX 4090 row at the same settings"},
    {"ttreadme2409_llama3.1-8b_lora_rtxa6000_1gpu", "2x the RTX 4090 row at the same settings"},
    // The May 2024 table states batch 4 x seq 2048 (4 x 4096 for 70B); the annotated configs
    // cannot hold that in the measured figure under any reading, so the runs must have used
    // shorter (dynamically padded) batches or other settings.
    {"ttreadme2405_llama2-7b_lora_rtx4090_2gpu",
     "4 x 2048 tokens without checkpointing (7B_lora.yaml): SDPA's q, k, v, output and the "
     "SwiGLU gate and up outputs alone are 32 x 8192 x 76.8 kB = 18.8 GiB, beside 6.3 GiB of "
     "FSDP-sharded weights, against 15.1 GiB measured"},
    {"ttreadme2405_llama2-70b_lora_a100_8gpu",
     "4 x 4096 tokens: the checkpointed layer inputs alone are 80 x 16384 x 8192 x 2 B = 20.0 "
     "GiB, beside 16.1 GiB of FSDP-sharded bf16 weights, against 24.6 GiB measured"},
    // The same test on the later tables, with their stated settings.
    {"ttreadme2409_llama3.1-8b_lora_rtx4090_1gpu",
     "2 x 2048 packed tokens: the bf16 base (8.03e9 x 2 B = 14.96 GiB), the 32 checkpointed "
     "layer inputs (32 x 4096 x 4096 x 2 B = 1.0 GiB) and the chunked loss's bf16 logits "
     "(4096 x 128256 x 2 B = 0.98 GiB) are live when the backward starts: 16.94 GiB against "
     "16.2 GiB measured"},
    {"ttreadme2409_llama3.1-405b_qlora_a100_8gpu",
     "2 x 2048 packed tokens: the FSDP-sharded NF4 base and bf16 embedding and output (25.1 "
     "GiB), the 126 checkpointed layer inputs (126 x 4096 x 16384 x 2 B = 15.75 GiB) and the "
     "log-softmax that 405B_qlora.yaml's nn.CrossEntropyLoss saves (4096 x 128256 x 4 B = 1.96 "
     "GiB) are 42.8 GiB against the 41.7 GiB of '44.8 GB' read as 10^9 bytes (the table's "
     "other rows are GiB, as torchtune's logger prints at 30b8519e8)"},
    // torchtune's own tutorials at the April 2024 commits give these rows' figures a second
    // source (docs/source/tutorials/qlora_finetune.rst and lora_finetune.rst at fef3ed10d and
    // 20747cd87): the QLoRA figure is "Peak memory reserved, training", and the same config
    // had already reserved 9.13 GB at model init, before any training tensor, where its NF4
    // base is 3.9 GB: the figure is the allocator's cache from loading the model, which the
    // estimate (training tensors) does not count. The LoRA tutorial measures 15.57 GB for the
    // README's 17.18 GB row.
    {"ttreadme2404_llama2-7b_qlora_rtx4090_1gpu",
     "reserved memory, 9.13 GB of it already at model init (qlora_finetune.rst at fef3ed10d: "
     "9.13 GB init, 9.29 GB training) against a 3.9 GB NF4 base: the loading cache"},
    {"ttreadme2404b_llama2-7b_qlora_rtx4090_1gpu",
     "the same config reserves 9.13 GB at model init alone (qlora_finetune.rst at 20747cd87), "
     "above this row's 8.57 GB: the figure is not the training peak"},
    {"ttreadme2404_llama2-7b_lora_rtx4090_1gpu",
     "the LoRA tutorial at the same commit measures this config at 15.57 GB reserved in "
     "training (lora_finetune.rst and qlora_finetune.rst at fef3ed10d), the README 17.18 GB"},
    {"ttreadme2411_llama3.2-3b_full_a100_1gpu_baseline",
     "unpacked alpaca, padded to the longest sample: at 2 x 4096 tokens without checkpointing "
     "SDPA's q, k, v (expanded), output and the SwiGLU gate and up outputs are 28 x 8192 x 57 "
     "kB = 12.3 GiB beside 17.95 GiB of bf16 weights and AdamW states, against 25.5 GiB "
     "measured"},
};

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

// The stated keys of one case (JSON pointer -> value), without the "source" note.
json statedKeys(const json& stated, const std::string& id) {
    json keys = json::object();
    const auto it = stated.at("cases").find(id);
    if (it != stated.at("cases").end())
        for (const auto& [pointer, value] : it->items())
            if (pointer != "source")
                keys[pointer] = value;
    return keys;
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
    estimateCases(cases, nullptr, results_);
    estimateCases(cases, &stated, statedResults_);
}

void TestFinetuneAccuracy::estimateCases(const json& cases, const json* stated,
                                         std::vector<CaseResult>& into) {
    for (const json& c : cases) {
        const std::string id = c.at("id");
        json doc = c.at("scenario");
        const json keys = stated ? statedKeys(*stated, id) : json::object();
        for (const auto& [pointer, value] : keys.items())
            doc[json::json_pointer(pointer)] = value;
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
        r.flagged = kInconsistent.count(id) > 0;
        const double states = estimate->peakBreakdown.weights + estimate->peakBreakdown.optimizer;
        if (!r.flagged && states > estimate->capacityBytes) {
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
    for (const auto& [id, why] : kInconsistent)
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
            const std::string key = prefix + name;
            const double m = best.at(key).at("median"), p = best.at(key).at("p90");
            if (s.median < m - kTolerance || s.p90 < p - kTolerance)
                std::printf("  %s better than the ratchet: {\"median\": %.4f, \"p90\": %.4f}\n",
                            key.c_str(), std::min(s.median, m), std::min(s.p90, p));
            QVERIFY2(s.median <= m + kTolerance, (key + ": median got worse").c_str());
            QVERIFY2(s.p90 <= p + kTolerance, (key + ": p90 got worse").c_str());
        }
    }
}

QTEST_GUILESS_MAIN(TestFinetuneAccuracy)
#include "tst_finetune_accuracy.moc"
