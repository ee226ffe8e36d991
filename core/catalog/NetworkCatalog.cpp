#include "catalog/NetworkCatalog.h"

#include "catalog/CatalogReading.h"

#include "common/JsonObjectReader.h"
#include "scenario/Limits.h"

namespace ts {

void NetworkCatalog::merge(const NetworkCatalog& other) {
    for (auto [mine, theirs] :
         {std::pair{&switches, &other.switches}, std::pair{&transceivers, &other.transceivers},
          std::pair{&nics, &other.nics}, std::pair{&cables, &other.cables}})
        for (const auto& [id, item] : *theirs)
            (*mine)[id] = item;
}

bool readNetworkCatalog(const Json& value, const std::string& path, const std::string& origin,
                        Diagnostics& diags, NetworkCatalog& out) {
    const std::size_t before = diags.errorCount();
    JsonObjectReader top(value, path, diags);
    if (!top.valid())
        return false;
    const auto readList = [&](const char* key, std::map<std::string, NetworkItem>& items,
                              bool isSwitch) {
        catalog_detail::forEachEntry(top, key, [&](JsonObjectReader& r) {
            NetworkItem item;
            r.require("id");
            r.require("name");
            item.id = r.string("id", 100).value_or("");
            item.name = r.string("name", 200).value_or("");
            if (isSwitch) {
                r.require("radix", "ports per switch at port_gbit_s");
                item.radix = r.int32("radix", 1, limits::kMaxSwitchRadix);
            }
            item.portGbitPerS = r.number("port_gbit_s", 0, limits::kMaxBandwidthGBps * 8, true);
            // Required but nullable: an unknown figure is written as null, on purpose.
            for (const char* key : {"power_w", "price_usd"})
                if (!r.has(key))
                    diags.error(r.childPath(key), "required key is missing: the unit's figure, "
                                                  "or null when no public source gives it");
            item.powerW = r.number("power_w", 0, limits::kMaxPowerW);
            item.priceUsd = r.number("price_usd", 0, limits::kMaxPrice);
            if (r.require("sources", "map each number to a source id")) {
                const Json& s = *r.raw("sources");
                if (!s.is_object())
                    diags.error(r.childPath("sources"), "expected an object of field -> source id");
                else
                    for (auto it = s.begin(); it != s.end(); ++it) {
                        if (it.value().is_string())
                            item.sources[it.key()] = it.value().get<std::string>();
                        else
                            diags.error(jsonPointerChild(r.childPath("sources"), it.key()),
                                        "expected a source id string");
                    }
            }
            item.notes = r.string("notes", 10000).value_or("");
            r.finish();
            // Every known number needs its source.
            const std::pair<const char*, bool> numbers[] = {
                {"radix", item.radix.has_value()},
                {"port_gbit_s", item.portGbitPerS.has_value()},
                {"power_w", item.powerW.has_value()},
                {"price_usd", item.priceUsd.has_value()}};
            for (auto [field, known] : numbers)
                if (known && !item.sources.count(field) && !item.sources.count("*"))
                    diags.error(r.childPath("sources"),
                                std::string("\"") + field + "\" has no source id");
            if (item.id.empty())
                return;
            item.origin = origin;
            items[item.id] = std::move(item);
        });
    };
    readList("switches", out.switches, true);
    readList("transceivers", out.transceivers, false);
    readList("nics", out.nics, false);
    readList("cables", out.cables, false);
    top.finish();
    return diags.errorCount() == before;
}

} // namespace ts
