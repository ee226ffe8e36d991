// Step time of published fine-tuning runs: Megatron-Bridge's 26.06 SFT (full fine-tuning) and
// LoRA throughput of Llama 3 70B on GB300, GB200 and H100 (tests/data/published-finetune-time
// .json; its "note" cites the table and the performance scripts each scenario was read from).
// Prints every case and the error per method, as stored (SQuAD packed into 4096-token rows,
// training.document_tokens 240, assumed from the dataset's size) and again with whole rows
// attending (the key removed); tests/data/finetune-time-ratchet.json keeps the best median and
// p90 of the stored cases and the test fails when they get worse. Full fine-tuning is pre-training
// at a small batch: each SFT case must estimate exactly as the same plan without its finetune
// section (issue "fine-tuning": "check that it needs no special case").

#include "AccuracyStats.h"
#include "EstimateChecks.h"
#include "TestSupport.h"

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace ts;
using nlohmann::json;

namespace {

constexpr double kTolerance = 0.001; // 0.1 percentage points
constexpr double kGiB = double(1ull << 30);

std::string dataText(const char* name) {
    return test::readAll(test::sourceDir() + "/tests/data/" + QString::fromUtf8(name));
}

struct TimeResult {
    std::string id, method;
    double measured = 0, predicted = 0, peakGiB = 0, capacityGiB = 0;
    double signedError() const { return (predicted - measured) / measured; }
    double error() const { return std::abs(signedError()); }
};

struct Stats {
    double median = 0, p90 = 0;
    std::size_t n = 0;
};

Stats statsOf(const std::vector<TimeResult>& rs, const std::string& method) {
    std::vector<double> e;
    for (const TimeResult& r : rs)
        if (method.empty() || r.method == method)
            e.push_back(r.error());
    return {test::quantile(e, 0.5), test::quantile(e, 0.9), e.size()};
}

} // namespace

class TestFinetuneTime : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyCaseEstimates();
    void stepFollowsTheTable();
    void fullFineTuningIsPreTraining();
    void errorPerMethod();
    void ratchet();

private:
    json cases_;
    std::vector<TimeResult> results_;   // as stored
    std::vector<TimeResult> wholeRows_; // without training.document_tokens
    std::vector<std::string> failures_;
};

void TestFinetuneTime::initTestCase() {
    const std::string text = dataText("published-finetune-time.json");
    QVERIFY2(!text.empty(), "tests/data/published-finetune-time.json is missing");
    cases_ = json::parse(text).at("cases");
    for (const json& c : cases_)
        for (auto* into : {&results_, &wholeRows_}) {
            json doc = c.at("scenario");
            if (into == &wholeRows_)
                doc.at("training").erase("document_tokens");
            std::string why;
            const std::optional<Estimate> e = test::estimateDocument(doc, why);
            if (!e) {
                failures_.push_back(c.at("id").get<std::string>() + ":" + why);
                continue;
            }
            TimeResult r;
            r.id = c.at("id");
            r.method = c.at("method");
            r.measured = c.at("measured").at("step_s");
            r.predicted = e->stepSeconds;
            r.peakGiB = e->peakBytes / kGiB;
            r.capacityGiB = e->capacityBytes / kGiB;
            into->push_back(r);
        }
}

void TestFinetuneTime::everyCaseEstimates() {
    for (const std::string& f : failures_)
        qWarning("not estimated: %s", f.c_str());
    QCOMPARE(cases_.size(), std::size_t(10));
    QVERIFY(failures_.empty());
}

// The measured step is the table's throughput turned into seconds: GBS x seq / (tokens/s/GPU x
// GPUs), to the six decimals stored.
void TestFinetuneTime::stepFollowsTheTable() {
    for (const json& c : cases_) {
        const json& s = c.at("scenario");
        const double tokens = s.at("training").at("global_batch").get<double>() *
                              s.at("training").at("seq_len").get<double>();
        const double perSecond = c.at("measured").at("tokens_per_s_per_gpu").get<double>() *
                                 s.at("cluster").at("num_gpus").get<double>();
        QVERIFY2(std::abs(tokens / perSecond - c.at("measured").at("step_s").get<double>()) < 1e-5,
                 c.at("id").get<std::string>().c_str());
    }
}

void TestFinetuneTime::fullFineTuningIsPreTraining() {
    int checked = 0;
    for (const json& c : cases_) {
        if (c.at("method") != "full")
            continue;
        json pretraining = c.at("scenario");
        pretraining.erase("finetune");
        std::string why;
        const std::optional<Estimate> tuned = test::estimateDocument(c.at("scenario"), why);
        const std::optional<Estimate> plain = test::estimateDocument(pretraining, why);
        QVERIFY2(tuned && plain, why.c_str());
        QCOMPARE(tuned->stepSeconds, plain->stepSeconds);
        QCOMPARE(tuned->peakBytes, plain->peakBytes);
        ++checked;
    }
    QCOMPARE(checked, 5);
}

void TestFinetuneTime::errorPerMethod() {
    for (const auto& [title, rs] :
         {std::pair{"packed documents of 240 tokens (as stored)", &results_},
          std::pair{"whole 4096-token rows attending (document_tokens removed)", &wholeRows_}}) {
        std::printf("\nStep time, Megatron-Bridge 26.06 fine-tuning of Llama 3 70B, %s\n"
                    "  %-50s %9s %9s %8s %18s\n",
                    title, "case", "predicted", "measured", "error", "peak / capacity");
        for (const TimeResult& r : *rs)
            std::printf("  %-50s %7.3f s %7.3f s %+7.1f%% %7.1f / %5.1f GiB%s\n", r.id.c_str(),
                        r.predicted, r.measured, 100 * r.signedError(), r.peakGiB, r.capacityGiB,
                        r.peakGiB > r.capacityGiB ? "  (ran; estimated not to fit)" : "");
        for (const char* method : {"full", "lora", ""}) {
            const Stats s = statsOf(*rs, method);
            std::printf("  %-10s %2zu cases: median %.1f%%, p90 %.1f%%\n", *method ? method : "all",
                        s.n, 100 * s.median, 100 * s.p90);
        }
    }
    QCOMPARE(results_.size(), cases_.size());
    QCOMPARE(wholeRows_.size(), cases_.size());
}

void TestFinetuneTime::ratchet() {
    const std::string text = dataText("finetune-time-ratchet.json");
    QVERIFY2(!text.empty(), "tests/data/finetune-time-ratchet.json is missing");
    const json best = json::parse(text);
    for (const auto& [key, method] :
         std::map<std::string, std::string>{{"all", ""}, {"full", "full"}, {"lora", "lora"}}) {
        const Stats s = statsOf(results_, method);
        const std::string worse = test::ratchetCheck(best, key, s.median, s.p90, kTolerance);
        QVERIFY2(worse.empty(), worse.c_str());
    }
}

QTEST_GUILESS_MAIN(TestFinetuneTime)
#include "tst_finetune_time.moc"
