#pragma once
// Capacity planning: for each GPU kind (with its cluster preset), the fewest GPUs and the
// cheapest cluster size that train `tokens` by a deadline within a budget, the best plan at
// each size (search/PlanSearch.h), and a scaling table; or why no size can.

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "scenario/Scenario.h"
#include "search/PlanSearch.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

// The largest cluster a capacity plan tries unless told otherwise: 2^16 GPUs, above the
// largest published training runs (Llama 3 405B: 16,384 H100, arXiv 2407.21783 sec. 3.3;
// Meta's two 24,576-GPU clusters).
inline constexpr std::int64_t kCapacityMaxGpus = 65536;

struct CapacityRequest {
    double tokens = 0;
    double deadlineDays = 0;
    std::optional<double> budgetUsd;
    std::vector<std::string> gpus; // catalog ids; empty: every GPU a cluster preset carries
    std::int64_t maxGpus = kCapacityMaxGpus;
    SearchOptions search; // domain, headroom, threads, progress, cancel (objective: time)
};

struct CapacityRow {
    std::int64_t numGpus = 0;
    std::optional<SearchedPlan> best; // the fastest plan (within the budget), if any fits
    bool meetsDeadline = false;
    std::string note; // why no plan, when none
};

struct CapacityGpu {
    std::string gpu;
    std::string clusterPreset;
    std::vector<CapacityRow> scaling;    // by GPU count
    std::optional<std::size_t> fewest;   // index into scaling: the fewest GPUs that meet it
    std::optional<std::size_t> cheapest; // the cheapest size that meets it
    std::string impossible;              // non-empty: why no size meets it
};

struct CapacityResult {
    std::vector<CapacityGpu> gpus;
    std::vector<std::string> notes;
};

// `base` is the scenario as read (model, training, costs): its cluster and plan are replaced.
std::optional<CapacityResult> planCapacity(const Scenario& base, const Catalog& catalog,
                                           const CalibrationRegistry& calibrations,
                                           const CapacityRequest& request, Diagnostics& diags);

// The coarse domain a capacity plan searches at each size unless pinned otherwise: no
// offload, full sharding, all layers recomputed under "full", micro-batch 1, 2 or 4.
SearchDomain capacityDomain();

} // namespace ts
