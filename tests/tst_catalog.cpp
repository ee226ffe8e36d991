// Catalog integrity: required ids, unique ids, every number with a public source, and user
// catalog files that add or override entries (or are refused whole, with JSON paths).

#include "TestSupport.h"

#include "catalog/Catalog.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <set>

using namespace ts;
using nlohmann::json;

namespace {

// Numeric fields of an entry, with dotted names for nested objects ("scale_up.latency_us").
void numericFields(const json& object, const std::string& prefix, std::vector<std::string>& out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key() == "sources")
            continue;
        const std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it.value().is_number())
            out.push_back(name);
        else if (it.value().is_object())
            numericFields(it.value(), name, out);
    }
}

std::vector<json> catalogDocuments() {
    std::vector<json> docs;
    QDir dir(test::sourceDir() + "/resources/catalog");
    for (const QString& name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        docs.push_back(json::parse(test::readAll(dir.filePath(name))));
    return docs;
}

} // namespace

class TestCatalog : public QObject {
    Q_OBJECT
private slots:
    void requiredIdsExist_data();
    void requiredIdsExist();
    void idsAreUnique();
    void everyNumberHasASource();
    void sourcesHaveAddresses();
    void clusterGpusResolve();
    void figuresArePlausible();
    void userCatalogOverridesAndAdds();
    void invalidUserCatalogAddsNothing();
};

void TestCatalog::requiredIdsExist_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    // shared/spec/scenario-format.md
    for (const char* id : {"a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm-80gb", "h100-pcie-80gb",
                           "h200-sxm-141gb", "b200-sxm-180gb", "b300-sxm-288gb", "gb200", "gb300",
                           "mi250x", "mi300x", "mi325x", "gaudi3"})
        QTest::newRow(id) << "gpu" << id;
    for (const char* id : {"dgx-a100", "dgx-h100", "dgx-h200", "dgx-b200", "dgx-b300",
                           "gb200-nvl72", "gb300-nvl72", "mi300x-8"})
        QTest::newRow(id) << "cluster" << id;
    // Issue 2's model presets.
    for (const char* id :
         {"gpt3-175b", "llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b",
          "llama3.1-405b", "mixtral-8x7b", "mixtral-8x22b", "deepseek-v3", "qwen3-30b-a3b",
          "qwen3-235b-a22b", "nemotron4-15b", "nemotron4-340b"})
        QTest::newRow(id) << "model" << id;
}

void TestCatalog::requiredIdsExist() {
    QFETCH(QString, kind);
    QFETCH(QString, id);
    const Catalog& c = Catalog::builtIn();
    const std::string key = id.toStdString();
    const bool found = kind == "gpu"       ? c.gpu(key) != nullptr
                       : kind == "cluster" ? c.cluster(key) != nullptr
                                           : c.model(key) != nullptr;
    QVERIFY2(found, qPrintable(kind + " " + id + " is missing"));
}

void TestCatalog::idsAreUnique() {
    QVERIFY(Catalog::builtIn().duplicateIds().empty());
    std::set<std::string> ids;
    for (const auto& doc : catalogDocuments())
        for (const char* list : {"gpus", "clusters", "models", "servers", "prices"})
            if (doc.contains(list))
                for (const auto& entry : doc[list]) {
                    // GPUs, clusters and models share `catalog show ID`; a server may share
                    // the id of the cluster preset built from it.
                    const std::string kind = list;
                    const std::string id = entry["id"].get<std::string>();
                    const std::string key =
                        kind == "servers" || kind == "prices" ? kind + ":" + id : id;
                    QVERIFY2(ids.insert(key).second, ("duplicate id " + id).c_str());
                }
}

void TestCatalog::everyNumberHasASource() {
    const Catalog& catalog = Catalog::builtIn();
    int checked = 0;
    for (const auto& doc : catalogDocuments())
        for (const char* list : {"gpus", "clusters", "models", "servers", "prices"}) {
            if (!doc.contains(list))
                continue;
            for (const auto& entry : doc[list]) {
                const std::string id = entry["id"].get<std::string>();
                QVERIFY2(entry.contains("sources") && !entry["sources"].empty(),
                         (id + " has no sources").c_str());
                const json& sources = entry["sources"];
                std::vector<std::string> fields;
                numericFields(entry, "", fields);
                for (const auto& field : fields) {
                    const bool covered = sources.contains(field) || sources.contains("*");
                    QVERIFY2(covered, (id + "." + field + " has no source").c_str());
                    ++checked;
                }
                for (auto it = sources.begin(); it != sources.end(); ++it)
                    QVERIFY2(catalog.source(it.value().get<std::string>()),
                             (id + ": source \"" + it.value().get<std::string>() +
                              "\" is not in the sources table")
                                 .c_str());
            }
        }
    // The network section (network.json): every known number sourced; an unknown one is
    // null with a note, never zero.
    int networkItems = 0;
    for (const auto& doc : catalogDocuments()) {
        if (!doc.contains("network"))
            continue;
        for (const char* list : {"switches", "transceivers", "nics", "cables"})
            for (const auto& entry : doc["network"].value(list, json::array())) {
                const std::string id = entry["id"].get<std::string>();
                const json& sources = entry["sources"];
                std::vector<std::string> fields;
                numericFields(entry, "", fields);
                for (const auto& field : fields) {
                    const std::string source = sources.value(field, sources.value("*", ""));
                    QVERIFY2(catalog.source(source), (id + "." + field + " has no source").c_str());
                    ++checked;
                }
                for (const char* key : {"power_w", "price_usd"}) {
                    QVERIFY2(entry.contains(key), (id + " lacks " + key).c_str());
                    QVERIFY2(!entry[key].is_null() || !entry["notes"].get<std::string>().empty(),
                             (id + "." + key + " is unknown without a note").c_str());
                    QVERIFY2(entry[key].is_null() || entry[key].get<double>() > 0,
                             (id + "." + key + " is zero: write null for unknown").c_str());
                }
                ++networkItems;
            }
    }
    QVERIFY(networkItems >= 10);
    QVERIFY(catalog.network().switches.count("quantum-2-qm9700"));
    // The energy defaults (power-and-prices.json): one object, every number sourced.
    int energyDefaults = 0;
    for (const auto& doc : catalogDocuments()) {
        if (!doc.contains("energy_defaults"))
            continue;
        const json& d = doc["energy_defaults"];
        std::vector<std::string> fields;
        numericFields(d, "", fields);
        for (const auto& field : fields) {
            const std::string source = d["sources"].value(field, d["sources"].value("*", ""));
            QVERIFY2(catalog.source(source),
                     ("energy_defaults." + field + " has no source").c_str());
            ++energyDefaults;
        }
    }
    QVERIFY(energyDefaults >= 4);
    QVERIFY(catalog.energyDefaults());
    QCOMPARE(catalog.server("dgx-h100")->maxPowerW, 10200.0);          // catalog.md B4
    QCOMPARE(catalog.priceFor("h100-sxm-80gb")->usdPerGpuHour, 4.916); // catalog.md B5
    QVERIFY(checked > 100);
}

void TestCatalog::sourcesHaveAddresses() {
    for (const auto& [id, ref] : Catalog::builtIn().sources()) {
        QVERIFY2(!ref.title.empty(), (id + " has no title").c_str());
        QVERIFY2(ref.url.rfind("https://", 0) == 0 || ref.url.rfind("http://", 0) == 0,
                 (id + " has no web address").c_str());
    }
}

void TestCatalog::clusterGpusResolve() {
    const Catalog& c = Catalog::builtIn();
    for (const auto& [id, preset] : c.clusters()) {
        QVERIFY2(c.gpu(preset.gpuId), (id + ": unknown GPU " + preset.gpuId).c_str());
        QVERIFY(preset.scaleUp.domainGpus >= preset.gpusPerNode ||
                preset.gpusPerNode % preset.scaleUp.domainGpus == 0);
        QVERIFY(preset.scaleUp.bandwidthGBps > 0);
        QVERIFY(preset.scaleOut.nicGbitPerS > 0);
    }
    QCOMPARE(c.cluster("gb200-nvl72")->scaleUp.domainGpus, 72);
    QCOMPARE(c.cluster("gb200-nvl72")->gpusPerNode, 4);
    QCOMPARE(c.cluster("dgx-a100")->scaleOut.nicGbitPerS, 200.0);
    QCOMPARE(c.cluster("dgx-h100")->scaleOut.nicGbitPerS, 400.0);
}

void TestCatalog::figuresArePlausible() {
    const Catalog& c = Catalog::builtIn();
    for (const auto& [id, e] : c.gpus()) {
        const GpuSpec& g = e.spec;
        // Workstation parts go down to the T4's 65 FP16 TFLOPS (no BF16) and the L4's 300 GB/s.
        const double tensorPeak = g.bf16Tflops > 0 ? g.bf16Tflops : g.fp16Tflops.value_or(0.0);
        QVERIFY2(tensorPeak > 50 && tensorPeak < 20000, id.c_str());
        QVERIFY2(g.fp8Tflops == 0 || g.fp8Tflops >= tensorPeak * 0.99, id.c_str());
        QVERIFY2(g.memoryGiB >= 16 && g.memoryGiB <= 1024, id.c_str());
        QVERIFY2(g.hbmGBps > 250, id.c_str());
    }
    // The datasheet's dense peaks (shared/reference/catalog.md B1).
    QCOMPARE(c.gpu("h100-sxm-80gb")->spec.bf16Tflops, 989.4);
    QCOMPARE(c.gpu("a100-sxm-80gb")->spec.bf16Tflops, 312.0);
    QCOMPARE(c.gpu("a100-sxm-80gb")->spec.fp8Tflops, 0.0);
    for (const auto& [id, e] : c.models()) {
        const ModelConfig& m = e.model;
        QVERIFY2(m.heads % m.kvHeads == 0, id.c_str());
        QVERIFY2(!m.moe || m.moe->topK <= m.moe->experts, id.c_str());
    }
    QCOMPARE(c.model("llama3-70b")->model.layers, 80);
    QCOMPARE(c.model("gpt3-175b")->model.hidden, std::int64_t{12288});
}

void TestCatalog::userCatalogOverridesAndAdds() {
    Catalog c = Catalog::builtIn();
    const std::size_t before = c.gpus().size();
    const char* user = R"({"format": "trainscape.catalog/1",
      "sources": {"lab": {"title": "Our lab measurement", "url": "https://example.org/lab"}},
      "gpus": [{"id": "h100-sxm-80gb", "name": "H100 at lab clocks", "memory_gib": 80,
                "hbm_gb_s": 3000, "bf16_tflops": 900, "fp8_tflops": 1800, "fp32_tflops": 60,
                "tdp_w": 650, "sources": {"*": "lab"}},
               {"id": "x1", "name": "Lab accelerator", "memory_gib": 64, "hbm_gb_s": 2000,
                "bf16_tflops": 500, "fp8_tflops": 0, "fp32_tflops": 50, "tdp_w": 500,
                "sources": {"*": "lab"}}]})";
    Diagnostics diags;
    QVERIFY(c.addDocument(user, "user.json", diags));
    QCOMPARE(c.gpus().size(), before + 1);
    QCOMPARE(c.gpu("h100-sxm-80gb")->spec.bf16Tflops, 900.0);
    QCOMPARE(c.gpu("h100-sxm-80gb")->origin, std::string("user.json"));
    QVERIFY(c.gpu("x1"));
    // The built-in catalog is untouched.
    QCOMPARE(Catalog::builtIn().gpu("h100-sxm-80gb")->spec.bf16Tflops, 989.4);
}

void TestCatalog::invalidUserCatalogAddsNothing() {
    Catalog c = Catalog::builtIn();
    const std::size_t before = c.gpus().size();
    const char* user = R"({"format": "trainscape.catalog/1",
      "gpus": [{"id": "ok", "name": "Fine", "memory_gib": 64, "hbm_gb_s": 2000,
                "bf16_tflops": 500, "fp8_tflops": 0, "fp32_tflops": 50, "tdp_w": 500,
                "sources": {"*": "x"}},
               {"id": "bad", "name": "Broken", "memory_gib": -1, "hbm_gb_s": 2000,
                "bf16_tflops": 500, "fp8_tflops": 0, "fp32_tflops": 50, "tdp_w": 500,
                "sources": {"*": "x"}, "colour": "red"}]})";
    Diagnostics diags;
    QVERIFY(!c.addDocument(user, "user.json", diags));
    QCOMPARE(c.gpus().size(), before);
    QVERIFY(diags.hasErrorAt("/gpus/1/memory_gib"));
    QVERIFY(diags.hasErrorAt("/gpus/1/colour"));
}

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
