#pragma once
// The catalog's "network" section: switches, transceivers, NICs and cables with their ports,
// power and price, for the network bill of materials (core/topology/NetworkBom.h). A figure
// with no public source is null (unknown), never zero; each known figure names its source.

#include "common/Diagnostics.h"

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ts {

struct NetworkItem {
    std::string id;
    std::string name;
    std::optional<int> radix;                   // switches: ports at port_gbit_s
    std::optional<double> portGbitPerS;         // per port, per direction
    std::optional<double> powerW;               // per unit; nullopt = unknown
    std::optional<double> priceUsd;             // per unit; nullopt = unknown
    std::map<std::string, std::string> sources; // field -> source id
    std::string notes;
    std::string origin;
};

struct NetworkCatalog {
    std::map<std::string, NetworkItem> switches;
    std::map<std::string, NetworkItem> transceivers;
    std::map<std::string, NetworkItem> nics;
    std::map<std::string, NetworkItem> cables;

    // Adds or overrides every item of `other`, by id.
    void merge(const NetworkCatalog& other);
};

// Reads the value of the "network" key; errors name JSON paths below `path`.
bool readNetworkCatalog(const nlohmann::ordered_json& value, const std::string& path,
                        const std::string& origin, Diagnostics& diags, NetworkCatalog& out);

} // namespace ts
