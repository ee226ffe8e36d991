#pragma once
// A resolved scenario written back with every key explicit, in the scenario format: the
// values in effect after presets and defaults. `trainscape-cli validate --resolved` prints
// it; the editors show it, in a quieter style, for keys the user left to a preset or a
// default. Resolving it again gives the same model, cluster, training and plan.

#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

namespace ts {

Scenario explicitScenario(const ResolvedScenario& resolved);

} // namespace ts
