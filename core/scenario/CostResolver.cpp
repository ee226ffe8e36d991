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
    auto& notes = c.assumptions;
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
            notes.push_back("PUE assumed " + formatNumber(d->pue) + ", new large facilities" +
                            sourceNote(d->sources, "pue") + "; set costs.pue");
        }
        if (!c.gridGco2PerKwh && !c.carbonCsv) {
            c.gridGco2PerKwh = d->gridGco2PerKwh;
            notes.push_back("grid carbon intensity assumed " + formatNumber(d->gridGco2PerKwh) +
                            " gCO2/kWh, US average 2023" + sourceNote(d->sources, "grid_gco2_kwh") +
                            "; set costs.grid_gco2_kwh");
        }
        if (!c.electricityUsdPerKwh) {
            c.electricityUsdPerKwh = d->electricityUsdPerKwh;
            notes.push_back("electricity assumed $" + formatNumber(d->electricityUsdPerKwh) +
                            "/kWh, US industrial average 2023" +
                            sourceNote(d->sources, "electricity_usd_kwh") +
                            "; set costs.electricity_usd_kwh");
        }
    }
    if (c.ownership == Ownership::Cloud && !c.gpuHourUsd) {
        if (const GpuHourPrice* p = catalog.priceFor(cluster.gpuId)) {
            c.gpuHourUsd = p->usdPerGpuHour;
            notes.push_back("GPU-hour price assumed $" + formatNumber(p->usdPerGpuHour) + " (" +
                            p->offer + ", " + p->asOf + ")" + sourceNote(p->sources, "*") +
                            "; set costs.gpu_hour_usd");
        } else {
            notes.push_back("no sourced GPU-hour price for " + cluster.gpu.name +
                            ": set costs.gpu_hour_usd for the cost");
        }
    }

    // GPU power by phase.
    const double tdp = cluster.gpu.tdpW;
    c.gpuIdleW = in.gpuIdleW ? in.gpuIdleW : cluster.gpu.idleW;
    if (!c.gpuIdleW) {
        c.gpuIdleW = kDefaultGpuIdleFractionOfTdp * tdp;
        notes.push_back("GPU idle power assumed " + watts(*c.gpuIdleW) + " (" +
                        formatNumber(100 * kDefaultGpuIdleFractionOfTdp) +
                        "% of TDP; no sourced figure); set costs.gpu_idle_w");
    }
    if (*c.gpuIdleW > tdp) {
        diags.error("/costs/gpu_idle_w",
                    "idle power " + watts(*c.gpuIdleW) + " exceeds the GPU's TDP of " + watts(tdp));
        c.gpuIdleW = tdp;
    }
    const GpuPowerFractions d = kDefaultGpuPowerFractions;
    c.gpuPower = {in.gpuComputeFraction.value_or(d.computeBound),
                  in.gpuMemoryFraction.value_or(d.memoryBound),
                  in.gpuCommFraction.value_or(d.communicating)};
    if (!in.gpuComputeFraction || !in.gpuMemoryFraction || !in.gpuCommFraction)
        notes.push_back("GPU power by phase assumed idle + " +
                        formatNumber(c.gpuPower.computeBound) + " (compute-bound), " +
                        formatNumber(c.gpuPower.memoryBound) + " (memory-bound), " +
                        formatNumber(c.gpuPower.communicating) +
                        " (communicating) x (TDP - idle); no sourced training power; set "
                        "costs.gpu_compute_fraction, gpu_memory_fraction, gpu_comm_fraction");

    // Hosts.
    const ServerEntry* server = catalog.serverFor(cluster.gpuId, cluster.gpusPerNode);
    if (server)
        c.nodeMaxW = server->maxPowerW;
    c.hostWPerNode = in.hostWPerNode;
    if (!c.hostWPerNode) {
        if (server && server->maxPowerW > server->gpus * tdp) {
            const double hostMax = server->maxPowerW - server->gpus * tdp;
            c.hostWPerNode = kDefaultHostLoadFraction * hostMax;
            notes.push_back("host power assumed " + watts(*c.hostWPerNode) +
                            " per node: " + formatNumber(100 * kDefaultHostLoadFraction) + "% of " +
                            server->name + "'s " + watts(server->maxPowerW) + " maximum less " +
                            std::to_string(server->gpus) + " x " + watts(tdp) + " GPUs" +
                            sourceNote(server->sources, "max_power_w") +
                            "; set costs.host_w_per_node");
        } else {
            notes.push_back("no server power catalogued for " +
                            std::to_string(cluster.gpusPerNode) + " x " + cluster.gpu.name +
                            ": host power not counted; set costs.host_w_per_node");
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
        notes.push_back("network power assumed " + watts(*c.networkW) +
                        ": switch-side optics only (" + formatNumber(perPort) + " W per port" +
                        (ed ? sourceNote(ed->sources, "switch_port_optics_w") : "") + ", " +
                        formatNumber(ports) + " ports, " + std::to_string(tiers) +
                        " tiers); switch and NIC chips not counted; set costs.network_w");
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
