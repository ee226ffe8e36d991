#pragma once
// Resolution of a scenario with cluster.pools (shared/spec/scenario-format.md, "Heterogeneous
// clusters"). Each stage of each pipeline entry is resolved as the homogeneous scenario it runs
// as (its "stage view"): its pool's GPUs and network, its tp, the pipelines' pp, dp = every
// replica, and its entry's micro-batch and sequences. The views go through resolveScenario,
// so every rule of a uniform cluster holds per stage; their errors are reported at the pools'
// and pipelines' paths. core/hetero estimates a pools plan from its views.

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

#include <optional>

namespace ts {

std::optional<ResolvedScenario> resolvePooledScenario(const Scenario& scenario,
                                                      const Catalog& catalog,
                                                      const CalibrationRegistry& calibrations,
                                                      Diagnostics& diags);

// The scenario that stage `stage` of pipeline entry `entry` runs as (input form): what the
// resolver resolves, and what search builds its candidates from.
Scenario stageViewInput(const Scenario& scenario, const Catalog& catalog, int entry, int stage);

// The scenario on pool `pool` alone, as a uniform cluster (its GPU, count and network), with the
// parallelism keys shared by every stage and no pipelines: what search times the pool by.
Scenario poolUniformInput(const Scenario& scenario, const Catalog& catalog, std::size_t pool);

} // namespace ts
