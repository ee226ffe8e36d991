#include "energy/EnergyEstimate.h"

#include "common/TextFormat.h"

#include "energy/GridWindow.h"
#include "energy/PowerModel.h"
#include "energy/TrainingCost.h"

#include <algorithm>
#include <cstdio>

namespace ts {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;

std::string kilowatts(double w) {
    return printfText("%.2f kW", w / 1000.0);
}

ClusterPower clusterPower(const ResolvedScenario& sc, const Estimate& e) {
    const CostConfig& c = sc.costs;
    ClusterPower p;
    p.gpuTdpW = sc.cluster.gpu.tdpW;
    // A scenario built without the resolver (tests, search) still gets the named defaults.
    const double idle = c.gpuIdleW.value_or(
        sc.cluster.gpu.idleW.value_or(kDefaultGpuIdleFractionOfTdp * p.gpuTdpW));
    p.gpuIdleW = std::min(idle, p.gpuTdpW);
    p.fractions = c.gpuPower;
    p.numGpus = sc.cluster.numGpus;
    p.gpusPerNode = std::max(1, sc.cluster.gpusPerNode);
    p.pipelineStages = std::max<int>(1, static_cast<int>(e.stageTimes.size()));
    p.hostWPerNode = c.hostWPerNode.value_or(0.0);
    p.networkW = c.networkW.value_or(0.0);
    p.pue = c.pue.value_or(1.0);
    return p;
}

} // namespace

void addEnergyAndCost(const ResolvedScenario& sc, Estimate& e) {
    if (e.stepSeconds <= 0 || sc.cluster.numGpus <= 0)
        return;
    const CostConfig& c = sc.costs;
    auto warn = [&e](MessageId id, std::vector<std::string> args = {}) {
        e.warnings.push_back(message(id, std::move(args)));
    };
    for (const Message& note : c.assumptions)
        e.warnings.push_back(note);
    if (!c.pue)
        warn(MessageId::NoPue);
    if (!c.gpuIdleW && !sc.cluster.gpu.idleW)
        warn(MessageId::IdlePowerDefault);
    if (!c.hostWPerNode && c.assumptions.empty()) // (the resolver says why, in its notes)
        warn(MessageId::NoHostPower);

    const ClusterPower power = clusterPower(sc, e);
    EnergyReport r;
    r.stagePhases = stagePhaseSeconds(e);
    r.stepJoules = stepEnergy(power, r.stagePhases, e.stepSeconds);
    r.gpuWatts = power.gpuWatts();
    r.hostWPerNode = power.hostWPerNode;
    r.networkW = power.networkW;
    r.pue = power.pue;
    r.peakNodeW = power.peakNodeW();
    r.nodeMaxW = c.nodeMaxW.value_or(0.0);
    r.gpuHoursPerStep = double(sc.cluster.numGpus) * e.stepSeconds / 3600.0;
    r.ownership = std::string(enumName(c.ownership));
    const PowerTrace trace = stepPowerTrace(power, r.stagePhases, e);
    r.powerTrace = trace.samples;
    r.traceEndS = trace.endS;
    r.traceCoversStep = trace.coversStep;
    if (r.nodeMaxW > 0 && r.peakNodeW > r.nodeMaxW)
        warn(MessageId::NodePeakAboveRating, {kilowatts(r.peakNodeW), kilowatts(r.nodeMaxW)});

    const double stepJ = r.stepJoules.total();
    e.stepJoules = stepJ;
    e.avgPowerW = stepJ / e.stepSeconds;
    const double facilityKw = *e.avgPowerW / 1000.0;
    r.gridGco2PerKwh = c.gridGco2PerKwh.value_or(0.0);
    if (!c.gridHours.empty()) {
        double sum = 0;
        for (const GridHour& h : c.gridHours)
            sum += h.gco2PerKwh;
        r.stepCo2Kg = stepJ / kJoulesPerKwh * sum / double(c.gridHours.size()) / 1000.0;
    } else if (c.gridGco2PerKwh) {
        r.stepCo2Kg = stepJ / kJoulesPerKwh * *c.gridGco2PerKwh / 1000.0;
    }
    r.electricityUsdPerKwh = c.electricityUsdPerKwh.value_or(0.0);

    HourlyCostInput in;
    in.ownership = c.ownership;
    in.numGpus = double(sc.cluster.numGpus);
    in.nodes = power.nodes();
    in.facilityKw = facilityKw;
    in.gpuHourUsd = c.gpuHourUsd;
    in.electricityUsdPerKwh = c.electricityUsdPerKwh;
    in.amortizationYears = c.amortizationYears;
    in.nodeCapexUsd = c.nodeCapexUsd;
    in.networkCapexUsd = c.networkCapexUsd;
    const HourlyCost hourly = hourlyCost(in);
    if (hourly.usdPerHour) {
        r.usdPerHour = *hourly.usdPerHour;
        e.usdPerMillionTokens = usdPerMillionTokens(*hourly.usdPerHour, e.tokensPerS);
    } else {
        warn(MessageId::NoCost, {r.ownership, hourly.missing});
    }
    if (c.ownership == Ownership::Owned && !c.networkCapexUsd)
        warn(MessageId::OwnedNetworkCapital);

    if (e.trainSteps && *e.trainSteps > 0) {
        const double seconds = *e.trainSteps * e.stepSeconds;
        const double hours = seconds / 3600.0;
        e.trainKwh = stepJ * *e.trainSteps / kJoulesPerKwh;
        r.trainGpuHours = r.gpuHoursPerStep * *e.trainSteps;
        if (c.electricityUsdPerKwh)
            r.trainElectricityUsd = *e.trainKwh * *c.electricityUsdPerKwh;
        if (hourly.usdPerHour)
            e.trainUsd = *hourly.usdPerHour * hours;
        if (!c.gridHours.empty()) {
            r.window = bestGridWindow(c.gridHours, hours, facilityKw);
            // The hourly series replaces the constant: CO2 of a start at its first hour.
            e.trainCo2Kg = r.window->firstCo2Kg;
            if (r.window->wrapped)
                warn(MessageId::CarbonSeriesRepeated,
                     {std::to_string(r.window->runHours), std::to_string(c.gridHours.size())});
        } else if (c.gridGco2PerKwh) {
            e.trainCo2Kg = *e.trainKwh * *c.gridGco2PerKwh / 1000.0;
        }
    } else if (!c.gridHours.empty()) {
        warn(MessageId::CarbonNeedsTokens);
    }
    e.energyReport = std::move(r);
}

} // namespace ts
