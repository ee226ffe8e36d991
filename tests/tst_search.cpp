// Plan search (core/search): the inner loop's bound against the full estimator on every plan
// of a small space, the search's top 10 against an exhaustive full-estimator run, pins,
// determinism across thread counts, cancellation, Pareto fronts and the resolver round trip.

#include "catalog/Catalog.h"
#include "estimate/EstimateStages.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"
#include "search/PlanEvaluator.h"
#include "search/PlanSearch.h"

#include "TestSupport.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <set>

using namespace ts;

namespace {

// Llama 3 8B on 32 H100 (4 DGX H100): a space small enough for the full estimator.
const char* kScenario = R"({
  "format": "trainscape.scenario/1",
  "model": {"preset": "llama3-8b"},
  "cluster": {"preset": "dgx-h100", "num_gpus": 32},
  "training": {"seq_len": 4096, "global_batch": 64, "precision": "bf16", "tokens": 1e11},
  "parallelism": {"tp": 1},
  "costs": {"gpu_hour_usd": 3.0, "electricity_usd_kwh": 0.08, "pue": 1.3}
})";

ResolvedScenario resolveText(const char* text) {
    Diagnostics diags;
    auto parsed = parseScenarioText(text, diags);
    std::optional<ResolvedScenario> r;
    if (parsed)
        r = resolveScenario(*parsed, Catalog::builtIn(), diags);
    if (!r)
        qFatal("scenario does not resolve");
    return *r;
}

// A space of a few thousand plans: everything free but micro-batch and offload.
SearchDomain smallDomain() {
    SearchDomain d;
    d.microBatch = {1, 2};
    d.offloadOptimizer = {OffloadTarget::None};
    d.offloadParams = {OffloadTarget::None};
    d.offloadActivations = {OffloadTarget::None};
    return d;
}

std::vector<PlanChoice> allPlans(const ResolvedScenario& sc, const SearchDomain& d) {
    const SearchSpace space(sc, d);
    std::vector<PlanChoice> out;
    for (std::size_t g = 0; g < space.groups().size(); ++g)
        space.forEachPlan(g, [&](const PlanChoice& p) {
            out.push_back(p);
            return true;
        });
    return out;
}

} // namespace

class TestSearch : public QObject {
    Q_OBJECT

private slots:
    // The bound is never above the full estimate, memory is the same number, and the bound's
    // energy and cost are never above the full estimate's.
    void boundNeverAboveFullEstimate() {
        const ResolvedScenario base = resolveText(kScenario);
        EstimatorSettings set = defaultEstimatorSettings(base);
        set.recordTimeline = false;
        const EstimateCollectives coll(base.cluster, set);
        PlanEvaluator evaluator(base, set, coll);
        ResolvedScenario sc = base;
        int checked = 0, exact = 0;
        double worstGap = 0;
        for (const PlanChoice& p : allPlans(base, smallDomain())) {
            PlanBound b;
            if (!evaluator.evaluate(p, 1e300, true, b))
                continue;
            applyPlanChoice(p, sc);
            const Estimate full = estimateSupportedPlan(sc, set, coll);
            QCOMPARE(b.peakBytes, full.peakBytes);
            const Estimate& e = b.estimate;
            const double slack = 1 + 1e-9;
            if (e.stepSeconds > full.stepSeconds * slack)
                QFAIL(qPrintable(QString::fromStdString(describePlan(p)) +
                                 QString(": bound %1 > full %2")
                                     .arg(e.stepSeconds, 0, 'g', 17)
                                     .arg(full.stepSeconds, 0, 'g', 17)));
            QVERIFY(*e.trainUsd <= *full.trainUsd * slack);
            QVERIFY(*e.trainKwh <= *full.trainKwh * slack);
            QVERIFY(*e.usdPerMillionTokens <= *full.usdPerMillionTokens * slack);
            worstGap = std::max(worstGap, 1 - e.stepSeconds / full.stepSeconds);
            exact += e.stepSeconds >= full.stepSeconds * (1 - 1e-12);
            ++checked;
        }
        qInfo("%d plans: bound exact on %d, at most %.1f%% below the full estimate", checked, exact,
              100 * worstGap);
        QVERIFY(checked > 1000);
    }

    // The bound's memory is the full estimator's, its peak stage and breakdown too, where
    // stages differ (48 GPUs: 32 layers over 3, 6, 12 or 24 stages; 32 GPUs: interleaved and
    // ZB-V schedules) and with every offload: PeakOnly skips only stages that cannot hold the
    // peak (estimate/EstimateStages.h), and the step-time bound stays a bound.
    void boundMemoryAsFullOnUnevenStagesAndOffload_data() {
        QTest::addColumn<int>("gpus");
        QTest::newRow("48 GPUs, uneven stages") << 48;
        QTest::newRow("32 GPUs, interleaved and ZB-V") << 32;
    }
    void boundMemoryAsFullOnUnevenStagesAndOffload() {
        QFETCH(int, gpus);
        ResolvedScenario base = resolveText(kScenario);
        base.cluster.numGpus = gpus;
        base.parallel.dp = gpus;
        EstimatorSettings set = defaultEstimatorSettings(base);
        set.recordTimeline = false;
        const EstimateCollectives coll(base.cluster, set);
        PlanEvaluator evaluator(base, set, coll);
        ResolvedScenario sc = base;
        SearchDomain d;
        d.tp = {1, 2};
        d.microBatch = {1};
        d.zero = {1, 3};
        d.overlapTp = {1};
        int checked = 0, uneven = 0, interleaved = 0, offloaded = 0;
        PlanBound b; // reused, as the search reuses it
        for (const PlanChoice& p : allPlans(base, d)) {
            if (!evaluator.evaluate(p, 1e300, checked % 2 == 0, b))
                continue;
            applyPlanChoice(p, sc);
            const Estimate full = estimateSupportedPlan(sc, set, coll);
            const QString plan = QString::fromStdString(describePlan(p));
            QVERIFY2(b.peakBytes == full.peakBytes, qPrintable(plan));
            QVERIFY2(b.estimate.peakStage == full.peakStage, qPrintable(plan));
            QVERIFY2(b.estimate.peakAllocatedBytes == full.peakAllocatedBytes, qPrintable(plan));
            QVERIFY2(b.estimate.peakReservedBytes == full.peakReservedBytes, qPrintable(plan));
            QVERIFY2(b.estimate.peakBreakdown.activations == full.peakBreakdown.activations,
                     qPrintable(plan));
            QVERIFY2(b.estimate.stepSeconds <= full.stepSeconds * (1 + 1e-9), qPrintable(plan));
            uneven += 32 % (p.pp * p.vpp) != 0;
            interleaved += p.vpp > 1;
            offloaded += p.offload.optimizer != OffloadTarget::None ||
                         p.offload.params != OffloadTarget::None ||
                         p.offload.activations != OffloadTarget::None;
            ++checked;
        }
        qInfo("%d plans, %d with uneven stages, %d interleaved, %d with offload", checked, uneven,
              interleaved, offloaded);
        QVERIFY((gpus == 48 ? uneven : interleaved) > 100 && offloaded > 100);
    }

    // The search returns the exhaustive full-estimator run's best plan and top 10, in order.
    void topTenAsExhaustive_data() {
        QTest::addColumn<int>("objective");
        QTest::newRow("step-time") << int(SearchObjective::StepTime);
        QTest::newRow("cost-per-run") << int(SearchObjective::CostPerRun);
        QTest::newRow("energy-per-run") << int(SearchObjective::EnergyPerRun);
    }
    void topTenAsExhaustive() {
        QFETCH(int, objective);
        const auto o = static_cast<SearchObjective>(objective);
        const ResolvedScenario base = resolveText(kScenario);
        EstimatorSettings set = defaultEstimatorSettings(base);
        set.recordTimeline = false;
        const EstimateCollectives coll(base.cluster, set);
        ResolvedScenario sc = base;
        struct Row {
            double value;
            std::size_t order;
            PlanChoice plan;
        };
        std::vector<Row> rows;
        const std::vector<PlanChoice> plans = allPlans(base, smallDomain());
        for (std::size_t i = 0; i < plans.size(); ++i) {
            applyPlanChoice(plans[i], sc);
            Diagnostics diags;
            if (!checkPlanSupported(sc, diags))
                continue;
            const Estimate e = estimateSupportedPlan(sc, set, coll);
            if (e.peakBytes <= 0.9 * e.capacityBytes)
                rows.push_back({*objectiveValue(o, e), i, plans[i]});
        }
        std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            return a.value != b.value ? a.value < b.value : a.order < b.order;
        });
        SearchOptions opt;
        opt.domain = smallDomain();
        opt.objective = o;
        opt.threads = 2;
        Diagnostics diags;
        const auto r = searchPlans(base, opt, diags);
        QVERIFY(r);
        QCOMPARE(int(r->plans.size()), 10);
        for (int i = 0; i < 10; ++i) {
            QVERIFY2(r->plans[i].plan == rows[i].plan, qPrintable(QString::number(i)));
            QCOMPARE(r->plans[i].objective, rows[i].value);
        }
        qInfo("%s: %lld plans, %lld timed, %lld full estimates to confirm the top 10",
              searchObjectiveName(o).c_str(), static_cast<long long>(r->plansInSpace),
              static_cast<long long>(r->plansEvaluated), static_cast<long long>(r->fullEstimates));
        QVERIFY(r->fullEstimates < r->plansEvaluated / 4);
    }

    void deterministicAcrossThreads() {
        const ResolvedScenario base = resolveText(kScenario);
        SearchOptions opt;
        opt.domain = smallDomain();
        opt.pareto = true;
        Diagnostics diags;
        opt.threads = 1;
        const auto one = searchPlans(base, opt, diags);
        opt.threads = 3;
        const auto three = searchPlans(base, opt, diags);
        QVERIFY(one && three);
        QCOMPARE(one->plansInSpace, three->plansInSpace);
        QCOMPARE(one->plans.size(), three->plans.size());
        for (std::size_t i = 0; i < one->plans.size(); ++i)
            QVERIFY(one->plans[i].plan == three->plans[i].plan);
        QCOMPARE(one->fronts.size(), std::size_t(3));
        for (std::size_t f = 0; f < 3; ++f) {
            QCOMPARE(one->fronts[f].plans.size(), three->fronts[f].plans.size());
            QVERIFY(!one->fronts[f].plans.empty());
        }
    }

    // The time-memory front is the exhaustive full-estimator run's front, plan for plan.
    void paretoFrontAsExhaustive() {
        const ResolvedScenario base = resolveText(kScenario);
        SearchDomain domain = smallDomain();
        domain.zero = {1};
        SearchOptions opt;
        opt.domain = domain;
        opt.pareto = true;
        Diagnostics diags;
        const auto r = searchPlans(base, opt, diags);
        QVERIFY(r);
        const ParetoFront& memory = r->fronts[2];
        QCOMPARE(QString::fromStdString(memory.name), QString("time-memory"));

        EstimatorSettings set = defaultEstimatorSettings(base);
        set.recordTimeline = false;
        const EstimateCollectives coll(base.cluster, set);
        ResolvedScenario sc = base;
        struct Row {
            double step, peak;
            std::size_t order;
            PlanChoice plan;
        };
        std::vector<Row> rows;
        const std::vector<PlanChoice> plans = allPlans(base, domain);
        for (std::size_t i = 0; i < plans.size(); ++i) {
            applyPlanChoice(plans[i], sc);
            Diagnostics d;
            if (!checkPlanSupported(sc, d))
                continue;
            const Estimate e = estimateSupportedPlan(sc, set, coll);
            if (e.peakBytes <= 0.9 * e.capacityBytes)
                rows.push_back({e.stepSeconds, e.peakBytes, i, plans[i]});
        }
        std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            return a.step != b.step ? a.step < b.step
                                    : (a.peak != b.peak ? a.peak < b.peak : a.order < b.order);
        });
        std::vector<PlanChoice> front;
        double lowest = 1e300;
        for (const Row& row : rows)
            if (row.peak < lowest) {
                lowest = row.peak;
                front.push_back(row.plan);
            }
        QCOMPARE(memory.plans.size(), front.size());
        for (std::size_t i = 0; i < front.size(); ++i)
            QVERIFY(memory.plans[i].plan == front[i]);
        qInfo("time-memory front: %zu plans", front.size());
    }

    void pinsRestrictTheSpace() {
        const ResolvedScenario base = resolveText(kScenario);
        SearchOptions opt;
        opt.domain = smallDomain();
        Diagnostics diags;
        QVERIFY(parseSearchPins("tp=2|4,pp=2,recompute=selective", opt.domain, diags));
        const auto r = searchPlans(base, opt, diags);
        QVERIFY(r && !r->plans.empty());
        for (const SearchedPlan& p : r->plans) {
            QVERIFY(p.plan.tp == 2 || p.plan.tp == 4);
            QCOMPARE(p.plan.pp, 2);
            QCOMPARE(p.plan.recompute, RecomputeMode::Selective);
        }
        Diagnostics bad;
        SearchDomain d;
        QVERIFY(!parseSearchPins("tp=eight", d, bad));
        QVERIFY(QString::fromStdString(bad.all().front().path).contains("tp"));
        QVERIFY(!parseSearchPins("schedule=zigzag", d, bad));
        QVERIFY(QString::fromStdString(bad.all().back().message).contains("1f1b"));
        QVERIFY(!parseSearchPins("colour=red", d, bad));
    }

    void cancellationStops() {
        const ResolvedScenario base = resolveText(kScenario);
        SearchOptions opt;
        std::atomic<bool> cancel{true};
        opt.cancel = &cancel;
        Diagnostics diags;
        const auto r = searchPlans(base, opt, diags);
        QVERIFY(r);
        QVERIFY(r->cancelled);
        QCOMPARE(r->plansEvaluated, std::int64_t(0));
    }

    void objectiveNeedingTokensIsRefused() {
        ResolvedScenario base = resolveText(kScenario);
        base.training.tokens.reset();
        SearchOptions opt;
        opt.objective = SearchObjective::TimeToTrain;
        Diagnostics diags;
        QVERIFY(!searchPlans(base, opt, diags));
        QCOMPARE(QString::fromStdString(diags.all().front().path), QString("/training/tokens"));
    }

    // The search keeps its timed plans packed (SearchSpace::pack, 24 bytes): every plan of the
    // space comes back whole; the scatter's sample is as many as asked, spread over them.
    void packedPlansRoundTrip() {
        ResolvedScenario base = resolveText(kScenario);
        SearchDomain d = smallDomain();
        d.offloadOptimizer = d.offloadParams = d.offloadActivations = {};
        const SearchSpace space(base, d);
        std::size_t n = 0;
        for (std::size_t g = 0; g < space.groups().size(); ++g)
            space.forEachPlan(g, [&](const PlanChoice& p) {
                ++n;
                const PlanChoice back = space.unpack(SearchSpace::pack(g, p));
                if (!(back == p))
                    qFatal("%s", describePlan(p).c_str());
                return true;
            });
        QVERIFY(n > 10000);
        static_assert(sizeof(PackedPlan) <= 24);
        SearchOptions opt;
        opt.domain = smallDomain();
        opt.keepPoints = 1000;
        Diagnostics diags;
        const auto r = searchPlans(base, opt, diags);
        QVERIFY(r && r->plansFitting > 1000);
        QCOMPARE(r->points.size(), std::size_t(1000));
        opt.keepPoints = 0;
        QVERIFY(searchPlans(base, opt, diags)->points.empty());
    }

    // One GPU (QLoRA of an 8B model on an RTX 4090): ZeRO has no second rank to shard over,
    // so the space holds each plan once (ZeRO 0, or the stage an offload needs) unless the
    // stages are pinned; and every recompute mode meets the parameter offload, the first one
    // enumerated too.
    void oneGpuSpaceHasNoZeroTwins() {
        Diagnostics diags;
        const std::string text = test::readAll(
            test::sourceDir() + "/resources/examples/llama3.1-8b-qlora-1xrtx4090.json");
        auto parsed = parseScenarioText(text, diags);
        QVERIFY(parsed);
        const auto base = resolveScenario(*parsed, Catalog::builtIn(), diags);
        QVERIFY(base);
        std::set<RecomputeMode> offloadedParams;
        std::set<std::string> seen;
        for (const PlanChoice& p : allPlans(*base, SearchDomain{})) {
            if (p.offload.params != OffloadTarget::None) {
                QCOMPARE(p.zero, 3);
                offloadedParams.insert(p.recompute);
            } else if (p.offload.optimizer != OffloadTarget::None) {
                QCOMPARE(p.zero, 1);
            } else {
                QCOMPARE(p.zero, 0);
            }
            QVERIFY2(seen.insert(describePlan(p)).second, describePlan(p).c_str());
        }
        QCOMPARE(offloadedParams.size(), std::size_t(3)); // none, selective and full
        SearchDomain pinned;
        pinned.zero = {0, 2};
        std::set<int> stages;
        for (const PlanChoice& p : allPlans(*base, pinned))
            stages.insert(p.zero);
        QCOMPARE(stages, (std::set<int>{0, 2}));
    }

    // Every plan of the space resolves as written: `estimate` accepts what search reports.
    // training.document_tokens is refused with cp > 1 (not modelled): the search never offers
    // such a plan, pinned or not, and every plan it offers resolves.
    void packedDocumentsKeepCpOne() {
        ResolvedScenario base = resolveText(kScenario);
        base.training.documentTokens = base.training.seqLen / 8;
        SearchDomain pinned = smallDomain();
        pinned.cp = {1, 2, 4};
        for (const SearchDomain& d : {smallDomain(), pinned}) {
            int plans = 0;
            ResolvedScenario sc = base;
            for (const PlanChoice& p : allPlans(base, d)) {
                QCOMPARE(p.cp, 1);
                if (plans++ % 7)
                    continue;
                applyPlanChoice(p, sc);
                Diagnostics diags;
                QVERIFY2(resolveScenario(explicitScenario(sc), Catalog::builtIn(), diags),
                         qPrintable(QString::fromStdString(describePlan(p))));
            }
            QVERIFY(plans > 0);
        }
    }

    void everyPlanResolves() {
        const ResolvedScenario base = resolveText(kScenario);
        ResolvedScenario sc = base;
        int n = 0;
        for (const PlanChoice& p : allPlans(base, smallDomain())) {
            if (n++ % 7) // every 7th plan: enough to cover each field's values
                continue;
            applyPlanChoice(p, sc);
            Diagnostics diags;
            const auto again = resolveScenario(explicitScenario(sc), Catalog::builtIn(), diags);
            QVERIFY2(again, qPrintable(QString::fromStdString(describePlan(p))));
            QVERIFY(again->parallel == sc.parallel);
            QCOMPARE(again->training.microBatch, sc.training.microBatch);
        }
    }
};

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
