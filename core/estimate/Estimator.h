#pragma once
// One estimate of one plan: memory per pipeline stage, step time with its breakdown,
// throughput and communication volume (DESIGN.md, "How data flows through one estimate").

#include "common/Diagnostics.h"
#include "estimate/Estimate.h"
#include "estimate/LayerCost.h"
#include "estimate/MemoryModel.h"
#include "hardware/GpuGeneration.h"
#include "hardware/HardwareProfile.h"
#include "parallel/CollectiveCost.h"
#include "scenario/ResolvedScenario.h"

#include <cstdint>
#include <optional>

namespace ts {

// Schedule operations simulated before the steady-state shortcut is tried.
inline constexpr std::int64_t kScheduleEventBudget = 4096;

// Everything the estimate takes besides the scenario: the calibration seam. A measured
// calibration profile (issue 6) replaces `hardware` and `collectives`.
struct EstimatorSettings {
    HardwareProfile hardware;
    CollectiveEfficiency collectives;
    OverlapModel overlap;
    // Flash attention and no dropout by default (scenario format v1 has no key for them); the
    // paper's assumptions (materialised scores, dropout) change both memory and time.
    ActivationAssumptions activations;
    // The GPU's architecture (hardware/GpuGeneration.h), found once: the attention kernel and
    // the FP8 weight cache's size depend on it.
    GpuGeneration generation = GpuGeneration::Unknown;
    bool recordTimeline = true; // the schedule's operations, for the Gantt chart
    // Collectives on the cluster's graph (core/topology: oversubscription, rail-only
    // forwarding, WAN links); false: the two-level alpha-beta model.
    bool topologyCollectives = true;
    // Above this many schedule operations the simulation stops once the schedule has reached
    // its periodic steady state and shifts the rest (simulatePipeline): the step time is the
    // same, only the timeline covers fewer micro-batches (Estimate::timelineMicrobatches).
    // Raise it for a Gantt chart of every micro-batch.
    std::int64_t maxScheduleEvents = kScheduleEventBudget;
};

EstimatorSettings defaultEstimatorSettings(const ResolvedScenario& scenario);

// Returns nullopt, with an error diagnostic naming the JSON path, for a plan outside the
// estimator's scope ("not modelled yet: ...").
std::optional<Estimate> estimatePlan(const ResolvedScenario& scenario, Diagnostics& diags);
std::optional<Estimate> estimatePlan(const ResolvedScenario& scenario,
                                     const EstimatorSettings& settings, Diagnostics& diags);

} // namespace ts
