#pragma once
// The last stage of one estimate (DESIGN.md, "How data flows through one estimate"): energy,
// cost and CO2 from the step's timing and the scenario's resolved costs. Fills the spec's
// `energy`, `cost` and `train` fields and Estimate::energyReport, and names every default
// it relied on in Estimate::warnings.

#include "estimate/Estimate.h"
#include "scenario/ResolvedScenario.h"

namespace ts {

void addEnergyAndCost(const ResolvedScenario& scenario, Estimate& estimate);

} // namespace ts
