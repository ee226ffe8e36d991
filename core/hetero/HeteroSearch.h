#pragma once
// Plan search over pools of unlike GPUs (issue 32 item 4): with cluster.pools and no
// parallelism.pipelines, which pools to use, the stage-to-pool order, layers per stage,
// tp per stage, replica counts and sequence shares, with the other plan fields.
//
// The space, and how it is cut:
// 1. Each pool alone: the uniform search (search/PlanSearch.h) over every plan field on that
//    pool's GPUs; its best plans enter the ranking as one-pool pipelines (so the result is
//    never slower than the best plan on any one pool).
// 2. Pipelines across pools: every order of the used pools (a contiguous block of stages
//    each), tp per pool, stages per pool (pp up to 16), and the replicas the pools can hold,
//    with the other fields those of the fastest pool's best uniform plan. Layers split by
//    each pool's measured per-layer time at its tp (Metis, ATC'24, sec. 5: layers in
//    proportion to stage speed), so that the stages finish alike.
// 3. Data parallelism across pools: replicas of one pool and replicas of another with the
//    same pp, the global batch split in proportion to their speed (Sailor's and Metis's
//    uneven data split).
// Before a candidate is estimated: its weights and optimizer states against each pool's memory
// (a lower bound on the peak), and its steady-state bound (micro-batches x the slowest stage's
// layers x per-layer time, a lower bound on the step) against the best found: only
// candidates that can fit and can win are estimated in full.

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "estimate/Estimate.h"
#include "scenario/Scenario.h"
#include "search/PlanSearch.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct HeteroPlan {
    Scenario scenario; // with cluster.pools and parallelism.pipelines
    Estimate estimate;
    double objective = 0;
    std::string description; // "h100 tp 8 x 2 + a100 tp 8 x 3 · dp 16 · layers 40/40"
};

struct HeteroSearchResult {
    std::int64_t plansInSpace = 0;
    std::int64_t plansEvaluated = 0; // timed (uniform searches) or estimated in full (pools)
    std::int64_t plansFitting = 0;
    double seconds = 0;
    std::vector<HeteroPlan> plans; // best first
    // Each pool alone: the uniform search's best plan (step seconds; 0 when none fits).
    std::vector<std::pair<std::string, double>> bestAlone;
    std::vector<HeteroPlan> alone; // each pool's best plan alone that meets the constraints
    std::vector<std::string> notes;
};

// `scenario` has cluster.pools; its parallelism.pipelines, if any, are ignored. Objectives:
// step-time, tokens-per-s, time-to-train, cost-per-token, cost-per-run, energy-per-run.
std::optional<HeteroSearchResult> searchHeteroPlans(const Scenario& scenario,
                                                    const Catalog& catalog,
                                                    const CalibrationRegistry& calibrations,
                                                    const SearchOptions& options,
                                                    Diagnostics& diags);

} // namespace ts
