#include "catalog/Catalog.h"

#include "catalog/CatalogReading.h"

#include "common/JsonObjectReader.h"
#include "scenario/ScenarioIO.h"
#include "scenario/SectionJson.h"

#include <cstdio>
#include <cstdlib>
#include <set>

namespace ts::embedded {
struct File {
    const char* name;
    const char* data;
    std::size_t size;
};
extern const File kCatalogFiles[];
extern const std::size_t kCatalogFilesCount;
} // namespace ts::embedded

namespace ts {

namespace catalog_detail {

FieldSources readSources(JsonObjectReader& r) {
    FieldSources sources;
    if (!r.require("sources", "map each numeric field (or \"*\") to a source id"))
        return sources;
    const Json& value = *r.raw("sources");
    const std::string path = r.childPath("sources");
    if (!value.is_object() || value.empty()) {
        r.diagnostics().error(path, "expected a non-empty object of field -> source id");
        return sources;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!it.value().is_string())
            r.diagnostics().error(jsonPointerChild(path, it.key()), "expected a source id string");
        else
            sources[it.key()] = it.value().get<std::string>();
    }
    return sources;
}

std::string readId(JsonObjectReader& r) {
    r.require("id");
    auto id = r.string("id", 100);
    if (id && id->empty()) {
        r.diagnostics().error(r.childPath("id"), "must not be empty");
        return {};
    }
    return id.value_or("");
}

} // namespace catalog_detail

using catalog_detail::readId;
using catalog_detail::readSources;

bool Catalog::addDocument(const std::string& jsonText, const std::string& origin,
                          Diagnostics& diags) {
    const std::size_t errorsBefore = diags.errorCount();
    auto doc = parseJsonText(jsonText, diags);
    if (!doc)
        return false;
    JsonObjectReader top(*doc, "", diags);
    if (!top.valid())
        return false;
    if (top.require("format")) {
        auto format = top.string("format");
        if (format != kCatalogFormat)
            diags.error("/format", std::string("expected \"") + kCatalogFormat + "\"");
    }

    // Parse everything into a staging catalog first: an invalid document adds nothing.
    Catalog staged;
    std::set<std::string> seen;
    auto noteId = [&](const std::string& kind, const std::string& id) {
        if (!id.empty() && !seen.insert(kind + ":" + id).second)
            staged.duplicateIds_.push_back(kind + ":" + id);
    };

    if (const Json* sources = top.raw("sources"); sources && !sources->is_null()) {
        if (!sources->is_object())
            diags.error("/sources", "expected an object of source id -> {title, url}");
        else
            for (auto it = sources->begin(); it != sources->end(); ++it) {
                JsonObjectReader s(it.value(), jsonPointerChild("/sources", it.key()), diags);
                s.require("title");
                s.require("url");
                SourceRef ref{it.key(), s.string("title").value_or(""),
                              s.string("url").value_or("")};
                s.finish();
                staged.sources_[ref.id] = ref;
            }
    }

    auto eachEntry = [&](const char* key, auto&& readEntry) {
        catalog_detail::forEachEntry(top, key, readEntry);
    };

    eachEntry("gpus", [&](JsonObjectReader& r) {
        GpuEntry e;
        e.id = readId(r);
        auto spec = readGpuSpec(r);
        e.sources = readSources(r);
        e.notes = r.string("notes", 10000).value_or("");
        r.finish();
        if (spec && !e.id.empty()) {
            e.spec = *spec;
            e.origin = origin;
            noteId("gpu", e.id);
            staged.gpus_[e.id] = e;
        }
    });

    eachEntry("clusters", [&](JsonObjectReader& r) {
        ClusterPreset e;
        e.id = readId(r);
        bool ok = r.require("name") && r.require("gpu") && r.require("gpus_per_node") &&
                  r.require("scale_up") && r.require("scale_out");
        e.name = r.string("name", 200).value_or("");
        e.gpuId = r.string("gpu", 100).value_or("");
        e.gpusPerNode = r.int32("gpus_per_node", 1, 4096).value_or(0);
        if (const Json* up = r.raw("scale_up")) {
            JsonObjectReader u(*up, r.childPath("scale_up"), diags);
            const ScaleUpInput in = readScaleUp(u);
            ok = u.require("domain_gpus") && u.require("bandwidth_gb_s") &&
                 u.require("latency_us") && ok;
            u.finish();
            e.scaleUp = {in.domainGpus.value_or(0), in.bandwidthGBps.value_or(0),
                         in.latencyUs.value_or(0)};
        }
        if (const Json* out = r.raw("scale_out")) {
            JsonObjectReader o(*out, r.childPath("scale_out"), diags);
            const ScaleOutInput in = readScaleOut(o);
            for (const char* key : {"topology", "nic_gbit_s", "nics_per_node", "oversubscription",
                                    "latency_us", "switch_radix"})
                ok = o.require(key) && ok;
            o.finish();
            e.scaleOut.topology = in.topology.value_or(ScaleOutTopology::RailOptimized);
            e.scaleOut.nicGbitPerS = in.nicGbitPerS.value_or(0);
            e.scaleOut.nicsPerNode = in.nicsPerNode.value_or(0);
            e.scaleOut.oversubscription = in.oversubscription.value_or(1);
            e.scaleOut.latencyUs = in.latencyUs.value_or(0);
            e.scaleOut.switchRadix = in.switchRadix.value_or(64);
            e.scaleOut.tiers = in.tiers.value_or(std::nullopt);
        }
        if (const Json* host = r.raw("host"); host && !host->is_null()) {
            JsonObjectReader h(*host, r.childPath("host"), diags);
            if (h.valid()) {
                const HostInput in = readHost(h);
                h.finish();
                e.host = {in.pcieGBps,     in.memoryGiB,     in.memoryGBps,
                          in.nvmeReadGBps, in.nvmeWriteGBps, in.nvmeGiB};
            } else {
                ok = false;
            }
        }
        e.sources = readSources(r);
        e.notes = r.string("notes", 10000).value_or("");
        r.finish();
        if (ok && !e.id.empty()) {
            e.origin = origin;
            noteId("cluster", e.id);
            staged.clusters_[e.id] = e;
        }
    });

    eachEntry("models", [&](JsonObjectReader& r) {
        ModelPreset e;
        e.id = readId(r);
        bool ok = r.require("name");
        e.name = r.string("name", 200).value_or("");
        for (const char* key : {"layers", "hidden", "ffn_hidden", "heads", "kv_heads", "head_dim",
                                "vocab", "mlp", "tied_embeddings"})
            ok = r.require(key) && ok;
        const ModelInput in = readModelFields(r);
        e.sources = readSources(r);
        e.notes = r.string("notes", 10000).value_or("");
        r.finish();
        if (!ok || e.id.empty() || !in.layers || !in.hidden || !in.ffnHidden || !in.heads ||
            !in.kvHeads || !in.headDim || !in.vocab || !in.mlp || !in.tiedEmbeddings)
            return;
        e.model = ModelConfig{*in.layers,
                              *in.hidden,
                              *in.ffnHidden,
                              *in.heads,
                              *in.kvHeads,
                              *in.headDim,
                              *in.vocab,
                              *in.mlp,
                              *in.tiedEmbeddings,
                              in.mla.value_or(std::nullopt),
                              in.moe.value_or(std::nullopt)};
        e.model.slidingWindow = in.slidingWindow.value_or(std::nullopt);
        e.model.windowLayers = in.windowLayers.value_or(WindowLayers::All);
        e.model.attentionSinks = in.attentionSinks.value_or(false);
        e.model.attentionBias = in.attentionBias.value_or(e.model.mlp == MlpKind::Gelu);
        e.origin = origin;
        noteId("model", e.id);
        staged.models_[e.id] = e;
    });
    staged.readPowerAndPrices(top, origin, diags);
    if (const Json* network = top.raw("network"); network && !network->is_null())
        readNetworkCatalog(*network, "/network", origin, diags, staged.network_);
    top.finish();

    if (diags.errorCount() > errorsBefore)
        return false;
    for (auto& [id, e] : staged.sources_)
        sources_[id] = e;
    for (auto& [id, e] : staged.gpus_)
        gpus_[id] = e;
    for (auto& [id, e] : staged.clusters_)
        clusters_[id] = e;
    for (auto& [id, e] : staged.models_)
        models_[id] = e;
    network_.merge(staged.network_);
    for (auto& [id, e] : staged.servers_)
        servers_[id] = e;
    for (auto& [id, e] : staged.prices_)
        prices_[id] = e;
    if (staged.energyDefaults_)
        energyDefaults_ = staged.energyDefaults_;
    duplicateIds_.insert(duplicateIds_.end(), staged.duplicateIds_.begin(),
                         staged.duplicateIds_.end());
    return true;
}

bool Catalog::addFile(const std::string& path, Diagnostics& diags) {
    auto text = readTextFile(path, diags);
    return text && addDocument(*text, path, diags);
}

const Catalog& Catalog::builtIn() {
    static const Catalog catalog = [] {
        Catalog c;
        for (std::size_t i = 0; i < embedded::kCatalogFilesCount; ++i) {
            const auto& file = embedded::kCatalogFiles[i];
            Diagnostics diags;
            if (!c.addDocument(std::string(file.data, file.size),
                               std::string("built-in:") + file.name, diags)) {
                // A defect of the shipped data, caught by tst_catalog before release.
                for (const auto& d : diags.all())
                    std::fprintf(stderr, "built-in catalog %s: %s\n", file.name,
                                 d.toString().c_str());
                std::abort();
            }
        }
        return c;
    }();
    return catalog;
}

const GpuEntry* Catalog::gpu(const std::string& id) const {
    auto it = gpus_.find(id);
    return it == gpus_.end() ? nullptr : &it->second;
}

const ClusterPreset* Catalog::cluster(const std::string& id) const {
    auto it = clusters_.find(id);
    return it == clusters_.end() ? nullptr : &it->second;
}

const ModelPreset* Catalog::model(const std::string& id) const {
    auto it = models_.find(id);
    return it == models_.end() ? nullptr : &it->second;
}

const SourceRef* Catalog::source(const std::string& id) const {
    auto it = sources_.find(id);
    return it == sources_.end() ? nullptr : &it->second;
}

} // namespace ts
