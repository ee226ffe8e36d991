#pragma once
// search on a scenario with cluster.pools (core/hetero/HeteroSearch.h).

#include "CliCommon.h"

#include "scenario/Scenario.h"
#include "search/PlanSearch.h"

namespace ts::cli {

int runHeteroSearch(const Options& options, const Scenario& scenario, const SearchOptions& so);

} // namespace ts::cli
