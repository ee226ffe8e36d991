#pragma once
// A resolved scenario written out with every key explicit, in the scenario format: the
// values in effect, which the editors show (in a quieter style) for keys the user left to
// a preset or a default.

#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

#include <nlohmann/json.hpp>

namespace ts::gui {

Scenario explicitScenario(const ResolvedScenario& resolved);
nlohmann::ordered_json resolvedScenarioJson(const ResolvedScenario& resolved);

} // namespace ts::gui
