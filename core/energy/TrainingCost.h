#pragma once
// What a plan costs per hour of running, under one of two ownership models:
// - cloud: every GPU-hour at a price (costs.gpu_hour_usd); electricity is in the price;
// - owned: the capital of the nodes and of the network spread evenly over the years of
//   amortization (straight-line, running all year), plus the facility's electricity.

#include "scenario/CostConfig.h"

#include <optional>
#include <string>

namespace ts {

struct HourlyCostInput {
    Ownership ownership = Ownership::Cloud;
    double numGpus = 0;
    double nodes = 0;
    double facilityKw = 0; // average facility power (IT x PUE)
    std::optional<double> gpuHourUsd;
    std::optional<double> electricityUsdPerKwh;
    std::optional<double> amortizationYears;
    std::optional<double> nodeCapexUsd;
    std::optional<double> networkCapexUsd;
};

struct HourlyCost {
    std::optional<double> usdPerHour; // nullopt when an input is missing (see `missing`)
    std::string missing;              // the costs key to give
};

inline constexpr double kHoursPerYear = 8760.0;

HourlyCost hourlyCost(const HourlyCostInput& in);

// US dollars per million tokens at `usdPerHour` and a throughput of `tokensPerS`.
double usdPerMillionTokens(double usdPerHour, double tokensPerS);

} // namespace ts
