#pragma once
// What the start hour changes: a run of constant facility power over an hourly series of
// grid carbon intensity (and optionally electricity price), started at the series' first
// hour against the start hours with the least CO2 and the cheapest electricity (e.g. a
// window of curtailed renewable power). A run longer than the series repeats it.

#include "energy/EnergyReport.h"
#include "scenario/CostConfig.h"

#include <optional>
#include <vector>

namespace ts {

// CO2 (kg) and electricity (USD, when the series has prices) of `runHours` hours at
// `facilityKw`, started at row `start`; the last hour may be partial.
struct GridRun {
    double co2Kg = 0;
    std::optional<double> electricityUsd;
};
GridRun gridRun(const std::vector<GridHour>& hours, std::size_t start, double runHours,
                double facilityKw);

// nullopt for an empty series or a run of no time.
std::optional<GridWindow> bestGridWindow(const std::vector<GridHour>& hours, double runHours,
                                         double facilityKw);

} // namespace ts
