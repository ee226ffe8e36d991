#pragma once
// capacity FILE --inventory INV.json (issue 32 item 5): the JSON of core/hetero/
// InventoryPlanner.h's result, beside renting one kind.

#include "CliCommon.h"

#include "hetero/InventoryPlanner.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ts::cli {

// {"inventory", "options", "alone", "impossible"}; nullopt with `diags` for an inventory that
// does not read (its errors prefixed with "--inventory FILE").
std::optional<nlohmann::ordered_json>
inventoryCapacity(const Scenario& base, const Catalog& catalog,
                  const CalibrationRegistry& calibrations, const std::string& file,
                  const InventoryRequest& request, Diagnostics& diags);

} // namespace ts::cli
