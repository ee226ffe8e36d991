#include "scenario/CostResolver.h"

#include "common/TextFormat.h"

#include "common/JsonObjectReader.h"
#include "scenario/GridCsv.h"
#include "scenario/ScenarioIO.h"

#include <cmath>
#include <cstdio>

namespace ts {

namespace {

std::string sourceNote(const FieldSources& sources, const std::string& field) {
    auto it = sources.find(field);
    if (it == sources.end())
        it = sources.find("*");
    return it == sources.end() ? std::string() : " [" + it->second + "]";
}

std::string watts(double w) {
    return w >= 10'000 ? printfText("%.1f kW", w / 1000.0) : printfText("%.0f W", w);
}

} // namespace

int fatTreeTiers(double endpoints, int radix) {
    if (radix < 2)
        return 1;
    int tiers = 1;
    double capacity = radix;
    while (endpoints > capacity && tiers < 8) {
        ++tiers;
        capacity *= radix / 2.0;
    }
    return tiers;
}

CostConfig resolveCosts(const std::optional<CostInput>& input, const ClusterConfig& cluster,
                        const Catalog& catalog, Diagnostics& diags) {
    const CostInput in = input.value_or(CostInput{});
    CostConfig c;
    auto note = [&c](MessageId id, std::vector<std::string> args) {
        c.assumptions.push_back(message(id, std::move(args)));
    };
    c.gpuHourUsd = in.gpuHourUsd;
    c.electricityUsdPerKwh = in.electricityUsdPerKwh;
    c.pue = in.pue;
    c.gridGco2PerKwh = in.gridGco2PerKwh;
    c.ownership = in.ownership.value_or(Ownership::Cloud);
    c.amortizationYears = in.amortizationYears;
    c.nodeCapexUsd = in.nodeCapexUsd;
    c.networkCapexUsd = in.networkCapexUsd;
    c.carbonCsv = in.carbonCsv;

    // Site and grid.
    if (const auto& d = catalog.energyDefaults()) {
        if (!c.pue) {
            c.pue = d->pue;
            note(MessageId::PueAssumed, {formatNumber(d->pue), sourceNote(d->sources, "pue")});
        }
        if (!c.gridGco2PerKwh && !c.carbonCsv) {
            c.gridGco2PerKwh = d->gridGco2PerKwh;
            note(MessageId::GridAssumed,
                 {formatNumber(d->gridGco2PerKwh), sourceNote(d->sources, "grid_gco2_kwh")});
        }
        if (!c.electricityUsdPerKwh) {
            c.electricityUsdPerKwh = d->electricityUsdPerKwh;
            note(MessageId::ElectricityAssumed, {formatNumber(d->electricityUsdPerKwh),
                                                 sourceNote(d->sources, "electricity_usd_kwh")});
        }
    }
    if (c.ownership == Ownership::Cloud && !c.gpuHourUsd) {
        if (const GpuHourPrice* p = catalog.priceFor(cluster.gpuId)) {
            c.gpuHourUsd = p->usdPerGpuHour;
            note(MessageId::GpuHourPriceAssumed,
                 {formatNumber(p->usdPerGpuHour), p->offer, p->asOf, sourceNote(p->sources, "*")});
        } else {
            note(MessageId::NoGpuHourPrice, {cluster.gpu.name});
        }
    }

    // GPU power by phase.
    const double tdp = cluster.gpu.tdpW;
    c.gpuIdleW = in.gpuIdleW ? in.gpuIdleW : cluster.gpu.idleW;
    if (!c.gpuIdleW) {
        c.gpuIdleW = kDefaultGpuIdleFractionOfTdp * tdp;
        note(MessageId::IdlePowerAssumed,
             {watts(*c.gpuIdleW), formatNumber(100 * kDefaultGpuIdleFractionOfTdp)});
    }
    if (*c.gpuIdleW > tdp) {
        diags.error("/costs/gpu_idle_w",
                    message(MessageId::IdlePowerAboveTdp, {watts(*c.gpuIdleW), watts(tdp)}));
        c.gpuIdleW = tdp;
    }
    const GpuPowerFractions d = kDefaultGpuPowerFractions;
    c.gpuPower = {in.gpuComputeFraction.value_or(d.computeBound),
                  in.gpuMemoryFraction.value_or(d.memoryBound),
                  in.gpuCommFraction.value_or(d.communicating)};
    if (!in.gpuComputeFraction || !in.gpuMemoryFraction || !in.gpuCommFraction)
        note(MessageId::PhasePowerAssumed,
             {formatNumber(c.gpuPower.computeBound), formatNumber(c.gpuPower.memoryBound),
              formatNumber(c.gpuPower.communicating)});

    // Hosts.
    const ServerEntry* server = catalog.serverFor(cluster.gpuId, cluster.gpusPerNode);
    if (server)
        c.nodeMaxW = server->maxPowerW;
    c.hostWPerNode = in.hostWPerNode;
    if (!c.hostWPerNode) {
        if (server && server->maxPowerW > server->gpus * tdp) {
            const double hostMax = server->maxPowerW - server->gpus * tdp;
            c.hostWPerNode = kDefaultHostLoadFraction * hostMax;
            note(MessageId::HostPowerAssumed,
                 {watts(*c.hostWPerNode), formatNumber(100 * kDefaultHostLoadFraction),
                  server->name, watts(server->maxPowerW), std::to_string(server->gpus), watts(tdp),
                  sourceNote(server->sources, "max_power_w")});
        } else {
            note(MessageId::NoServerPower, {std::to_string(cluster.gpusPerNode), cluster.gpu.name});
        }
    }

    // Scale-out network: switch-side optics per NIC port and tier, until the topology's
    // bill of materials gives switch and NIC power (no source for them yet: catalog.md B3).
    c.networkW = in.networkW;
    const double nodes = double(cluster.numGpus) / cluster.gpusPerNode;
    if (!c.networkW && nodes > 1) {
        const auto& ed = catalog.energyDefaults();
        const double endpoints = nodes * cluster.scaleOut.nicsPerNode;
        const int tiers =
            cluster.scaleOut.tiers.value_or(fatTreeTiers(endpoints, cluster.scaleOut.switchRadix));
        // Each NIC link ends in one switch port; each further tier adds one link up, with a
        // switch port at both ends.
        const double ports = endpoints * (1.0 + 2.0 * (tiers - 1));
        const double perPort = ed ? ed->switchPortOpticsW : 0.0;
        c.networkW = ports * perPort;
        note(MessageId::NetworkPowerAssumed,
             {watts(*c.networkW), formatNumber(perPort),
              ed ? sourceNote(ed->sources, "switch_port_optics_w") : "", formatNumber(ports),
              std::to_string(tiers)});
    }
    if (!c.networkW)
        c.networkW = 0.0;

    // The hourly grid series.
    if (c.carbonCsv) {
        Diagnostics reading;
        if (auto text = readTextFile(*c.carbonCsv, reading)) {
            if (auto hours = parseGridCsv(*text, "/costs/carbon_csv", diags))
                c.gridHours = std::move(*hours);
        } else {
            for (const Diagnostic& e : reading.errors())
                diags.error("/costs/carbon_csv", e.message);
        }
    }
    return c;
}

} // namespace ts
