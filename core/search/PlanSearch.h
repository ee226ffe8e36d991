#pragma once
// Plan search (DESIGN.md, core/search): every valid plan of a scenario, pruned by
// divisibility (SearchSpace), then by memory, then timed by the lower bound of
// PlanEvaluator; the best plans and the Pareto fronts are then estimated in full, in the order
// of their bounds, until no bound can beat them: what the search reports are the full
// estimator's numbers, and its top K are exactly those of an exhaustive run.

#include "estimate/Estimate.h"
#include "estimate/Estimator.h"
#include "scenario/Scenario.h"
#include "search/SearchSpace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ts {

enum class SearchObjective {
    StepTime,
    TokensPerSecond,
    TimeToTrain,
    CostPerToken,
    CostPerRun,
    EnergyPerRun
};
// "step-time", "tokens-per-s", "time-to-train", "cost-per-token", "cost-per-run",
// "energy-per-run".
std::optional<SearchObjective> searchObjectiveFromName(const std::string& name);
std::string searchObjectiveName(SearchObjective objective);
bool objectiveNeedsTokens(SearchObjective objective);
// The objective of an estimate, lower is better (tokens/s negated); nullopt when the
// estimate lacks it (no training.tokens, no price).
std::optional<double> objectiveValue(SearchObjective objective, const Estimate& estimate);

struct SearchConstraints {
    double memoryHeadroom = 0.9;        // estimated peak at most this fraction of the GPU's memory
    std::optional<double> deadlineDays; // time to train training.tokens
    std::optional<double> budgetUsd;    // cost of the run
};

struct SearchProgress {
    std::int64_t groupsDone = 0, groups = 0;
    std::int64_t plansSeen = 0, plansEvaluated = 0;
    double fraction() const { return groups ? double(groupsDone) / double(groups) : 1.0; }
};

struct SearchOptions {
    SearchDomain domain;
    SearchConstraints constraints;
    SearchObjective objective = SearchObjective::StepTime;
    int topK = 10;
    int threads = 0;     // 0: the hardware's
    bool pareto = false; // compute the Pareto fronts (energy and cost of every timed plan)
    // Timed plans' bounds to keep for a scatter chart, at most: an even sample of them in the
    // search's order (SearchResult::points); 0 keeps none.
    std::size_t keepPoints = 0;
    // Rank the scenario's own plan among the space's (SearchResult::current).
    bool rankCurrentPlan = false;
    std::function<void(const SearchProgress&)> progress; // from worker threads, serialised
    // Only plans it accepts are reported (ranked, on the fronts): e.g. those an export target
    // launches as they are (search --target; export/LaunchTargets.h). Called on a plan's full
    // estimate, from one thread at a time; empty: every plan.
    std::function<bool(const ResolvedScenario&)> accept;
    const std::atomic<bool>* cancel = nullptr;
};

// One reported plan: its scenario and the full estimator's estimate of it.
struct SearchedPlan {
    PlanChoice plan;
    ResolvedScenario scenario;
    Estimate estimate;
    double objective = 0;
    // A plan over pools (core/hetero/HeteroSearch.h): its scenario as written, which `plan`
    // (the first stage's summary) cannot express, and its description.
    std::optional<Scenario> pooled;
    std::string description;
    std::string label() const { return description.empty() ? describePlan(plan) : description; }
};

// A timed plan as the inner loop saw it: bounds on time, cost and energy, exact memory.
// (The search itself keeps them packed: search/SearchRanking.h, BoundPoint.)
struct PlanPoint {
    PlanChoice plan;
    double stepSeconds = 0;
    double peakBytes = 0;
    double usd = 0;    // per run (with training.tokens), else per million tokens; NaN unknown
    double joules = 0; // per run, else per step
    double objective = 0;
};

struct ParetoFront {
    std::string name;                // "time-cost", "time-energy", "time-memory"
    std::vector<SearchedPlan> plans; // by step time
};

// The scenario's own plan against the space: how many plans the full estimator finds better.
struct CurrentPlanRank {
    Estimate estimate;
    double objective = 0;
    std::int64_t better = 0;    // plans of the space with a better full estimate
    std::int64_t uncertain = 0; // plans whose bound is better but were not estimated in full
};

struct SearchResult {
    std::int64_t plansInSpace = 0;   // valid plans (divisibility and the estimator's scope)
    std::int64_t plansEvaluated = 0; // step time and memory computed
    std::int64_t plansFitting = 0;   // within the memory headroom
    std::int64_t fullEstimates = 0;  // full estimator runs to confirm the results
    double seconds = 0;
    bool cancelled = false;
    std::vector<SearchedPlan> plans; // best first
    std::vector<ParetoFront> fronts;
    std::vector<PlanPoint> points;          // SearchOptions::keepPoints of them
    std::optional<CurrentPlanRank> current; // with SearchOptions::rankCurrentPlan
    std::vector<std::string> notes;
};

// Errors (an objective that needs training.tokens, a domain no plan satisfies) go to diags.
std::optional<SearchResult> searchPlans(const ResolvedScenario& scenario,
                                        const SearchOptions& options, Diagnostics& diags);
std::optional<SearchResult> searchPlans(const ResolvedScenario& scenario,
                                        const EstimatorSettings& settings,
                                        const SearchOptions& options, Diagnostics& diags);

} // namespace ts
