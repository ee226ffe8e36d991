#pragma once
// The network's bill of materials: switches by radix, transceivers, cables and NICs, with
// capital cost and power from the catalog's unit prices and watts. Counting follows Wang et
// al. (Rail-only, arXiv 2307.12169): every NIC-to-switch and switch-to-switch link is optical
// with a transceiver at each end (2 per link) and one cable. Scale-up fabrics (NVSwitch) are
// part of the servers and not counted. A unit figure the catalog does not know makes the
// total unknown (null, with a note saying which), never zero.

#include "catalog/NetworkCatalog.h"
#include "topology/Topology.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

struct BomLine {
    std::string item;      // "switch", "transceiver", "nic", "cable", "wan-port"
    std::string catalogId; // "" when the catalog has nothing that fits
    std::string description;
    std::int64_t count = 0;
    std::optional<double> unitPriceUsd, unitPowerW;
    std::optional<double> priceUsd, powerW; // count x unit, when the unit figure is known
};

struct NetworkBom {
    std::int64_t switches = 0;
    std::map<int, std::int64_t> switchesByRadix;
    std::int64_t transceivers = 0;
    std::int64_t cables = 0;
    std::int64_t nics = 0;
    std::int64_t wanLinks = 0; // datacenter interconnect ports (optics not counted)
    std::int64_t wanRouters = 0;
    std::int64_t scaleUpFabrics = 0; // logical NVSwitch fabrics, inside the servers
    std::vector<BomLine> lines;
    std::optional<double> capexUsd; // nullopt: some unit price is unknown
    std::optional<double> powerW;   // nullopt: some unit power is unknown
    double knownCapexUsd = 0;       // the sum of the known lines only
    double knownPowerW = 0;
    std::vector<std::string> notes; // what is unknown, and why
};

NetworkBom networkBom(const Topology& topology, const NetworkCatalog& catalog);
nlohmann::ordered_json bomToJson(const NetworkBom& bom);

} // namespace ts
