#pragma once
// Capacity from an inventory (issue 32 item 5): the GPUs a user has, as pools, and the fastest
// and the cheapest plan over them that trains the tokens by the deadline, with each pool alone
// for comparison (search over pools: hetero/HeteroSearch.h). The command line's
// `capacity --inventory` and the desktop's Capacity view both call it.

#include "hetero/HeteroSearch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

struct InventoryHolding {
    std::string gpu; // catalog id
    std::int64_t numGpus = 0;
};

// The inventory file: a JSON list of {"gpu", "num_gpus", "site"}; errors name the entry's
// path ("/1/num_gpus"). Sites are refused until cluster.sites is modelled.
std::optional<std::vector<InventoryHolding>>
readInventory(std::string_view text, const Catalog& catalog, Diagnostics& diags);

struct InventoryOption {
    std::string objective; // "fastest" | "cheapest"; for `alone`, the pool's id
    HeteroPlan plan;
    bool meetsDeadline = false;
    std::vector<InventoryHolding> used; // GPUs the plan takes, per pool in inventory order
};

struct InventoryResult {
    std::vector<InventoryOption> options; // that meet the deadline (and budget)
    std::vector<InventoryOption> alone;   // each pool's fastest plan by itself
    std::vector<std::pair<std::string, std::string>> impossible; // objective, why
};

struct InventoryRequest {
    double tokens = 0;
    double deadlineDays = 0;
    std::optional<double> budgetUsd;
    SearchOptions search;
};

// `base` gives the model, training and costs; its cluster and plan are replaced by the pools.
Scenario inventoryScenario(const Scenario& base, const std::vector<InventoryHolding>& inventory,
                           double tokens);
std::optional<InventoryResult>
planInventory(const Scenario& base, const std::vector<InventoryHolding>& inventory,
              const InventoryRequest& request, const Catalog& catalog,
              const CalibrationRegistry& calibrations, Diagnostics& diags);

} // namespace ts
