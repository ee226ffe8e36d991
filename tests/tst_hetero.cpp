// Heterogeneous clusters (issue 32; shared/spec/scenario-format.md, "Heterogeneous clusters"):
// cluster.pools and parallelism.pipelines read, round-trip and are refused at their paths; and
// the estimate's invariants: identical pools estimate as the uniform plan, a stage costs what
// it costs on its own GPU, a slower pool never speeds a step, and a batch split by replica
// speed never loses to an even one.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "export/Exporter.h"
#include "hardware/PowerLimit.h"
#include "hetero/HeteroSearch.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>

using namespace ts;
using nlohmann::json;

namespace {

std::string joinDiagnostics(const Diagnostics& d) {
    std::string out;
    for (const auto& item : d.all())
        out += item.toString() + "\n";
    return out;
}

std::optional<ResolvedScenario> resolved(const json& doc, Diagnostics& diags) {
    auto s = parseScenarioText(doc.dump(), diags);
    return s ? resolveScenario(*s, Catalog::builtIn(), diags) : std::nullopt;
}

Estimate estimateOf(const json& doc) {
    Diagnostics diags;
    auto r = resolved(doc, diags);
    auto e = r ? estimatePlan(*r, diags) : std::nullopt;
    if (!e)
        qFatal("%s", joinDiagnostics(diags).c_str());
    return *e;
}

json base() {
    return json::parse(R"({
      "format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {},
      "training": {"seq_len": 4096, "global_batch": 64, "micro_batch": 1,
                   "precision": "bf16", "optimizer": "adam"},
      "parallelism": {"zero": 1, "recompute": "selective", "sequence_parallel": true}
    })");
}

json pool(const char* id, const char* gpu, int gpus) {
    return {{"id", id}, {"gpu", gpu}, {"num_gpus", gpus}, {"gpus_per_node", 8}};
}

json stage(const char* poolId, int tp) {
    return {{"pool", poolId}, {"tp", tp}};
}

// Pools `pools`, one pipeline entry of `count` replicas with `stages`.
json pooled(json pools, int count, json stages) {
    json j = base();
    j["cluster"]["pools"] = std::move(pools);
    j["parallelism"]["pipelines"] =
        json::array({{{"count", count}, {"stages", std::move(stages)}}});
    return j;
}

// The uniform plan on one GPU kind.
json uniform(const char* preset, int gpus, int tp, int pp, int dp) {
    json j = base();
    j["cluster"] = {{"preset", preset}, {"num_gpus", gpus}};
    j["parallelism"]["tp"] = tp;
    j["parallelism"]["pp"] = pp;
    j["parallelism"]["dp"] = dp;
    return j;
}

double relative(double a, double b) {
    return std::abs(a / b - 1.0);
}

std::string firstErrorAt(const json& doc, const std::string& path) {
    Diagnostics diags;
    resolved(doc, diags);
    for (const Diagnostic& d : diags.errors())
        if (d.path == path)
            return d.message;
    return "(none at " + path + "; got: " + joinDiagnostics(diags) + ")";
}

} // namespace

class TestHetero : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        json doc = pooled(
            json::array({pool("h100", "h100-sxm-80gb", 16), pool("a100", "a100-sxm-80gb", 16)}), 2,
            json::array({stage("h100", 8), stage("a100", 8)}));
        doc["cluster"]["pool_link_gbit_s"] = 200;
        doc["parallelism"]["pipelines"][0]["micro_batch"] = 2;
        doc["parallelism"]["pipelines"][0]["sequences"] = 32;
        Diagnostics diags;
        auto s = parseScenarioText(doc.dump(), diags);
        QVERIFY2(s, joinDiagnostics(diags).c_str());
        const json written = json::parse(scenarioToJson(*s).dump());
        QCOMPARE(QString::fromStdString(written["cluster"].dump()),
                 QString::fromStdString(doc["cluster"].dump()));
        QCOMPARE(QString::fromStdString(written["parallelism"]["pipelines"].dump()),
                 QString::fromStdString(doc["parallelism"]["pipelines"].dump()));
        auto r = resolveScenario(*s, Catalog::builtIn(), diags);
        QVERIFY2(r && r->hetero, joinDiagnostics(diags).c_str());
        QCOMPARE(r->cluster.numGpus, std::int64_t(32));
        QCOMPARE(r->parallel.dp, std::int64_t(2));
        QCOMPARE(r->hetero->pipelines[0].microBatch, std::int64_t(2));
        QCOMPARE(r->hetero->views.size(), std::size_t(2));
        QCOMPARE(r->hetero->view(0, 1).cluster.gpuId, std::string("a100-sxm-80gb"));
    }

    void refusalsNameTheField() {
        const json pools =
            json::array({pool("h100", "h100-sxm-80gb", 16), pool("v100", "a100-sxm-80gb", 16)});
        // A pool asked for more GPUs than it has.
        json over = pooled(pools, 3, json::array({stage("h100", 4), stage("v100", 8)}));
        over["training"]["global_batch"] = 63;
        QVERIFY(firstErrorAt(over, "/parallelism/pipelines/0/stages/1/pool")
                    .find("pool 'v100' has 16 GPUs, the pipelines ask for at least 24") !=
                std::string::npos);
        // An unknown pool, a top-level tp, unequal stage counts, sequences that do not sum.
        json unknown = pooled(pools, 1, json::array({stage("h200", 8)}));
        QVERIFY(
            firstErrorAt(unknown, "/parallelism/pipelines/0/stages/0/pool").find("unknown pool") !=
            std::string::npos);
        json tp = pooled(pools, 1, json::array({stage("h100", 8)}));
        tp["parallelism"]["tp"] = 4; // a top-level tp that a stage contradicts
        QVERIFY(firstErrorAt(tp, "/parallelism/tp").find("each stage gives its own tp") !=
                std::string::npos);
        json uneven = pooled(pools, 1, json::array({stage("h100", 8)}));
        uneven["parallelism"]["pipelines"].push_back(
            {{"stages", json::array({stage("v100", 4), stage("v100", 4)})}});
        QVERIFY(
            firstErrorAt(uneven, "/parallelism/pipelines/1/stages").find("same number of stages") !=
            std::string::npos);
        json seqs = pooled(pools, 2, json::array({stage("h100", 8)}));
        seqs["parallelism"]["pipelines"][0]["sequences"] = 30;
        QVERIFY(firstErrorAt(seqs, "/parallelism/pipelines").find("sum to 60") !=
                std::string::npos);
        // A stage tp that does not divide the heads, reported at the stage.
        json heads = pooled(pools, 1, json::array({stage("h100", 3)}));
        QVERIFY(firstErrorAt(heads, "/parallelism/pipelines/0/stages/0/tp") != "");
        QVERIFY(firstErrorAt(heads, "/parallelism/pipelines/0/stages/0/tp").rfind("(none", 0) != 0);
        // No pipelines.
        json none = base();
        none["cluster"]["pools"] = pools;
        QVERIFY(firstErrorAt(none, "/parallelism/pipelines").find("give parallelism.pipelines") !=
                std::string::npos);
        // num_gpus that is not the pools' sum.
        json sum = pooled(pools, 1, json::array({stage("h100", 8)}));
        sum["cluster"]["num_gpus"] = 40;
        QVERIFY(firstErrorAt(sum, "/cluster/num_gpus").find("hold 32") != std::string::npos);
    }

    // Identical pools estimate as the same uniform plan (within 0.1%).
    void identicalPoolsAreTheUniformPlan() {
        const json mixed =
            pooled(json::array({pool("a", "h100-sxm-80gb", 8), pool("b", "h100-sxm-80gb", 8)}), 2,
                   json::array({stage("a", 4), stage("b", 4)}));
        const Estimate p = estimateOf(mixed);
        const Estimate u = estimateOf(uniform("dgx-h100", 16, 4, 2, 2));
        QVERIFY2(relative(p.stepSeconds, u.stepSeconds) < 1e-3,
                 (std::to_string(p.stepSeconds) + " vs " + std::to_string(u.stepSeconds)).c_str());
        QVERIFY(relative(p.peakBytes, u.peakBytes) < 1e-3);
        QVERIFY(relative(p.tokensPerSPerGpu, u.tokensPerSPerGpu) < 1e-3);
        QVERIFY(relative(p.mfu, u.mfu) < 1e-3);
        QVERIFY(p.stepJoules && u.stepJoules && relative(*p.stepJoules, *u.stepJoules) < 1e-3);
        QVERIFY(p.hetero && p.hetero->usedGpus == 16 && p.hetero->unusedGpus == 0);
        const json j = estimateToJson(p);
        QCOMPARE(j["memory"]["per_pool"].size(), std::size_t(2));
        QVERIFY(j["time"].contains("straggler"));
        QCOMPARE(j["used_gpus"].get<int>(), 16);
    }

    // A stage on the A100 pool costs what it costs in the all-A100 plan (within 1%); the
    // straggler names the A100 pool.
    void stageCostsItsOwnGpu() {
        const json mixed = pooled(
            json::array({pool("h100", "h100-sxm-80gb", 8), pool("a100", "a100-sxm-80gb", 8)}), 2,
            json::array({stage("h100", 4), stage("a100", 4)}));
        const Estimate p = estimateOf(mixed);
        const Estimate a = estimateOf(uniform("dgx-a100", 16, 4, 2, 2));
        QCOMPARE(p.stageTimes.size(), std::size_t(2));
        QVERIFY(relative(p.stageTimes[1].forwardSeconds, a.stageTimes[1].forwardSeconds) < 0.01);
        QVERIFY(relative(p.stageTimes[1].backwardSeconds, a.stageTimes[1].backwardSeconds) < 0.01);
        QCOMPARE(QString::fromStdString(p.hetero->straggler.pool), QString("a100"));
        QCOMPARE(p.hetero->perPool[1].pool, std::string("a100"));
    }

    // Moving a stage to a slower pool never makes the step faster, and makes it slower when
    // that stage sets the pace.
    void slowerPoolNeverFaster() {
        const json pools =
            json::array({pool("h100", "h100-sxm-80gb", 16), pool("a100", "a100-sxm-80gb", 16)});
        const double fast =
            estimateOf(pooled(pools, 2, json::array({stage("h100", 4), stage("h100", 4)})))
                .stepSeconds;
        const double one =
            estimateOf(pooled(pools, 2, json::array({stage("h100", 4), stage("a100", 4)})))
                .stepSeconds;
        const double both =
            estimateOf(pooled(pools, 2, json::array({stage("a100", 4), stage("a100", 4)})))
                .stepSeconds;
        QVERIFY(one > fast);
        QVERIFY(both >= one);
    }

    // Splitting the global batch in proportion to replica speed never makes it slower than an
    // even split, and is faster when the replicas differ.
    void proportionalSplitWins() {
        json doc = base();
        doc["cluster"]["pools"] =
            json::array({pool("h100", "h100-sxm-80gb", 8), pool("a100", "a100-sxm-80gb", 8)});
        doc["parallelism"]["pipelines"] =
            json::array({{{"stages", json::array({stage("h100", 8)})}},
                         {{"stages", json::array({stage("a100", 8)})}}});
        const Estimate even = estimateOf(doc);
        QCOMPARE(even.hetero->perPipelineSeconds.size(), std::size_t(2));
        const double fast = 1.0 / even.hetero->perPipelineSeconds[0];
        const double slow = 1.0 / even.hetero->perPipelineSeconds[1];
        const int share = int(std::lround(64.0 * fast / (fast + slow)));
        QVERIFY(share > 32);
        doc["parallelism"]["pipelines"][0]["sequences"] = share;
        doc["parallelism"]["pipelines"][1]["sequences"] = 64 - share;
        const Estimate split = estimateOf(doc);
        QVERIFY2(split.stepSeconds < even.stepSeconds,
                 (std::to_string(split.stepSeconds) + " vs " + std::to_string(even.stepSeconds))
                     .c_str());
        // Identical replicas: the even split is already proportional.
        json same = doc;
        same["parallelism"]["pipelines"][1]["stages"][0]["pool"] = "h100";
        same["cluster"]["pools"][0]["num_gpus"] = 16;
        same["parallelism"]["pipelines"][0]["sequences"] = 32;
        same["parallelism"]["pipelines"][1]["sequences"] = 32;
        const Estimate s1 = estimateOf(same);
        same["parallelism"]["pipelines"][0].erase("sequences");
        same["parallelism"]["pipelines"][1].erase("sequences");
        QVERIFY(relative(estimateOf(same).stepSeconds, s1.stepSeconds) < 1e-9);
    }

    // The pool link slows what crosses it: a thin link between stages on unlike pools.
    void poolLinkCarriesTheCrossing() {
        json doc = pooled(
            json::array({pool("h100", "h100-sxm-80gb", 16), pool("a100", "a100-sxm-80gb", 16)}), 2,
            json::array({stage("h100", 8), stage("a100", 8)}));
        const double shared = estimateOf(doc).stepSeconds;
        doc["cluster"]["pool_link_gbit_s"] = 1;
        const double thin = estimateOf(doc).stepSeconds;
        QVERIFY(thin > shared);
    }

    // The search over pools: never slower than the best plan on any pool alone, and it looks
    // at more plans than it estimates in full.
    void searchBeatsEachPoolAlone() {
        json doc = base();
        doc["model"]["preset"] = "llama3-8b";
        doc["cluster"]["pools"] =
            json::array({pool("h100", "h100-sxm-80gb", 16), pool("a100", "a100-sxm-80gb", 16)});
        Diagnostics diags;
        auto s = parseScenarioText(doc.dump(), diags);
        QVERIFY(s);
        SearchOptions options;
        options.topK = 5;
        auto r = searchHeteroPlans(*s, Catalog::builtIn(), CalibrationRegistry::standard(), options,
                                   diags);
        QVERIFY2(r, joinDiagnostics(diags).c_str());
        QVERIFY(!r->plans.empty());
        QCOMPARE(r->bestAlone.size(), std::size_t(2));
        for (const auto& [id, step] : r->bestAlone)
            QVERIFY2(step == 0 || r->plans.front().estimate.stepSeconds <= step * (1 + 1e-9),
                     id.c_str());
        QVERIFY(r->plansInSpace > r->plansEvaluated / 2);
        // Every reported plan is a pools scenario that resolves and estimates as reported.
        const HeteroPlan& best = r->plans.front();
        auto again = resolveScenario(best.scenario, Catalog::builtIn(), diags);
        QVERIFY2(again, joinDiagnostics(diags).c_str());
        auto e = estimatePlan(*again, diags);
        QVERIFY(e && relative(e->stepSeconds, best.estimate.stepSeconds) < 1e-9);
    }

    // Megatron-LM runs the bundled plan (one tp, even batch split) with each node started on
    // its pool; the targets without heterogeneous placement refuse at /parallelism/pipelines.
    void exportPlacesStagesOnPools() {
        Diagnostics diags;
        auto r = resolveScenarioFile(
            (ts::test::sourceDir() + "/resources/examples/llama3-70b-64xh100-128xa100.json")
                .toStdString(),
            Catalog::builtIn(), diags);
        QVERIFY(r);
        const ExportResult megatron = findExporter("megatron")->render(*r, {});
        QVERIFY2(megatron.ok(),
                 megatron.refusals.empty() ? "" : megatron.refusals[0].toString().c_str());
        const std::string& text = megatron.files[0].text;
        QVERIFY(text.find("NODE_RANK 0-7: pool h100") != std::string::npos);
        QVERIFY(text.find("NODE_RANK 8-23: pool a100") != std::string::npos);
        QVERIFY(text.find("--tensor-model-parallel-size 8") != std::string::npos);
        QVERIFY(text.find("NNODES=24") != std::string::npos);
        for (const char* target : {"deepspeed", "torchtitan", "bridge"}) {
            const ExportResult refused = findExporter(target)->render(*r, {});
            QVERIFY(!refused.ok());
            QCOMPARE(QString::fromStdString(refused.refusals.front().path),
                     QString("/parallelism/pipelines"));
        }
        // Stages of unlike tp: Megatron-LM refuses, naming the pipelines.
        json doc = pooled(
            json::array({pool("h100", "h100-sxm-80gb", 8), pool("a100", "a100-sxm-80gb", 8)}), 2,
            json::array({stage("h100", 4), stage("a100", 2)}));
        auto mixed = resolved(doc, diags);
        QVERIFY(mixed);
        const ExportResult tps = findExporter("megatron")->render(*mixed, {});
        QVERIFY(!tps.ok());
        QVERIFY(tps.refusals.front().message.find("same tp") != std::string::npos);
    }

    // A GPU whose power limit is above its sibling's cannot borrow a matmul rate above what any
    // measured part reaches of its peak (GH200's 1,000 W is the whole module's).
    void borrowedMatmulRateIsCapped() {
        GpuSpec gh200 = Catalog::builtIn().gpu("h100-sxm-80gb")->spec;
        gh200.mamfBf16Tflops.reset();
        gh200.tdpW = 1000;
        gh200.powerSibling = findPowerSibling(gh200, Catalog::builtIn());
        QVERIFY(gh200.powerSibling);
        const double scale = powerLimitThroughputScale(gh200);
        QVERIFY(scale > 1.0);
        QVERIFY(scale * gh200.powerSibling->mamfBf16Tflops <=
                kMaxMamfFractionOfPeak * gh200.bf16Tflops + 1e-9);
        gh200.tdpW = 500; // below the sibling's: scaled down as before
        QVERIFY(std::abs(powerLimitThroughputScale(gh200) - 500.0 / 700.0) < 1e-12);
    }

    // The Sailor validation runs (one GH200 pool: tests/data/sailor-dev.json; unlike RTX pools on
    // the MIT cluster: tests/data/sailor-mit-dev.json, tools/sailor/make_mit_cases.py) resolve,
    // estimate and fit, as they ran; their errors are reported in docs/heterogeneous.md.
    void sailorRunsEstimate_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("clariden") << "sailor-dev.json";
        QTest::newRow("mit") << "sailor-mit-dev.json";
    }
    void sailorRunsEstimate() {
        QFETCH(QString, file);
        const json cases =
            json::parse(ts::test::readAll(ts::test::sourceDir() + "/tests/data/" + file));
        QVERIFY(cases.size() >= 9);
        int unlike = 0;
        for (const json& c : cases) {
            Diagnostics diags;
            auto r = resolved(c["scenario"], diags);
            QVERIFY2(r && r->hetero,
                     (c["id"].get<std::string>() + ": " + joinDiagnostics(diags)).c_str());
            auto e = estimatePlan(*r, diags);
            QVERIFY2(e && e->fits, c["id"].get<std::string>().c_str());
            const double measured = c["measured"]["step_s"];
            QVERIFY(e->stepSeconds > 0.2 * measured && e->stepSeconds < 5 * measured);
            unlike += r->hetero->pools.size() > 1;
        }
        if (file == "sailor-mit-dev.json")
            QCOMPARE(unlike, int(cases.size()));
    }

    void bundledExampleEstimates() {
        Diagnostics diags;
        auto r = resolveScenarioFile(
            (ts::test::sourceDir() + "/resources/examples/llama3-70b-64xh100-128xa100.json")
                .toStdString(),
            Catalog::builtIn(), diags);
        QVERIFY2(r, joinDiagnostics(diags).c_str());
        auto e = estimatePlan(*r, diags);
        QVERIFY2(e, joinDiagnostics(diags).c_str());
        QVERIFY(e->fits);
        QCOMPARE(e->hetero->usedGpus, std::int64_t(192));
        QVERIFY(e->trainUsd || e->usdPerMillionTokens || e->stepJoules);
    }
};

QTEST_APPLESS_MAIN(TestHetero)
#include "tst_hetero.moc"
