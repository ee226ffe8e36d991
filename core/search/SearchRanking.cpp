#include "search/SearchRanking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts {

namespace {

// Slack for the last bits of a bound summed in another order than the simulation's.
bool boundCanBeat(double bound, double value) {
    return bound <= value + 1e-9 * std::abs(value);
}

} // namespace

FullEstimates::FullEstimates(const ResolvedScenario& scenario, const EstimatorSettings& settings,
                             const EstimateCollectives& collectives, const SearchOptions& options)
    : sc_(scenario), settings_(settings), collectives_(collectives), options_(options) {
    settings_.recordTimeline = false; // the same numbers, without the Gantt chart's events
}

bool FullEstimates::withinConstraints(const Estimate& e) const {
    const SearchConstraints& c = options_.constraints;
    if (e.peakBytes > c.memoryHeadroom * e.capacityBytes)
        return false;
    if (c.deadlineDays && (!e.trainDays || *e.trainDays > *c.deadlineDays))
        return false;
    return !(c.budgetUsd && (!e.trainUsd || *e.trainUsd > *c.budgetUsd));
}

std::optional<double> FullEstimates::objectiveOnly(const PlanPoint& point) {
    ++count_;
    applyPlanChoice(point.plan, sc_);
    const Estimate e = estimateSupportedPlan(sc_, settings_, collectives_);
    const auto value = objectiveValue(options_.objective, e);
    return value && withinConstraints(e) ? value : std::nullopt;
}

const SearchedPlan* FullEstimates::get(const std::vector<PlanPoint>& points, std::size_t index) {
    auto it = cache_.find(index);
    if (it == cache_.end()) {
        ++count_;
        SearchedPlan sp;
        sp.plan = points[index].plan;
        applyPlanChoice(sp.plan, sc_);
        sp.scenario = sc_;
        sp.estimate = estimateSupportedPlan(sc_, settings_, collectives_);
        const auto value = objectiveValue(options_.objective, sp.estimate);
        const bool ok = value.has_value() && withinConstraints(sp.estimate);
        sp.objective = value.value_or(0.0);
        it = cache_.emplace(index, ok ? std::optional<SearchedPlan>(std::move(sp)) : std::nullopt)
                 .first;
    }
    return it->second ? &*it->second : nullptr;
}

std::vector<SearchedPlan> rankTopPlans(const std::vector<PlanPoint>& points, int topK,
                                       FullEstimates& full) {
    // The plans in the order of their bounds, (bound, enumeration order), taken from a heap:
    // the loop below stops after the first few, so sorting all of them (millions) is wasted.
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto later = [&](std::size_t a, std::size_t b) {
        return points[a].objective != points[b].objective
                   ? points[a].objective > points[b].objective
                   : a > b;
    };
    std::make_heap(order.begin(), order.end(), later);
    auto unsorted = order.end();
    const auto next = [&] {
        std::pop_heap(order.begin(), unsorted, later);
        return *--unsorted;
    };
    // The best so far by (full objective, enumeration order).
    std::vector<std::pair<std::size_t, const SearchedPlan*>> best;
    const auto before = [](const std::pair<std::size_t, const SearchedPlan*>& a,
                           const std::pair<std::size_t, const SearchedPlan*>& b) {
        return a.second->objective != b.second->objective
                   ? a.second->objective < b.second->objective
                   : a.first < b.first;
    };
    const std::size_t k = static_cast<std::size_t>(std::max(1, topK));
    while (unsorted != order.begin()) {
        const std::size_t i = next();
        if (best.size() == k && !boundCanBeat(points[i].objective, best.back().second->objective))
            break;
        const SearchedPlan* sp = full.get(points, i);
        if (!sp)
            continue;
        const std::pair<std::size_t, const SearchedPlan*> entry{i, sp};
        best.insert(std::upper_bound(best.begin(), best.end(), entry, before), entry);
        if (best.size() > k)
            best.pop_back();
    }
    std::vector<SearchedPlan> out;
    for (const auto& [i, sp] : best)
        out.push_back(*sp);
    return out;
}

CurrentPlanRank rankAgainst(const std::vector<PlanPoint>& points, const Estimate& estimate,
                            double value, std::int64_t maxFull, FullEstimates& full) {
    CurrentPlanRank r;
    r.estimate = estimate;
    r.objective = value;
    std::int64_t estimated = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].objective >= value)
            continue; // its full estimate is no better than its bound
        if (estimated >= maxFull) {
            ++r.uncertain;
            continue;
        }
        ++estimated;
        if (const auto v = full.objectiveOnly(points[i]); v && *v < value)
            ++r.better;
    }
    return r;
}

namespace {

struct FrontAxis {
    const char* name;
    double (*bound)(const PlanPoint&);
    double (*exact)(const Estimate&);
};

double exactUsd(const Estimate& e) {
    const auto v = e.trainUsd ? e.trainUsd : e.usdPerMillionTokens;
    return v ? *v : std::nan("");
}

double exactJoules(const Estimate& e) {
    if (e.trainKwh)
        return *e.trainKwh * 3.6e6;
    return e.stepJoules ? *e.stepJoules : std::nan("");
}

// The front of time against one axis: take the front of the points (full estimates where
// known, bounds elsewhere), estimate its unconfirmed members in full, and repeat until every
// member is a full estimate.
ParetoFront paretoFront(const std::vector<PlanPoint>& points, const FrontAxis& axis,
                        FullEstimates& full) {
    struct Candidate {
        std::size_t index;
        double x, y;
        bool exact = false;
    };
    std::vector<Candidate> cands;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(axis.bound(points[i])))
            cands.push_back({i, points[i].stepSeconds, axis.bound(points[i])});
    std::vector<std::size_t> front;
    for (;;) {
        std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
            return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.index < b.index);
        });
        front.clear();
        double lowest = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < cands.size(); ++c)
            if (cands[c].y < lowest) {
                lowest = cands[c].y;
                front.push_back(c);
            }
        bool confirmed = true;
        for (std::size_t c : front) {
            Candidate& cand = cands[c];
            if (cand.exact)
                continue;
            confirmed = false;
            const SearchedPlan* sp = full.get(points, cand.index);
            cand.exact = true;
            cand.x = sp ? sp->estimate.stepSeconds : std::numeric_limits<double>::infinity();
            cand.y = sp ? axis.exact(sp->estimate) : std::numeric_limits<double>::infinity();
        }
        if (confirmed)
            break;
    }
    ParetoFront out;
    out.name = axis.name;
    for (std::size_t c : front)
        if (const SearchedPlan* sp = full.get(points, cands[c].index))
            out.plans.push_back(*sp);
    return out;
}

} // namespace

std::vector<ParetoFront> paretoFronts(const std::vector<PlanPoint>& points, FullEstimates& full) {
    const FrontAxis axes[] = {
        {"time-cost", [](const PlanPoint& p) { return p.usd; }, exactUsd},
        {"time-energy", [](const PlanPoint& p) { return p.joules; }, exactJoules},
        {"time-memory", [](const PlanPoint& p) { return p.peakBytes; },
         [](const Estimate& e) { return e.peakBytes; }},
    };
    std::vector<ParetoFront> out;
    for (const FrontAxis& axis : axes)
        out.push_back(paretoFront(points, axis, full));
    return out;
}

} // namespace ts
