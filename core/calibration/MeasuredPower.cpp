#include "calibration/MeasuredPower.h"

#include "common/JsonObjectReader.h"
#include "common/TextFormat.h"
#include "scenario/Scenario.h"

#include <algorithm>

namespace ts {

namespace {

void dropAssumption(CostConfig& costs, MessageId id) {
    auto& a = costs.assumptions;
    a.erase(std::remove_if(a.begin(), a.end(), [id](const Message& m) { return m.id == id; }),
            a.end());
}

std::string wattsText(const std::optional<PhasePower>& p) {
    return p ? printfText("%.0f W", p->watts) : std::string("-");
}

// The fraction of (TDP - idle) that draws `phase`'s measured watts, if it is one.
std::optional<double> fractionOf(const std::optional<PhasePower>& phase, double idleW, double tdpW,
                                 const char* name, Diagnostics& diags) {
    if (!phase || tdpW <= idleW)
        return std::nullopt;
    if (phase->watts < idleW) {
        diags.warning("/calibration",
                      printfText("the profile's %s power (%.0f W) is below its idle power "
                                 "(%.0f W): the assumed fraction is kept",
                                 name, phase->watts, idleW));
        return std::nullopt;
    }
    return (phase->watts - idleW) / (tdpW - idleW);
}

} // namespace

int measuredPhaseCount(const std::optional<MeasuredPower>& power) {
    if (!power)
        return 0;
    int n = 0;
    for (const PowerPhaseField& f : kPowerPhases)
        n += ((*power).*f.member).has_value() ? 1 : 0;
    return n;
}

void applyMeasuredPower(const MeasuredPower& power, const std::string& profileId,
                        const std::optional<CostInput>& input, double tdpW, CostConfig& costs,
                        Diagnostics& diags) {
    const CostInput in = input.value_or(CostInput{});
    bool used = false;
    if (power.idle && !in.gpuIdleW) {
        if (power.idle->watts < tdpW) {
            costs.gpuIdleW = power.idle->watts;
            dropAssumption(costs, MessageId::IdlePowerAssumed);
            used = true;
        } else {
            diags.warning("/calibration",
                          printfText("the profile's idle power (%.0f W) is not below the GPU's "
                                     "TDP (%.0f W): the assumed idle power and fractions are kept",
                                     power.idle->watts, tdpW));
        }
    }
    const double idleW = costs.gpuIdleW.value_or(0.0);
    const auto take = [&](const std::optional<PhasePower>& phase, const std::optional<double>& set,
                          double& fraction, const char* name) {
        if (set)
            return;
        if (auto f = fractionOf(phase, idleW, tdpW, name, diags)) {
            fraction = *f;
            used = true;
        }
    };
    take(power.computeBound, in.gpuComputeFraction, costs.gpuPower.computeBound, "compute-bound");
    take(power.memoryBound, in.gpuMemoryFraction, costs.gpuPower.memoryBound, "memory-bound");
    take(power.communicating, in.gpuCommFraction, costs.gpuPower.communicating, "communicating");
    if (!used)
        return;
    dropAssumption(costs, MessageId::PhasePowerAssumed);
    costs.assumptions.push_back(message(
        MessageId::PhasePowerMeasured,
        {profileId, wattsText(power.idle), wattsText(power.computeBound),
         wattsText(power.memoryBound), wattsText(power.communicating),
         formatNumber(costs.gpuPower.computeBound), formatNumber(costs.gpuPower.memoryBound),
         formatNumber(costs.gpuPower.communicating)}));
}

} // namespace ts
