#pragma once
// The search's exact results from its bounds (search/PlanSearch.h): the top K and the Pareto
// fronts, each confirmed by full estimates taken in the order of the bounds. A full estimate
// is never below its bound (PlanEvaluator.h), so a plan whose bound is worse than the K-th
// full estimate, or dominated by fully estimated plans, cannot be among the results.

#include "estimate/EstimateStages.h"
#include "search/PlanSearch.h"

#include <map>
#include <optional>

namespace ts {

// A timed plan as the search keeps it, in 44 bytes (a PlanPoint takes 144; the GPT-3 175B /
// 1024-GPU space times 1.5 million): the plan packed, and its figures as floats rounded
// down, so that the bounds stay bounds (PlanPoint's fields, of which they are the floats).
struct BoundPoint {
    PackedPlan plan;
    float stepSeconds = 0, peakBytes = 0, usd = 0, joules = 0, objective = 0;
};
// The largest float at most v (v itself when a float holds it; NaN stays NaN).
float floatAtMost(double v);

class FullEstimates {
public:
    FullEstimates(const ResolvedScenario& scenario, const EstimatorSettings& settings,
                  const EstimateCollectives& collectives, const SearchOptions& options,
                  const SearchSpace& space);
    // The full estimate of points[index]; nullptr when it breaks a constraint (memory
    // headroom, deadline, budget) or lacks the objective.
    const SearchedPlan* get(const std::vector<BoundPoint>& points, std::size_t index);
    // The same, kept nowhere: the objective when every constraint holds.
    std::optional<double> objectiveOnly(const BoundPoint& point);
    std::int64_t count() const { return count_; }

private:
    bool withinConstraints(const Estimate& e) const;
    ResolvedScenario sc_;
    EstimatorSettings settings_;
    const EstimateCollectives& collectives_;
    const SearchOptions& options_;
    const SearchSpace& space_;
    std::map<std::size_t, std::optional<SearchedPlan>> cache_;
    std::int64_t count_ = 0;
};

std::vector<SearchedPlan> rankTopPlans(const std::vector<BoundPoint>& points, int topK,
                                       FullEstimates& full);
// How many points are better than `value` in full estimates: those whose bound is worse are
// not; the others are estimated in full, at most `maxFull` of them.
CurrentPlanRank rankAgainst(const std::vector<BoundPoint>& points, const Estimate& estimate,
                            double value, std::int64_t maxFull, FullEstimates& full);
std::vector<ParetoFront> paretoFronts(const std::vector<BoundPoint>& points, FullEstimates& full);

} // namespace ts
