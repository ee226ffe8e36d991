#pragma once
// A resolved scenario written out with every key explicit, in the scenario format: the
// values in effect, which the editors show (in a quieter style) for keys the user left to
// a preset or a default.

#include "scenario/ExplicitScenario.h"
#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

#include <nlohmann/json.hpp>

namespace ts::gui {

using ts::explicitScenario; // core/scenario/ExplicitScenario.h
nlohmann::ordered_json resolvedScenarioJson(const ResolvedScenario& resolved);

} // namespace ts::gui
