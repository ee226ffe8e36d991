#pragma once
// "The same plan" for a launch configuration: what a launcher runs (model, fine-tuning, batch,
// precision, optimizer, parallel plan, GPU count and GPUs per node), with the settings that have no
// effect cleared (overlap of a dimension of size 1, sequence parallelism without TP, the CP
// communication without CP, expert degrees without experts, the FP8 recipe without FP8, the
// recompute depth without full recompute, and "all layers" written either way). Hardware,
// costs, names and the token count are not part of a launch.

#include "scenario/ResolvedScenario.h"

#include <string>
#include <vector>

namespace ts {

ResolvedScenario launchPlan(const ResolvedScenario& scenario);
// JSON pointers (in the scenario format) where the launch plans of a and b differ.
std::vector<std::string> launchPlanDifferences(const ResolvedScenario& a,
                                               const ResolvedScenario& b);

} // namespace ts
