#include "energy/TrainingCost.h"

namespace ts {

HourlyCost hourlyCost(const HourlyCostInput& in) {
    HourlyCost out;
    if (in.ownership == Ownership::Cloud) {
        if (!in.gpuHourUsd) {
            out.missing = "gpu_hour_usd";
            return out;
        }
        out.usdPerHour = *in.gpuHourUsd * in.numGpus;
        return out;
    }
    if (!in.nodeCapexUsd) {
        out.missing = "node_capex_usd";
        return out;
    }
    if (!in.amortizationYears || *in.amortizationYears <= 0) {
        out.missing = "amortization_years";
        return out;
    }
    if (!in.electricityUsdPerKwh) {
        out.missing = "electricity_usd_kwh";
        return out;
    }
    const double capital = *in.nodeCapexUsd * in.nodes + in.networkCapexUsd.value_or(0.0);
    out.usdPerHour = capital / (*in.amortizationYears * kHoursPerYear) +
                     in.facilityKw * *in.electricityUsdPerKwh;
    return out;
}

double usdPerMillionTokens(double usdPerHour, double tokensPerS) {
    return tokensPerS > 0 ? usdPerHour / (tokensPerS * 3600.0) * 1e6 : 0.0;
}

} // namespace ts
