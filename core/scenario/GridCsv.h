#pragma once
// The hourly grid series of costs.carbon_csv: a header line, then one line per hour.
// The first column labels the hour (e.g. an ISO time); the columns named "gco2_kwh"
// (required) and "usd_kwh" (optional) give the grid's carbon intensity and the electricity
// price of that hour. Empty lines and lines starting with '#' are skipped.
//
//   hour,gco2_kwh,usd_kwh
//   2024-06-01T00:00Z,412,0.071

#include "common/Diagnostics.h"
#include "scenario/CostConfig.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

inline constexpr std::size_t kMaxGridHours = 1'000'000;

// Errors name `path` (the scenario key) and the line.
std::optional<std::vector<GridHour>> parseGridCsv(std::string_view text, const std::string& path,
                                                  Diagnostics& diags);

} // namespace ts
