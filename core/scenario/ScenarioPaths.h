#pragma once
// Paths written inside a scenario (costs.carbon_csv) are relative to the scenario file's
// folder, in the CLI and the app alike, so that a scenario and its data move together.

#include "scenario/Scenario.h"

#include <string>

namespace ts {

// A copy of `scenario` whose relative paths are joined to the folder of `scenarioFile`.
// With no file (a new, unsaved scenario), paths stay relative to the working folder.
Scenario withPathsBesideFile(const Scenario& scenario, const std::string& scenarioFile);

} // namespace ts
