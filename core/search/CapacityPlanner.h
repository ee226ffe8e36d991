#pragma once
// Capacity planning: for each GPU kind (with its cluster preset), the fewest GPUs and the
// cheapest cluster size that train `tokens` by a deadline within a budget, the best plan at
// each size (search/PlanSearch.h), and a scaling table; or why no size can.

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "scenario/Scenario.h"
#include "search/PlanSearch.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ts {

// The largest cluster a capacity plan tries unless told otherwise: 2^16 GPUs, above the
// largest published training runs (Llama 3 405B: 16,384 H100, arXiv 2407.21783 sec. 3.3;
// Meta's two 24,576-GPU clusters).
inline constexpr std::int64_t kCapacityMaxGpus = 65536;

// Where a capacity plan stands: the cluster size it is about to search.
struct CapacityProgress {
    std::size_t gpuIndex = 0, gpuKinds = 0; // the GPU kind being sized, of how many
    std::string gpu;
    std::int64_t numGpus = 0;
    // Roughly the share done: GPU kinds done, plus sizes tried of this kind on a log scale
    // up to maxGpus (a kind stops early once sizes past the fewest are tried).
    double fraction = 0;
};

struct CapacityRequest {
    double tokens = 0;
    double deadlineDays = 0;
    std::optional<double> budgetUsd;
    std::vector<std::string> gpus; // catalog ids; empty: every GPU a cluster preset carries
    std::int64_t maxGpus = kCapacityMaxGpus;
    SearchOptions search; // domain, headroom, threads, progress, cancel (objective: time)
    std::function<void(const CapacityProgress&)> progress; // before each size's search
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
    bool cancelled = false; // SearchOptions::cancel was set: the kinds and sizes done so far
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
