#pragma once
// capacity FILE --inventory INV.json (issue 32 item 5): the fastest and the cheapest way to
// train the tokens by the deadline with the GPUs a user has (a JSON list of {"gpu",
// "num_gpus", "site"}), planned over pools (core/hetero/HeteroSearch.h), beside each kind alone.

#include "CliCommon.h"

#include "scenario/Scenario.h"
#include "search/PlanSearch.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ts::cli {

struct InventoryRequest {
    std::string file;
    double tokens = 0;
    double deadlineDays = 0;
    std::optional<double> budgetUsd;
    SearchOptions search;
};

// The "inventory" part of capacity's JSON: {"inventory", "options", "impossible"}; nullopt
// with `diags` for an inventory that does not read.
std::optional<nlohmann::ordered_json> inventoryCapacity(const Scenario& base, const Catalog& catalog,
                                                        const CalibrationRegistry& calibrations,
                                                        const InventoryRequest& request,
                                                        Diagnostics& diags);

} // namespace ts::cli
