#include "search/PlanSearch.h"

#include "estimate/EstimateStages.h"
#include "search/PlanEvaluator.h"
#include "search/SearchRanking.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

namespace ts {

namespace {

// Full estimates spent on ranking the scenario's own plan, at most.
constexpr std::int64_t kMaxRankingEstimates = 200000;

// The plans of one layer-cost group, as one worker thread evaluated them.
struct GroupResult {
    std::vector<BoundPoint> points; // timed and within the memory headroom and bounds
    std::int64_t seen = 0, evaluated = 0, fitting = 0;
};

struct SearchRun {
    SearchRun(const ResolvedScenario& s, const EstimatorSettings& set, const SearchOptions& o,
              const EstimateCollectives& c, const SearchSpace& sp)
        : sc(s), settings(set), options(o), collectives(c), space(sp) {}
    const ResolvedScenario& sc;
    const EstimatorSettings& settings;
    const SearchOptions& options;
    const EstimateCollectives& collectives;
    const SearchSpace& space;
    bool withEnergy = false;
    std::vector<GroupResult> groups;
    std::atomic<std::size_t> next{0};
    std::mutex progressMutex;
    SearchProgress progress;
    bool cancelled() const {
        return options.cancel && options.cancel->load(std::memory_order_relaxed);
    }
};

double usdOf(const Estimate& e) {
    const auto v = e.trainUsd ? e.trainUsd : e.usdPerMillionTokens;
    return v ? *v : std::numeric_limits<double>::quiet_NaN();
}

double joulesOf(const Estimate& e) {
    if (e.trainKwh)
        return *e.trainKwh * 3.6e6;
    return e.stepJoules ? *e.stepJoules : std::numeric_limits<double>::quiet_NaN();
}

// A bound beyond a deadline or budget: the full estimate is beyond it too.
bool boundWithinLimits(const SearchConstraints& c, const Estimate& e) {
    if (c.deadlineDays && e.trainDays && *e.trainDays > *c.deadlineDays)
        return false;
    if (c.budgetUsd && e.trainUsd && *e.trainUsd > *c.budgetUsd)
        return false;
    return true;
}

void evaluateGroup(SearchRun& run, std::size_t g, PlanEvaluator& evaluator) {
    GroupResult& out = run.groups[g];
    const SearchConstraints& c = run.options.constraints;
    PlanBound bound;
    double limit = -1;
    run.space.forEachPlan(g, [&](const PlanChoice& plan) {
        if (run.cancelled())
            return false;
        if (!evaluator.evaluate(plan, limit < 0 ? 0.0 : limit, run.withEnergy, bound))
            return true; // outside the estimator's scope: not a plan of the space
        if (limit < 0) { // the capacity is the same for every plan: evaluate this one again
            limit = c.memoryHeadroom * bound.capacityBytes;
            evaluator.evaluate(plan, limit, run.withEnergy, bound);
        }
        ++out.seen;
        if (!bound.timed)
            return true;
        ++out.evaluated;
        ++out.fitting;
        const Estimate& e = bound.estimate;
        if (!boundWithinLimits(c, e))
            return true;
        BoundPoint p;
        p.plan = SearchSpace::pack(g, plan);
        p.stepSeconds = floatAtMost(e.stepSeconds);
        p.peakBytes = floatAtMost(e.peakBytes);
        p.usd = floatAtMost(usdOf(e));
        p.joules = floatAtMost(joulesOf(e));
        p.objective = floatAtMost(objectiveValue(run.options.objective, e)
                                      .value_or(std::numeric_limits<double>::infinity()));
        out.points.push_back(p);
        return true;
    });
}

// At most `keep` of the points, evenly spread over them in order, as PlanPoints.
std::vector<PlanPoint> samplePoints(const std::vector<BoundPoint>& points, const SearchSpace& space,
                                    std::size_t keep) {
    std::vector<PlanPoint> out;
    const std::size_t n = std::min(keep, points.size());
    out.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        // k * size / n without the product (k * (size mod n) < n^2, a count of points squared)
        const std::size_t i = k * (points.size() / n) + k * (points.size() % n) / n;
        const BoundPoint& b = points[i];
        PlanPoint p;
        p.plan = space.unpack(b.plan);
        p.stepSeconds = b.stepSeconds;
        p.peakBytes = b.peakBytes;
        p.usd = b.usd;
        p.joules = b.joules;
        p.objective = b.objective;
        out.push_back(p);
    }
    return out;
}

void worker(SearchRun& run) {
    // The graph collective model memoises group shapes: one instance per thread.
    const EstimateCollectives collectives(run.sc.cluster, run.settings);
    PlanEvaluator evaluator(run.sc, run.settings, collectives);
    for (;;) {
        const std::size_t g = run.next.fetch_add(1);
        if (g >= run.groups.size() || run.cancelled())
            return;
        evaluateGroup(run, g, evaluator);
        if (run.options.progress) {
            std::lock_guard lock(run.progressMutex);
            ++run.progress.groupsDone;
            run.progress.plansSeen += run.groups[g].seen;
            run.progress.plansEvaluated += run.groups[g].evaluated;
            run.options.progress(run.progress);
        }
    }
}

} // namespace

std::optional<SearchResult> searchPlans(const ResolvedScenario& sc, const SearchOptions& options,
                                        Diagnostics& diags) {
    return searchPlans(sc, defaultEstimatorSettings(sc), options, diags);
}

std::optional<SearchResult> searchPlans(const ResolvedScenario& sc,
                                        const EstimatorSettings& settings,
                                        const SearchOptions& options, Diagnostics& diags) {
    const auto started = std::chrono::steady_clock::now();
    if (objectiveNeedsTokens(options.objective) &&
        !(sc.training.tokens && *sc.training.tokens > 0)) {
        diags.error("/training/tokens", "objective " + searchObjectiveName(options.objective) +
                                            " needs training.tokens (the tokens to train)");
        return std::nullopt;
    }
    if (options.constraints.deadlineDays && !sc.training.tokens) {
        diags.error("/training/tokens", "a deadline needs training.tokens (the tokens to train)");
        return std::nullopt;
    }
    if (!(options.constraints.memoryHeadroom > 0 && options.constraints.memoryHeadroom <= 1)) {
        diags.error("memory headroom", "must be a fraction in (0, 1], e.g. 0.9");
        return std::nullopt;
    }
    const EstimateCollectives collectives(sc.cluster, settings);
    const SearchSpace space(sc, options.domain);
    SearchRun run(sc, settings, options, collectives, space);
    const SearchObjective o = options.objective;
    run.withEnergy = options.pareto || options.constraints.budgetUsd ||
                     o == SearchObjective::CostPerToken || o == SearchObjective::CostPerRun ||
                     o == SearchObjective::EnergyPerRun;
    run.groups.resize(space.groups().size());
    run.progress.groups = static_cast<std::int64_t>(space.groups().size());
    const int threads = std::max(1, options.threads > 0 ? options.threads
                                                        : int(std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back([&run] { worker(run); });
    worker(run);
    for (std::thread& t : pool)
        t.join();

    SearchResult result;
    result.cancelled = run.cancelled();
    std::vector<BoundPoint> points;
    std::size_t timed = 0;
    for (const GroupResult& g : run.groups)
        timed += g.points.size();
    points.reserve(timed);
    for (GroupResult& g : run.groups) {
        result.plansInSpace += g.seen;
        result.plansEvaluated += g.evaluated;
        result.plansFitting += g.fitting;
        points.insert(points.end(), g.points.begin(), g.points.end());
        std::vector<BoundPoint>().swap(g.points); // (its memory back before the next's copy)
    }
    run.groups.clear();
    FullEstimates full(sc, settings, collectives, options, space);
    result.plans = rankTopPlans(points, options.topK, full);
    if (options.pareto && !result.cancelled)
        result.fronts = paretoFronts(points, full);
    if (options.rankCurrentPlan && !result.cancelled) {
        Diagnostics supported;
        if (checkPlanSupported(sc, supported)) {
            EstimatorSettings quiet = settings;
            quiet.recordTimeline = false;
            const Estimate own = estimateSupportedPlan(sc, quiet, collectives);
            if (const auto value = objectiveValue(options.objective, own))
                result.current = rankAgainst(points, own, *value, kMaxRankingEstimates, full);
        }
    }
    result.fullEstimates = full.count();
    result.points = samplePoints(points, space, options.keepPoints);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace ts
