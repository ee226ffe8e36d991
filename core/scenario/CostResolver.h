#pragma once
// The scenario's "costs" section resolved: what the user gave, and for the rest the
// catalog's sourced defaults (energy_defaults, prices, servers) or the model's named
// assumptions, each recorded in CostConfig::assumptions with its source.

#include "catalog/Catalog.h"
#include "common/Diagnostics.h"
#include "scenario/ClusterConfig.h"
#include "scenario/CostConfig.h"
#include "scenario/Scenario.h"

#include <optional>

namespace ts {

// Reads costs.carbon_csv (a path relative to the working directory; resolveScenarioFile
// makes it relative to the scenario file). Errors name /costs/...
CostConfig resolveCosts(const std::optional<CostInput>& input, const ClusterConfig& cluster,
                        const Catalog& catalog, Diagnostics& diags);

// Scale-out switch tiers of a non-blocking fat-tree for `endpoints` NIC ports of switches of
// `radix` ports: one tier up to radix, two up to radix^2/2, three up to radix^3/4, ...
int fatTreeTiers(double endpoints, int radix);

} // namespace ts
