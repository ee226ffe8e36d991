// The catalog's power and price sections (resources/catalog/power-and-prices.json):
// "servers" (rated node power), "prices" (cloud $/GPU-hour, dated) and "energy_defaults"
// (PUE, grid carbon, electricity price, optics power).

#include "catalog/Catalog.h"
#include "catalog/CatalogReading.h"
#include "scenario/Limits.h"

namespace ts {

using catalog_detail::readId;
using catalog_detail::readSources;

void Catalog::readPowerAndPrices(JsonObjectReader& top, const std::string& origin,
                                 Diagnostics& diags) {
    auto eachEntry = [&](const char* key, auto&& readEntry) {
        catalog_detail::forEachEntry(top, key, readEntry);
    };

    eachEntry("servers", [&](JsonObjectReader& r) {
        ServerEntry e;
        e.id = readId(r);
        bool ok =
            r.require("name") && r.require("gpu") && r.require("gpus") && r.require("max_power_w");
        e.name = r.string("name", 200).value_or("");
        e.gpuId = r.string("gpu", 100).value_or("");
        e.gpus = r.int32("gpus", 1, limits::kMaxGpusPerNode).value_or(0);
        e.maxPowerW = r.number("max_power_w", 0, limits::kMaxPowerW * 1000, true).value_or(0);
        e.sources = readSources(r);
        e.notes = r.string("notes", 10000).value_or("");
        r.finish();
        ok = ok && e.gpus > 0 && e.maxPowerW > 0;
        if (ok && !e.id.empty()) {
            e.origin = origin;
            if (servers_.count(e.id))
                duplicateIds_.push_back("server:" + e.id);
            servers_[e.id] = e;
        }
    });

    eachEntry("prices", [&](JsonObjectReader& r) {
        GpuHourPrice e;
        e.id = readId(r);
        bool ok = r.require("gpu") && r.require("offer") && r.require("as_of") &&
                  r.require("usd_per_gpu_hour");
        e.gpuId = r.string("gpu", 100).value_or("");
        e.offer = r.string("offer", 500).value_or("");
        e.asOf = r.string("as_of", 100).value_or("");
        e.usdPerGpuHour = r.number("usd_per_gpu_hour", 0, limits::kMaxPrice, true).value_or(0);
        e.sources = readSources(r);
        e.notes = r.string("notes", 10000).value_or("");
        r.finish();
        if (ok && e.usdPerGpuHour > 0 && !e.id.empty()) {
            e.origin = origin;
            if (prices_.count(e.id))
                duplicateIds_.push_back("price:" + e.id);
            prices_[e.id] = e;
        }
    });

    if (const Json* d = top.raw("energy_defaults"); d && !d->is_null()) {
        JsonObjectReader r(*d, "/energy_defaults", diags);
        if (!r.valid())
            return;
        EnergyDefaults e;
        bool ok = true;
        for (const char* key :
             {"pue", "grid_gco2_kwh", "electricity_usd_kwh", "switch_port_optics_w"})
            ok = r.require(key) && ok;
        e.pue = r.number("pue", 1, 10).value_or(0);
        e.gridGco2PerKwh = r.number("grid_gco2_kwh", 0, 1e5).value_or(0);
        e.electricityUsdPerKwh = r.number("electricity_usd_kwh", 0, limits::kMaxPrice).value_or(0);
        e.switchPortOpticsW = r.number("switch_port_optics_w", 0, limits::kMaxPowerW).value_or(0);
        e.sources = readSources(r);
        e.notes = r.string("notes", 10000).value_or("");
        r.finish();
        if (ok)
            energyDefaults_ = e;
    }
}

const ServerEntry* Catalog::server(const std::string& id) const {
    auto it = servers_.find(id);
    return it == servers_.end() ? nullptr : &it->second;
}

const ServerEntry* Catalog::serverFor(const std::string& gpuId, int gpusPerNode) const {
    for (const auto& [id, e] : servers_)
        if (e.gpuId == gpuId && e.gpus == gpusPerNode)
            return &e;
    return nullptr;
}

const GpuHourPrice* Catalog::priceFor(const std::string& gpuId) const {
    for (const auto& [id, e] : prices_)
        if (e.gpuId == gpuId)
            return &e;
    return nullptr;
}

} // namespace ts
