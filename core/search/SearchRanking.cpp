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

float floatAtMost(double v) {
    float f = static_cast<float>(v); // the nearest float (or infinity)
    if (static_cast<double>(f) > v)
        f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
}

FullEstimates::FullEstimates(const ResolvedScenario& scenario, const EstimatorSettings& settings,
                             const EstimateCollectives& collectives, const SearchOptions& options,
                             const SearchSpace& space)
    : sc_(scenario), settings_(settings), collectives_(collectives), options_(options),
      space_(space) {
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

std::optional<double> FullEstimates::objectiveOnly(const BoundPoint& point) {
    ++count_;
    applyPlanChoice(space_.unpack(point.plan), sc_);
    const Estimate e = estimateSupportedPlan(sc_, settings_, collectives_);
    const auto value = objectiveValue(options_.objective, e);
    return value && withinConstraints(e) && (!options_.accept || options_.accept(sc_))
               ? value
               : std::nullopt;
}

const SearchedPlan* FullEstimates::get(const std::vector<BoundPoint>& points, std::size_t index) {
    auto it = cache_.find(index);
    if (it == cache_.end()) {
        ++count_;
        SearchedPlan sp;
        sp.plan = space_.unpack(points[index].plan);
        applyPlanChoice(sp.plan, sc_);
        sp.scenario = sc_;
        sp.estimate = estimateSupportedPlan(sc_, settings_, collectives_);
        const auto value = objectiveValue(options_.objective, sp.estimate);
        const bool ok = value.has_value() && withinConstraints(sp.estimate) &&
                        (!options_.accept || options_.accept(sp.scenario));
        sp.objective = value.value_or(0.0);
        it = cache_.emplace(index, ok ? std::optional<SearchedPlan>(std::move(sp)) : std::nullopt)
                 .first;
    }
    return it->second ? &*it->second : nullptr;
}

std::vector<SearchedPlan> rankTopPlans(const std::vector<BoundPoint>& points, int topK,
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

CurrentPlanRank rankAgainst(const std::vector<BoundPoint>& points, const Estimate& estimate,
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
    double (*bound)(const BoundPoint&);
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
// member is a full estimate. The candidates are sorted once; a round moves only the members
// it confirmed (their full estimates are never below their bounds), which are taken out and
// merged back in order: a round is linear, not a sort of every timed plan again.
ParetoFront paretoFront(const std::vector<BoundPoint>& points, const FrontAxis& axis,
                        FullEstimates& full) {
    struct Candidate {
        std::size_t index;
        double x, y;
        bool exact = false;
        bool moved = false;
    };
    const auto before = [](const Candidate& a, const Candidate& b) {
        return a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.index < b.index);
    };
    std::vector<Candidate> cands;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(axis.bound(points[i])))
            cands.push_back({i, points[i].stepSeconds, axis.bound(points[i])});
    std::sort(cands.begin(), cands.end(), before);
    std::vector<std::size_t> front;
    std::vector<Candidate> moved;
    for (;;) {
        front.clear();
        double lowest = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < cands.size(); ++c)
            if (cands[c].y < lowest) {
                lowest = cands[c].y;
                front.push_back(c);
            }
        moved.clear();
        for (std::size_t c : front) {
            Candidate& cand = cands[c];
            if (cand.exact)
                continue;
            const SearchedPlan* sp = full.get(points, cand.index);
            cand.exact = true;
            cand.x = sp ? sp->estimate.stepSeconds : std::numeric_limits<double>::infinity();
            cand.y = sp ? axis.exact(sp->estimate) : std::numeric_limits<double>::infinity();
            cand.moved = true;
            moved.push_back(cand);
            moved.back().moved = false;
        }
        if (moved.empty())
            break;
        cands.erase(
            std::remove_if(cands.begin(), cands.end(), [](const Candidate& c) { return c.moved; }),
            cands.end());
        std::sort(moved.begin(), moved.end(), before);
        const auto middle = static_cast<std::ptrdiff_t>(cands.size());
        cands.insert(cands.end(), moved.begin(), moved.end());
        std::inplace_merge(cands.begin(), cands.begin() + middle, cands.end(), before);
    }
    ParetoFront out;
    out.name = axis.name;
    for (std::size_t c : front)
        if (const SearchedPlan* sp = full.get(points, cands[c].index))
            out.plans.push_back(*sp);
    return out;
}

} // namespace

std::vector<ParetoFront> paretoFronts(const std::vector<BoundPoint>& points, FullEstimates& full) {
    const FrontAxis axes[] = {
        {"time-cost", [](const BoundPoint& p) { return double(p.usd); }, exactUsd},
        {"time-energy", [](const BoundPoint& p) { return double(p.joules); }, exactJoules},
        {"time-memory", [](const BoundPoint& p) { return double(p.peakBytes); },
         [](const Estimate& e) { return e.peakBytes; }},
    };
    std::vector<ParetoFront> out;
    for (const FrontAxis& axis : axes)
        out.push_back(paretoFront(points, axis, full));
    return out;
}

} // namespace ts
