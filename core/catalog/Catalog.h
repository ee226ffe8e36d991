#pragma once
// The catalog of GPUs, cluster presets and model presets. The built-in entries come from
// resources/catalog/*.json, compiled into the binary; a user catalog file can add entries
// or override them by id. Every number carries the id of its public source, listed in the
// file's "sources" table (shared/reference/catalog.md).

#include "catalog/NetworkCatalog.h"
#include "common/Diagnostics.h"
#include "common/JsonObjectReader.h"
#include "scenario/ClusterConfig.h"
#include "scenario/ModelConfig.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts {

inline constexpr const char* kCatalogFormat = "trainscape.catalog/1";

struct SourceRef {
    std::string id;
    std::string title;
    std::string url;
};

// Field name (as in JSON) -> source id. The key "*" gives the source of every field not
// named otherwise.
using FieldSources = std::map<std::string, std::string>;

struct GpuEntry {
    std::string id;
    GpuSpec spec;
    FieldSources sources;
    std::string notes;
    std::string origin; // the file it came from
};

struct ClusterPreset {
    std::string id;
    std::string name;
    std::string gpuId;
    int gpusPerNode = 8;
    ScaleUpConfig scaleUp;
    ScaleOutConfig scaleOut;
    // Optional "host": per-node figures that bound offload; a figure left out is unknown.
    HostConfig host;
    FieldSources sources;
    std::string notes;
    std::string origin;
};

struct ModelPreset {
    std::string id;
    std::string name;
    ModelConfig model;
    FieldSources sources;
    std::string notes;
    std::string origin;
};

// A server (node) model: its rated maximum power, from which host power (CPUs, memory,
// NVSwitch, NICs, fans) is the part not drawn by its GPUs.
struct ServerEntry {
    std::string id;
    std::string name;
    std::string gpuId;
    int gpus = 8;
    double maxPowerW = 0;
    FieldSources sources;
    std::string notes;
    std::string origin;
};

// A dated, sourced cloud price per GPU-hour: the default of costs.gpu_hour_usd for its GPU.
struct GpuHourPrice {
    std::string id;
    std::string gpuId;
    std::string offer; // what was priced, e.g. "AWS p5.48xlarge Capacity Block"
    std::string asOf;
    double usdPerGpuHour = 0;
    FieldSources sources;
    std::string notes;
    std::string origin;
};

// Facility and grid figures that default the scenario's costs, and the optics power that
// stands for the network until a bill of materials gives it.
struct EnergyDefaults {
    double pue = 0;
    double gridGco2PerKwh = 0;
    double electricityUsdPerKwh = 0;
    double switchPortOpticsW = 0; // one switch port's share of its transceiver
    FieldSources sources;
    std::string notes;
};

class Catalog {
public:
    // The compiled-in catalog. Parsed once; a failure there is a build defect and aborts
    // with a message (tests keep it from shipping).
    static const Catalog& builtIn();

    // Adds or overrides entries from a catalog JSON document. Returns false and fills
    // `diagnostics` (with JSON paths) when the document is invalid; then nothing is added.
    bool addDocument(const std::string& jsonText, const std::string& origin,
                     Diagnostics& diagnostics);
    bool addFile(const std::string& path, Diagnostics& diagnostics);

    const GpuEntry* gpu(const std::string& id) const;
    const ClusterPreset* cluster(const std::string& id) const;
    const ModelPreset* model(const std::string& id) const;
    const SourceRef* source(const std::string& id) const;
    const ServerEntry* server(const std::string& id) const;
    // The server built around `gpusPerNode` GPUs of `gpuId`, if one is catalogued.
    const ServerEntry* serverFor(const std::string& gpuId, int gpusPerNode) const;
    const GpuHourPrice* priceFor(const std::string& gpuId) const;
    const std::optional<EnergyDefaults>& energyDefaults() const { return energyDefaults_; }

    const std::map<std::string, GpuEntry>& gpus() const { return gpus_; }
    const std::map<std::string, ClusterPreset>& clusters() const { return clusters_; }
    const std::map<std::string, ModelPreset>& models() const { return models_; }
    const std::map<std::string, SourceRef>& sources() const { return sources_; }
    // Switches, transceivers, NICs and cables for the network bill of materials.
    const NetworkCatalog& network() const { return network_; }
    const std::map<std::string, ServerEntry>& servers() const { return servers_; }
    const std::map<std::string, GpuHourPrice>& prices() const { return prices_; }

    // Ids that the loader saw twice within one document (an integrity defect).
    const std::vector<std::string>& duplicateIds() const { return duplicateIds_; }

private:
    // The "servers", "prices" and "energy_defaults" sections (PowerPriceCatalog.cpp).
    void readPowerAndPrices(JsonObjectReader& top, const std::string& origin,
                            Diagnostics& diagnostics);

    std::map<std::string, GpuEntry> gpus_;
    std::map<std::string, ClusterPreset> clusters_;
    std::map<std::string, ModelPreset> models_;
    std::map<std::string, SourceRef> sources_;
    NetworkCatalog network_;
    std::map<std::string, ServerEntry> servers_;
    std::map<std::string, GpuHourPrice> prices_;
    std::optional<EnergyDefaults> energyDefaults_;
    std::vector<std::string> duplicateIds_;
};

} // namespace ts
