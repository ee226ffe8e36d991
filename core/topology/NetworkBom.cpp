#include "topology/NetworkBom.h"

#include <cmath>

namespace ts {

namespace {

// The catalog item for a port rate (and radix, for switches): an exact match first.
const NetworkItem* pick(const std::map<std::string, NetworkItem>& items, double portGbit,
                        int radix = 0) {
    const NetworkItem* loose = nullptr;
    for (const auto& [id, item] : items) {
        if (radix > 0 && item.radix != radix)
            continue;
        if (item.portGbitPerS && std::fabs(*item.portGbitPerS - portGbit) < 1e-6)
            return &item;
        if (!item.portGbitPerS && !loose)
            loose = &item;
    }
    return loose;
}

std::string rateName(double gbit) {
    return std::to_string(static_cast<long long>(std::llround(gbit))) + "G";
}

} // namespace

NetworkBom networkBom(const Topology& t, const NetworkCatalog& catalog) {
    NetworkBom bom;
    // Port rate of every scale-out link, and per switch the rate of its ports.
    std::map<long long, std::int64_t> linksByRate;                 // Gbit/s -> links
    std::map<std::pair<int, long long>, std::int64_t> switchKinds; // (radix, Gbit/s) -> count
    std::vector<long long> switchRate(t.nodes.size(), 0);
    for (const TopoLink& l : t.links) {
        const long long gbit = std::llround(l.gbPerS * 8.0);
        if (l.kind == LinkKind::ScaleOut) {
            ++linksByRate[gbit];
            for (int v : {l.a, l.b})
                switchRate[v] = std::max(switchRate[v], gbit);
        } else if (l.kind == LinkKind::Wan && (t.nodes[l.a].kind == NodeKind::Switch ||
                                               t.nodes[l.b].kind == NodeKind::Switch)) {
            ++bom.wanLinks;
        }
    }
    std::map<long long, std::int64_t> nicsByRate;
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const TopoNode& n = t.nodes[v];
        switch (n.kind) {
        case NodeKind::Switch:
            ++bom.switches;
            ++bom.switchesByRadix[n.radix];
            ++switchKinds[{n.radix, switchRate[v]}];
            break;
        case NodeKind::Nic:
            ++bom.nics;
            ++nicsByRate[switchRate[v]];
            break;
        case NodeKind::Router:
            ++bom.wanRouters;
            break;
        case NodeKind::ScaleUpSwitch:
            ++bom.scaleUpFabrics;
            break;
        case NodeKind::Gpu:
            break;
        }
    }
    bool priceKnown = true, powerKnown = true;
    auto addLine = [&](const char* item, const NetworkItem* match, std::string description,
                       std::int64_t count) {
        if (count <= 0)
            return;
        BomLine line;
        line.item = item;
        line.count = count;
        line.description = std::move(description);
        if (match) {
            line.catalogId = match->id;
            line.description += " (" + match->name + ")";
            line.unitPriceUsd = match->priceUsd;
            line.unitPowerW = match->powerW;
        }
        if (line.unitPriceUsd) {
            line.priceUsd = *line.unitPriceUsd * count;
            bom.knownCapexUsd += *line.priceUsd;
        } else {
            priceKnown = false;
            bom.notes.push_back(
                "price of " + line.description + ": unknown " +
                (match ? "(no public source in the catalog)" : "(no catalog item fits)"));
        }
        if (line.unitPowerW) {
            line.powerW = *line.unitPowerW * count;
            bom.knownPowerW += *line.powerW;
        } else {
            powerKnown = false;
            bom.notes.push_back(
                "power of " + line.description + ": unknown " +
                (match ? "(no public source in the catalog)" : "(no catalog item fits)"));
        }
        bom.lines.push_back(std::move(line));
    };
    for (const auto& [kind, count] : switchKinds)
        addLine("switch", pick(catalog.switches, double(kind.second), kind.first),
                std::to_string(kind.first) + "-port " + rateName(double(kind.second)) + " switch",
                count);
    for (const auto& [gbit, count] : linksByRate) {
        bom.transceivers += 2 * count;
        bom.cables += count;
        addLine("transceiver", pick(catalog.transceivers, double(gbit)),
                rateName(double(gbit)) + " optical transceiver", 2 * count);
    }
    for (const auto& [gbit, count] : nicsByRate)
        addLine("nic", pick(catalog.nics, double(gbit)), rateName(double(gbit)) + " NIC", count);
    if (bom.cables > 0) {
        const auto it = catalog.cables.find("fiber-mpo");
        addLine("cable", it == catalog.cables.end() ? nullptr : &it->second,
                "fibre cable between two transceivers", bom.cables);
    }
    if (bom.wanLinks > 0)
        addLine("wan-port", nullptr, "datacenter interconnect port (long-haul optics)",
                bom.wanLinks);
    if (priceKnown)
        bom.capexUsd = bom.knownCapexUsd;
    if (powerKnown)
        bom.powerW = bom.knownPowerW;
    return bom;
}

nlohmann::ordered_json bomToJson(const NetworkBom& bom) {
    using Json = nlohmann::ordered_json;
    const auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    Json j = Json::object();
    j["switches"] = bom.switches;
    Json byRadix = Json::object();
    for (const auto& [radix, count] : bom.switchesByRadix)
        byRadix[std::to_string(radix)] = count;
    j["switches_by_radix"] = byRadix;
    j["transceivers"] = bom.transceivers;
    j["cables"] = bom.cables;
    j["nics"] = bom.nics;
    j["wan_links"] = bom.wanLinks;
    j["wan_routers"] = bom.wanRouters;
    j["scale_up_fabrics"] = bom.scaleUpFabrics;
    j["capex_usd"] = opt(bom.capexUsd);
    j["power_w"] = opt(bom.powerW);
    j["known_capex_usd"] = bom.knownCapexUsd;
    j["known_power_w"] = bom.knownPowerW;
    Json lines = Json::array();
    for (const BomLine& l : bom.lines) {
        Json line = Json::object();
        line["item"] = l.item;
        line["catalog_id"] = l.catalogId.empty() ? Json(nullptr) : Json(l.catalogId);
        line["description"] = l.description;
        line["count"] = l.count;
        line["unit_price_usd"] = opt(l.unitPriceUsd);
        line["unit_power_w"] = opt(l.unitPowerW);
        line["price_usd"] = opt(l.priceUsd);
        line["power_w"] = opt(l.powerW);
        lines.push_back(std::move(line));
    }
    j["lines"] = std::move(lines);
    j["notes"] = bom.notes;
    return j;
}

} // namespace ts
