#pragma once
// Which export targets launch a plan as it is (no adaptation): what `search --target` keeps and
// what each searched plan's "targets" lists (shared/spec/scenario-format.md, "Command-line
// contracts (wave 3)"; issue 37 item 2).

#include "scenario/ResolvedScenario.h"

#include <string>
#include <vector>

namespace ts {

// The ids (ExporterRegistry order) whose exporter renders `plan` without a refusal.
std::vector<std::string> launchTargets(const ResolvedScenario& plan);
// Whether target `id` (an exporter id; "any": at least one) launches `plan` as it is.
bool launches(const ResolvedScenario& plan, const std::string& id);

} // namespace ts
