// catalog list gpus|clusters|models|servers|prices|network, catalog show ID

#include "CliCommands.h"

#include "common/JsonObjectReader.h"
#include "scenario/SectionJson.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ts::cli {

namespace {

Json sourcesToJson(const Catalog& catalog, const FieldSources& sources) {
    Json out = Json::object();
    for (const auto& [field, id] : sources) {
        Json entry = {{"id", id}};
        if (const SourceRef* ref = catalog.source(id)) {
            entry["title"] = ref->title;
            entry["url"] = ref->url;
        }
        out[field] = entry;
    }
    return out;
}

Json gpuToJson(const GpuEntry& e) {
    Json j = {{"id", e.id}};
    writeGpuSpec(e.spec, j);
    return j;
}

Json clusterToJson(const ClusterPreset& e) {
    ScaleUpInput up{e.scaleUp.domainGpus, e.scaleUp.bandwidthGBps, e.scaleUp.latencyUs};
    ScaleOutInput out{e.scaleOut.topology,
                      e.scaleOut.nicGbitPerS,
                      e.scaleOut.nicsPerNode,
                      e.scaleOut.oversubscription,
                      e.scaleOut.latencyUs,
                      e.scaleOut.switchRadix,
                      std::optional<std::optional<int>>{e.scaleOut.tiers},
                      std::nullopt,
                      std::nullopt,
                      std::nullopt,
                      std::nullopt};
    return {{"id", e.id},
            {"name", e.name},
            {"gpu", e.gpuId},
            {"gpus_per_node", e.gpusPerNode},
            {"scale_up", scaleUpToJson(up)},
            {"scale_out", scaleOutToJson(out)}};
}

Json modelToJson(const ModelPreset& e) {
    Json j = {{"id", e.id}, {"name", e.name}};
    writeModelFields(toModelInput(e.model), j);
    return j;
}

// Columns as wide as their widest cell: the first `textColumns` left-aligned, the numbers
// after them right-aligned under their headings.
class TextTable {
public:
    TextTable(std::vector<std::string> headers, std::size_t textColumns)
        : textColumns_(textColumns) {
        rows_.push_back(std::move(headers));
    }
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    std::string text() const {
        std::vector<std::size_t> width(rows_.front().size(), 0);
        for (const auto& row : rows_)
            for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
                width[c] = std::max(width[c], displayWidth(row[c]));
        std::string out;
        for (const auto& row : rows_) {
            std::string line;
            for (std::size_t c = 0; c < width.size(); ++c) {
                const std::string cell = c < row.size() ? row[c] : std::string();
                const std::string pad(width[c] - displayWidth(cell), ' ');
                if (c > 0)
                    line += "  ";
                line += c < textColumns_ ? cell + pad : pad + cell;
            }
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            out += line + "\n";
        }
        return out;
    }

private:
    // Code points, not bytes: catalog names may hold "×" or "µ".
    static std::size_t displayWidth(const std::string& s) {
        std::size_t n = 0;
        for (unsigned char ch : s)
            n += (ch & 0xC0) != 0x80;
        return n;
    }
    std::size_t textColumns_;
    std::vector<std::vector<std::string>> rows_;
};

int list(const Catalog& catalog, const std::string& kind, bool json) {
    Json out = Json::array();
    if (kind == "gpus") {
        TextTable table({"ID", "NAME", "MEM GiB", "BF16 TFLOPS", "FP8 TFLOPS", "HBM GB/s"}, 2);
        for (const auto& [id, e] : catalog.gpus()) {
            if (json)
                out.push_back(gpuToJson(e));
            else
                table.add({id, e.spec.name, formatNumber(e.spec.memoryGiB),
                           formatNumber(e.spec.bf16Tflops), formatNumber(e.spec.fp8Tflops),
                           formatNumber(e.spec.hbmGBps)});
        }
        if (!json)
            std::printf("%s", table.text().c_str());
    } else if (kind == "clusters") {
        if (!json)
            std::printf("%-14s %-34s %-16s %9s %11s %14s\n", "ID", "NAME", "GPU", "GPUS/NODE",
                        "NVLINK DOM", "NICS x Gbit/s");
        for (const auto& [id, e] : catalog.clusters()) {
            if (json)
                out.push_back(clusterToJson(e));
            else
                std::printf("%-14s %-34s %-16s %9d %11d %8d x %-5s\n", id.c_str(), e.name.c_str(),
                            e.gpuId.c_str(), e.gpusPerNode, e.scaleUp.domainGpus,
                            e.scaleOut.nicsPerNode, formatNumber(e.scaleOut.nicGbitPerS).c_str());
        }
    } else if (kind == "models") {
        if (!json)
            std::printf("%-16s %-26s %6s %7s %11s %9s %s\n", "ID", "NAME", "LAYERS", "HIDDEN",
                        "HEADS/KV", "VOCAB", "KIND");
        for (const auto& [id, e] : catalog.models()) {
            if (json) {
                out.push_back(modelToJson(e));
                continue;
            }
            const auto& m = e.model;
            std::string kindText = std::string(enumName(m.mlp));
            if (m.moe)
                kindText += ", MoE " + std::to_string(m.moe->experts) + "x top-" +
                            std::to_string(m.moe->topK);
            if (m.mla)
                kindText += ", MLA";
            const std::string heads = std::to_string(m.heads) + "/" + std::to_string(m.kvHeads);
            std::printf("%-16s %-26s %6d %7lld %11s %9lld %s\n", id.c_str(), e.name.c_str(),
                        m.layers, static_cast<long long>(m.hidden), heads.c_str(),
                        static_cast<long long>(m.vocab), kindText.c_str());
        }
    } else if (kind == "servers") {
        if (!json)
            std::printf("%-14s %-40s %-16s %5s %12s\n", "ID", "NAME", "GPU", "GPUS", "MAX POWER W");
        for (const auto& [id, e] : catalog.servers()) {
            if (json)
                out.push_back({{"id", id},
                               {"name", e.name},
                               {"gpu", e.gpuId},
                               {"gpus", e.gpus},
                               {"max_power_w", e.maxPowerW}});
            else
                std::printf("%-14s %-40s %-16s %5d %12s\n", id.c_str(), e.name.c_str(),
                            e.gpuId.c_str(), e.gpus, formatNumber(e.maxPowerW).c_str());
        }
    } else if (kind == "prices") {
        if (!json)
            std::printf("%-22s %-16s %10s  %-14s %s\n", "ID", "GPU", "$/GPU-HOUR", "AS OF",
                        "OFFER");
        for (const auto& [id, e] : catalog.prices()) {
            if (json)
                out.push_back({{"id", id},
                               {"gpu", e.gpuId},
                               {"usd_per_gpu_hour", e.usdPerGpuHour},
                               {"as_of", e.asOf},
                               {"offer", e.offer}});
            else
                std::printf("%-22s %-16s %10s  %-14s %s\n", id.c_str(), e.gpuId.c_str(),
                            formatNumber(e.usdPerGpuHour).c_str(), e.asOf.c_str(), e.offer.c_str());
        }
    } else if (kind == "network") {
        // Unknown figures (no public source) are null in JSON and "unknown" in text.
        auto figure = [](const std::optional<double>& v) {
            return v ? formatNumber(*v) : std::string("unknown");
        };
        if (!json)
            std::printf("%-12s %-22s %-44s %7s %9s %9s\n", "KIND", "ID", "NAME", "GBIT/S",
                        "POWER W", "PRICE $");
        const NetworkCatalog& n = catalog.network();
        for (const auto& [kindName, items] :
             {std::pair<const char*, const std::map<std::string, NetworkItem>*>{"switch",
                                                                                &n.switches},
              {"transceiver", &n.transceivers},
              {"nic", &n.nics},
              {"cable", &n.cables}})
            for (const auto& [id, e] : *items) {
                if (json) {
                    Json item = {{"kind", kindName}, {"id", id}, {"name", e.name}};
                    item["port_gbit_s"] = e.portGbitPerS ? Json(*e.portGbitPerS) : Json(nullptr);
                    item["power_w"] = e.powerW ? Json(*e.powerW) : Json(nullptr);
                    item["price_usd"] = e.priceUsd ? Json(*e.priceUsd) : Json(nullptr);
                    if (e.radix)
                        item["radix"] = *e.radix;
                    out.push_back(item);
                } else {
                    std::printf("%-12s %-22s %-44s %7s %9s %9s\n", kindName, id.c_str(),
                                e.name.c_str(), figure(e.portGbitPerS).c_str(),
                                figure(e.powerW).c_str(), figure(e.priceUsd).c_str());
                }
            }
    } else {
        std::fprintf(stderr,
                     "trainscape-cli catalog list: unknown kind \"%s\": expected gpus, "
                     "clusters, models, servers, prices or network\n",
                     kind.c_str());
        return kExitBadInput;
    }
    if (json)
        std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
}

int show(const Catalog& catalog, const std::string& id, bool json) {
    Json entry;
    std::string kind, origin, notes;
    const FieldSources* sources = nullptr;
    if (const GpuEntry* g = catalog.gpu(id)) {
        entry = gpuToJson(*g), kind = "gpu", sources = &g->sources, origin = g->origin,
        notes = g->notes;
    } else if (const ClusterPreset* c = catalog.cluster(id)) {
        entry = clusterToJson(*c), kind = "cluster", sources = &c->sources, origin = c->origin,
        notes = c->notes;
    } else if (const ModelPreset* m = catalog.model(id)) {
        entry = modelToJson(*m), kind = "model", sources = &m->sources, origin = m->origin,
        notes = m->notes;
    } else {
        std::fprintf(stderr,
                     "trainscape-cli catalog show: no GPU, cluster or model \"%s\"; see "
                     "'catalog list gpus|clusters|models'\n",
                     id.c_str());
        return kExitBadInput;
    }
    Json out = {{"kind", kind},
                {"entry", entry},
                {"sources", sourcesToJson(catalog, *sources)},
                {"origin", origin}};
    if (!notes.empty())
        out["notes"] = notes;
    if (json) {
        std::printf("%s\n", out.dump(2).c_str());
        return kExitOk;
    }
    std::printf("%s %s (%s)\n", kind.c_str(), id.c_str(), origin.c_str());
    for (auto it = entry.begin(); it != entry.end(); ++it)
        std::printf("  %-22s %s\n", it.key().c_str(), it.value().dump().c_str());
    std::printf("sources:\n");
    for (const auto& [field, source] : *sources) {
        const SourceRef* ref = catalog.source(source);
        std::printf("  %-22s %s%s%s\n", field.c_str(), source.c_str(),
                    ref ? (" - " + ref->title).c_str() : "",
                    ref ? (" <" + ref->url + ">").c_str() : "");
    }
    if (!notes.empty())
        std::printf("notes: %s\n", notes.c_str());
    return kExitOk;
}

} // namespace

int runCatalog(const Options& options) {
    Catalog catalog;
    if (!loadCatalog(options, catalog))
        return kExitBadInput;
    const auto& args = options.positional;
    if (args.size() == 2 && args[0] == "list")
        return list(catalog, args[1], options.json);
    if (args.size() == 2 && args[0] == "show")
        return show(catalog, args[1], options.json);
    std::fprintf(stderr, "trainscape-cli catalog: expected 'list gpus|clusters|models' or "
                         "'show ID'\n");
    return kExitBadInput;
}

void addCatalogCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* catalog = app.add_subcommand(
        "catalog", "The built-in catalog (and --catalog files): GPUs, clusters, models, ...");
    catalog->require_subcommand(1, 1);
    CLI::App* list = catalog->add_subcommand("list", "List one kind of catalog entry");
    list->add_option("KIND", options.positional,
                     "gpus, clusters, models, servers, prices or network")
        ->required()
        ->expected(1);
    addJsonFlag(list, options);
    setRunner(list, run, [&options] {
        options.positional.insert(options.positional.begin(), "list");
        return runCatalog(options);
    });
    CLI::App* show =
        catalog->add_subcommand("show", "Show one catalog entry with the sources of its numbers");
    show->add_option("ID", options.positional, "Catalog id, e.g. h100-sxm-80gb")
        ->required()
        ->expected(1);
    addJsonFlag(show, options);
    setRunner(show, run, [&options] {
        options.positional.insert(options.positional.begin(), "show");
        return runCatalog(options);
    });
}

} // namespace ts::cli
