// Scenario format v1: reading, lossless writing, preset resolution, and the errors of bad
// input, each naming its JSON path.

#include "TestSupport.h"

#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ts;
using nlohmann::json;

namespace {

// A complete scenario that needs no catalog entry (explicit GPU, explicit architecture).
const char* kBase = R"({
  "format": "trainscape.scenario/1",
  "name": "base",
  "model": {"layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32, "kv_heads": 8,
            "vocab": 128256, "mlp": "swiglu"},
  "cluster": {"gpu": {"name": "Test GPU", "memory_gib": 80, "hbm_gb_s": 3350, "bf16_tflops": 989.4,
                      "fp8_tflops": 1978.9, "fp32_tflops": 66.9, "tdp_w": 700},
              "num_gpus": 64, "gpus_per_node": 8,
              "scale_up": {"domain_gpus": 8, "bandwidth_gb_s": 450},
              "scale_out": {"nic_gbit_s": 400}},
  "training": {"seq_len": 8192, "global_batch": 512},
  "parallelism": {"tp": 8, "pp": 2}
})";

// kBase with every optional key of hybrid sharding, CP communication, EP overlap and the
// host figures (issue 5), for the lossless round trip and the explicit scenario.
std::string withHybridShardingKeys(const json& dpShard) {
    json doc = json::parse(kBase);
    doc["parallelism"]["zero"] = 1;
    doc["parallelism"]["dp_shard"] = dpShard;
    doc["parallelism"]["cp_comm"] = "allgather";
    doc["parallelism"]["overlap"] = {{"tp", true}, {"ep", true}};
    doc["cluster"]["host"] = {{"pcie_gb_s", 55.5},     {"memory_gib", 2048},
                              {"memory_gb_s", 614.4},  {"nvme_read_gb_s", 50},
                              {"nvme_write_gb_s", 25}, {"nvme_gib", 30.72}};
    return doc.dump(2);
}

// A user catalog with a cluster preset that carries host figures. (The URL's slashes are
// escaped, as JSON allows: moc reads "//" in a multi-line raw string as a comment.)
const char* kHostCatalog = R"({"format": "trainscape.catalog/1",
  "sources": {"lab": {"title": "Our lab servers", "url": "https:\/\/example.org\/lab"}},
  "clusters": [{"id": "lab-h100", "name": "Lab H100 server", "gpu": "h100-sxm-80gb",
                "gpus_per_node": 8,
                "scale_up": {"domain_gpus": 8, "bandwidth_gb_s": 450, "latency_us": 2},
                "scale_out": {"topology": "rail-optimized", "nic_gbit_s": 400,
                              "nics_per_node": 8, "oversubscription": 1, "latency_us": 5,
                              "switch_radix": 64, "tiers": null},
                "host": {"pcie_gb_s": 55, "memory_gib": 2048, "nvme_read_gb_s": 50,
                         "nvme_gib": 30},
                "sources": {"*": "lab"}}]})";

std::string joinDiagnostics(const Diagnostics& d) {
    std::string out;
    for (const auto& item : d.all())
        out += item.toString() + "\n";
    return out;
}

} // namespace

class TestScenario : public QObject {
    Q_OBJECT
private slots:
    void baseIsValid();
    void defaultsApplied();
    void shardingCommAndHostDefaults();
    void shardingAndUlyssesResolve();
    void presetHostMergedKeyByKey();
    void moeGroupsAndFp8DispatchResolve();
    void roundTrip_data();
    void roundTrip();
    void validationCasesAreValid();
    void presetResolution();
    void badPatch_data();
    void badPatch();
    void badText_data();
    void badText();
    void atomicSave();
    void unevenPipelineWarns();
    void explicitScenarioResolvesTheSame_data() { roundTrip_data(); }
    void explicitScenarioResolvesTheSame();
};

void TestScenario::baseIsValid() {
    Diagnostics diags;
    auto scenario = parseScenarioText(kBase, diags);
    QVERIFY2(scenario, joinDiagnostics(diags).c_str());
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY2(resolved, joinDiagnostics(diags).c_str());
    QCOMPARE(diags.errorCount(), std::size_t{0});
}

void TestScenario::defaultsApplied() {
    Diagnostics diags;
    auto resolved = resolveScenario(*parseScenarioText(kBase, diags), Catalog::builtIn(), diags);
    QVERIFY(resolved);
    QCOMPARE(resolved->parallel.dp, std::int64_t{4}); // 64 / (8*2)
    QCOMPARE(resolved->parallel.cp, 1);
    QCOMPARE(resolved->parallel.etp, 8);    // etp defaults to tp
    QCOMPARE(resolved->model.headDim, 128); // hidden / heads
    QCOMPARE(resolved->training.microBatch, std::int64_t{1});
    QCOMPARE(resolved->training.precision, Precision::Bf16);
    QCOMPARE(resolved->training.fp8Recipe, Fp8Recipe::Delayed); // Megatron-LM's default
    QVERIFY(!resolved->training.gradReduceDtype);               // FP32 gradients
    QCOMPARE(resolved->parallel.schedule, PipelineScheduleKind::OneFOneB);
    QCOMPARE(resolved->parallel.pipelineLayers, (std::vector<int>{16, 16}));
    QCOMPARE(resolved->cluster.scaleOut.nicsPerNode, 8); // one NIC per GPU
    QCOMPARE(resolved->model.tiedEmbeddings, false);
}

void TestScenario::shardingCommAndHostDefaults() {
    Diagnostics diags;
    auto resolved = resolveScenario(*parseScenarioText(kBase, diags), Catalog::builtIn(), diags);
    QVERIFY(resolved);
    QCOMPARE(resolved->parallel.dpShard, resolved->parallel.dp); // full sharding
    QCOMPARE(resolved->parallel.cpComm, CpCommType::P2P);        // Megatron-LM's default
    QCOMPARE(resolved->parallel.overlap.ep, false);
    QVERIFY(resolved->cluster.host == HostConfig{}); // no preset, no keys: all unknown
    // An explicit null is full sharding too, and stays null when written.
    json doc = json::parse(kBase);
    doc["parallelism"]["dp_shard"] = nullptr;
    auto scenario = parseScenarioText(doc.dump(), diags);
    QVERIFY(scenario);
    QCOMPARE(json::parse(scenarioToText(*scenario))["parallelism"]["dp_shard"], json(nullptr));
    auto nulled = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY2(nulled, joinDiagnostics(diags).c_str());
    QCOMPARE(nulled->parallel.dpShard, std::int64_t{4});
}

void TestScenario::shardingAndUlyssesResolve() {
    auto resolve = [](const json& doc, Diagnostics& diags) {
        auto scenario = parseScenarioText(doc.dump(), diags);
        return scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
    };
    Diagnostics diags;
    auto r = resolve(json::parse(withHybridShardingKeys(2)), diags);
    QVERIFY2(r, joinDiagnostics(diags).c_str());
    QCOMPARE(r->parallel.dp, std::int64_t{4});
    QCOMPARE(r->parallel.dpShard, std::int64_t{2});
    QCOMPARE(r->parallel.cpComm, CpCommType::AllGather);
    QVERIFY(r->parallel.overlap.ep && r->parallel.overlap.tp && !r->parallel.overlap.dp);
    QCOMPARE(r->cluster.host.pcieGBps, std::optional<double>(55.5));
    QCOMPARE(r->cluster.host.nvmeGiB, std::optional<double>(30.72));

    // Ulysses with fewer KV heads than tp*cp = 8*2: the KV heads are replicated.
    json doc = json::parse(kBase);
    doc["parallelism"] = {{"tp", 8}, {"cp", 2}, {"cp_comm", "a2a"}};
    r = resolve(doc, diags);
    QVERIFY2(r, joinDiagnostics(diags).c_str());
    QCOMPARE(r->parallel.cpComm, CpCommType::A2A);
    // With MLA only the heads split: 12 KV heads and tp*cp = 8 do not divide one another,
    // which MLA's latent K/V does not care about.
    doc["model"].update({{"heads", 48}, {"kv_heads", 12}, {"head_dim", 128}});
    doc["parallelism"] = {{"tp", 4}, {"pp", 2}, {"cp", 2}, {"cp_comm", "a2a"}};
    Diagnostics gqa;
    QVERIFY(!resolve(doc, gqa));
    QVERIFY(gqa.hasErrorAt("/parallelism/cp_comm"));
    doc["model"]["mla"] = {{"q_lora_rank", 1536},
                           {"kv_lora_rank", 512},
                           {"qk_nope_head_dim", 128},
                           {"qk_rope_head_dim", 64},
                           {"v_head_dim", 128}};
    Diagnostics mla;
    r = resolve(doc, mla);
    QVERIFY2(r, joinDiagnostics(mla).c_str());
    QCOMPARE(r->parallel.cpComm, CpCommType::A2A);
}

// A cluster preset's host figures, overridden key by key by the scenario's cluster.host.
void TestScenario::presetHostMergedKeyByKey() {
    Catalog catalog = Catalog::builtIn();
    Diagnostics diags;
    QVERIFY2(catalog.addDocument(kHostCatalog, "user.json", diags), joinDiagnostics(diags).c_str());
    const ClusterPreset* preset = catalog.cluster("lab-h100");
    QVERIFY(preset);
    QCOMPARE(preset->host.pcieGBps, std::optional<double>(55));
    QVERIFY(!preset->host.memoryGBps);

    json doc = json::parse(kBase);
    doc["cluster"] = {{"preset", "lab-h100"},
                      {"num_gpus", 64},
                      {"host", {{"memory_gib", 1024}, {"memory_gb_s", 300}}}};
    auto scenario = parseScenarioText(doc.dump(), diags);
    QVERIFY(scenario);
    auto r = resolveScenario(*scenario, catalog, diags);
    QVERIFY2(r, joinDiagnostics(diags).c_str());
    const HostConfig& host = r->cluster.host;
    QCOMPARE(host.pcieGBps, std::optional<double>(55));     // the preset's
    QCOMPARE(host.memoryGiB, std::optional<double>(1024));  // the scenario's, over it
    QCOMPARE(host.memoryGBps, std::optional<double>(300));  // the scenario's alone
    QCOMPARE(host.nvmeReadGBps, std::optional<double>(50)); // the preset's
    QCOMPARE(host.nvmeWriteGBps, std::optional<double>());  // nobody's: unknown
    QCOMPARE(host.nvmeGiB, std::optional<double>(30));

    // Written out, the known figures are explicit and the unknown one stays absent.
    const json written = json::parse(scenarioToText(explicitScenario(*r)));
    QCOMPARE(written["cluster"]["host"], json({{"pcie_gb_s", 55},
                                               {"memory_gib", 1024},
                                               {"memory_gb_s", 300},
                                               {"nvme_read_gb_s", 50},
                                               {"nvme_gib", 30}}));
    Diagnostics again;
    auto second = resolveScenario(*parseScenarioText(written.dump(), again), catalog, again);
    QVERIFY2(second, joinDiagnostics(again).c_str());
    QVERIFY(second->cluster.host == host);

    // The preset's host object is read as strictly as the scenario's.
    std::string bad = kHostCatalog;
    bad.replace(bad.find("\"nvme_gib\""), 10, "\"nvme_gibs\"");
    Catalog refused = Catalog::builtIn();
    Diagnostics errors;
    QVERIFY(!refused.addDocument(bad, "user.json", errors));
    QVERIFY2(errors.hasErrorAt("/clusters/0/host/nvme_gibs"), joinDiagnostics(errors).c_str());
    QVERIFY(!refused.cluster("lab-h100"));
}

// Group-limited routing comes with the DeepSeek-V3 preset (HF n_group 8, topk_group 4);
// "groups": null is no limit; moe_dispatch_fp8 warns where it cannot act.
void TestScenario::moeGroupsAndFp8DispatchResolve() {
    const std::string deepseek = R"({"format": "trainscape.scenario/1",
        "model": {"preset": "deepseek-v3"},
        "cluster": {"preset": "dgx-h100", "num_gpus": 1024},
        "training": {"seq_len": 4096, "global_batch": 1024, "precision": "fp8"},
        "parallelism": {"pp": 16, "ep": 64, "moe_dispatch_fp8": true}})";
    Diagnostics diags;
    auto r = resolveScenario(*parseScenarioText(deepseek, diags), Catalog::builtIn(), diags);
    QVERIFY2(r, joinDiagnostics(diags).c_str());
    QVERIFY(r->model.moe);
    QCOMPARE(r->model.moe->groupCount(), 8);
    QCOMPARE(r->model.moe->groupsPerTokenCount(), 4);
    QVERIFY(r->parallel.moeDispatchFp8);
    for (const auto& w : diags.warnings())
        QVERIFY2(w.path != "/parallelism/moe_dispatch_fp8", w.message.c_str());

    // An explicit null: no group limit, and the resolved model holds no written null.
    json doc = json::parse(deepseek);
    doc["model"]["moe"] = {{"experts", 256},
                           {"top_k", 8},
                           {"expert_ffn_hidden", 2048},
                           {"shared_experts", 1},
                           {"first_dense_layers", 3},
                           {"groups", nullptr},
                           {"groups_per_token", nullptr}};
    Diagnostics d2;
    auto free = resolveScenario(*parseScenarioText(doc.dump(), d2), Catalog::builtIn(), d2);
    QVERIFY2(free, joinDiagnostics(d2).c_str());
    QCOMPARE(free->model.moe->groupCount(), 0);
    QVERIFY(!free->model.moe->groups && !free->model.moe->groupsPerToken);

    // Warnings: BF16 GEMMs dequantize what arrives; ep 1 has no all-to-all; dense: no MoE.
    auto warningAt = [](const Diagnostics& d, const std::string& piece) {
        for (const auto& w : d.warnings())
            if (w.path == "/parallelism/moe_dispatch_fp8" &&
                w.message.find(piece) != std::string::npos)
                return true;
        return false;
    };
    doc = json::parse(deepseek);
    doc["training"]["precision"] = "bf16";
    Diagnostics d3;
    QVERIFY(resolveScenario(*parseScenarioText(doc.dump(), d3), Catalog::builtIn(), d3));
    QVERIFY2(warningAt(d3, "dequantize"), joinDiagnostics(d3).c_str());
    doc["parallelism"]["ep"] = 1;
    Diagnostics d4;
    QVERIFY(resolveScenario(*parseScenarioText(doc.dump(), d4), Catalog::builtIn(), d4));
    QVERIFY2(warningAt(d4, "ep = 1"), joinDiagnostics(d4).c_str());
    json dense = json::parse(kBase);
    dense["parallelism"]["moe_dispatch_fp8"] = true;
    Diagnostics d5;
    QVERIFY(resolveScenario(*parseScenarioText(dense.dump(), d5), Catalog::builtIn(), d5));
    QVERIFY2(warningAt(d5, "without model.moe"), joinDiagnostics(d5).c_str());
}

void TestScenario::roundTrip_data() {
    QTest::addColumn<QString>("label");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("base") << "base" << QByteArray(kBase);
    QTest::newRow("hybrid sharding, cp_comm, overlap.ep, host")
        << "keys" << QByteArray::fromStdString(withHybridShardingKeys(2));
    QTest::newRow("dp_shard null")
        << "null" << QByteArray::fromStdString(withHybridShardingKeys(nullptr));
    // Group-limited routing and FP8 dispatch (model.moe groups, parallelism.moe_dispatch_fp8).
    for (const json& groups : {json(4), json(nullptr)}) {
        json doc = json::parse(kBase);
        // Every key of the MoE object, as the writer writes them all.
        doc["model"]["moe"] = {{"experts", 16},
                               {"top_k", 4},
                               {"expert_ffn_hidden", 1024},
                               {"shared_experts", 0},
                               {"first_dense_layers", 0},
                               {"capacity_factor", nullptr},
                               {"groups", groups},
                               {"groups_per_token", groups.is_null() ? json(nullptr) : json(2)}};
        doc["parallelism"]["ep"] = 2;
        doc["parallelism"]["moe_dispatch_fp8"] = !groups.is_null();
        QTest::newRow(groups.is_null() ? "moe groups null" : "moe groups, fp8 dispatch")
            << "moe" << QByteArray::fromStdString(doc.dump(2));
    }
    for (const char* recipe : {"delayed", "tensorwise", "blockwise"}) {
        json doc = json::parse(kBase);
        doc["training"]["precision"] = "fp8";
        doc["training"]["fp8_recipe"] = recipe;
        QTest::newRow(qPrintable(QStringLiteral("fp8_recipe %1").arg(recipe)))
            << "fp8" << QByteArray::fromStdString(doc.dump(2));
    }
    {
        json doc = json::parse(kBase);
        doc["training"]["document_tokens"] = 512;
        QTest::newRow("document_tokens") << "packed" << QByteArray::fromStdString(doc.dump(2));
    }
    for (const char* dtype : {"fp32", "bf16"}) {
        json doc = json::parse(kBase);
        doc["training"]["grad_reduce_dtype"] = dtype;
        QTest::newRow(qPrintable(QStringLiteral("grad_reduce_dtype %1").arg(dtype)))
            << "grads" << QByteArray::fromStdString(doc.dump(2));
    }
    for (const QString& file : test::exampleFiles())
        QTest::newRow(qPrintable(QFileInfo(file).fileName()))
            << file << QByteArray::fromStdString(test::readAll(file));
    const auto cases =
        json::parse(test::readAll(test::sourceDir() + "/tests/data/published-dev.json"));
    for (const auto& c : cases)
        QTest::newRow(c["id"].get<std::string>().c_str())
            << QString::fromStdString(c["id"].get<std::string>())
            << QByteArray::fromStdString(c["scenario"].dump());
}

void TestScenario::roundTrip() {
    QFETCH(QByteArray, text);
    Diagnostics diags;
    auto first = parseScenarioText(text.toStdString(), diags);
    QVERIFY2(first, joinDiagnostics(diags).c_str());
    const std::string written = scenarioToText(*first);
    auto second = parseScenarioText(written, diags);
    QVERIFY2(second, joinDiagnostics(diags).c_str());
    QVERIFY(*first == *second);
    // Lossless: the written document equals the original, key for key (order aside).
    QCOMPARE(json::parse(written), json::parse(text.toStdString()));
    QCOMPARE(scenarioToText(*second), written);
}

void TestScenario::validationCasesAreValid() {
    const auto cases =
        json::parse(test::readAll(test::sourceDir() + "/tests/data/published-dev.json"));
    QVERIFY(cases.size() >= 71);
    for (const auto& c : cases) {
        Diagnostics diags;
        auto scenario = parseScenarioText(c["scenario"].dump(), diags);
        auto resolved =
            scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
        QVERIFY2(resolved, (c["id"].get<std::string>() + ": " + joinDiagnostics(diags)).c_str());
    }
}

void TestScenario::presetResolution() {
    const char* text = R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-70b", "layers": 40},
        "cluster": {"preset": "dgx-h100", "num_gpus": 64,
                    "scale_up": {"bandwidth_gb_s": 400}},
        "training": {"seq_len": 8192, "global_batch": 64},
        "parallelism": {"tp": 8}})";
    Diagnostics diags;
    auto resolved = resolveScenario(*parseScenarioText(text, diags), Catalog::builtIn(), diags);
    QVERIFY2(resolved, joinDiagnostics(diags).c_str());
    const ModelPreset* preset = Catalog::builtIn().model("llama3-70b");
    QVERIFY(preset);
    QCOMPARE(resolved->model.layers, 40);                   // explicit key wins
    QCOMPARE(resolved->model.hidden, preset->model.hidden); // the rest from the preset
    QCOMPARE(resolved->model.kvHeads, preset->model.kvHeads);
    QCOMPARE(resolved->model.vocab, preset->model.vocab);
    QCOMPARE(resolved->modelPreset, std::string("llama3-70b"));
    const ClusterPreset* cluster = Catalog::builtIn().cluster("dgx-h100");
    QVERIFY(cluster);
    QCOMPARE(resolved->cluster.scaleUp.bandwidthGBps, 400.0); // explicit key wins
    QCOMPARE(resolved->cluster.scaleUp.domainGpus, cluster->scaleUp.domainGpus);
    QCOMPARE(resolved->cluster.gpuId, cluster->gpuId);
    QCOMPARE(resolved->cluster.gpu.memoryGiB, 80.0);
    QCOMPARE(resolved->cluster.scaleOut.nicGbitPerS, cluster->scaleOut.nicGbitPerS);
    QCOMPARE(resolved->parallel.dp, std::int64_t{8});

    // An explicit GPU id overrides the preset's GPU.
    const char* h200 = R"({"format": "trainscape.scenario/1", "model": {"preset": "llama3-8b"},
        "cluster": {"preset": "dgx-h100", "gpu": "h200-sxm-141gb", "num_gpus": 8},
        "training": {"seq_len": 4096, "global_batch": 8}})";
    Diagnostics d2;
    auto r2 = resolveScenario(*parseScenarioText(h200, d2), Catalog::builtIn(), d2);
    QVERIFY2(r2, joinDiagnostics(d2).c_str());
    QCOMPARE(r2->cluster.gpuId, std::string("h200-sxm-141gb"));
    QVERIFY(r2->cluster.gpu.memoryGiB > 140);
}

// Each row changes the valid base scenario with JSON-pointer edits and names the JSON path
// that the error must carry.
void TestScenario::badPatch_data() {
    QTest::addColumn<QString>("edits"); // JSON array of [pointer, value] or [pointer] (remove)
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("hint"); // a piece of the message that says what is right

    auto row = [](const char* name, const char* edits, const char* path, const char* hint) {
        QTest::newRow(name) << edits << path << hint;
    };
    row("tp is a string", R"([["/parallelism/tp", "8"]])", "/parallelism/tp", "integer");
    row("tp is zero", R"([["/parallelism/tp", 0]])", "/parallelism/tp", "from 1");
    row("tp is negative", R"([["/parallelism/tp", -2]])", "/parallelism/tp", "from 1");
    row("tp is fractional", R"([["/parallelism/tp", 1.5]])", "/parallelism/tp", "whole number");
    row("num_gpus missing", R"([["/cluster/num_gpus"]])", "/cluster/num_gpus", "required");
    row("num_gpus 1e15", R"([["/cluster/num_gpus", 1e15]])", "/cluster/num_gpus",
        "1000000 (40x the largest published");
    row("num_gpus huge integer", R"([["/cluster/num_gpus", 18446744073709551615]])",
        "/cluster/num_gpus", "out of range");
    row("seq_len missing", R"([["/training/seq_len"]])", "/training/seq_len", "required");
    row("global_batch zero", R"([["/training/global_batch", 0]])", "/training/global_batch",
        "from 1");
    row("seq_len too long", R"([["/training/seq_len", 1e12]])", "/training/seq_len", "to");
    row("unknown top-level key", R"([["/modle", {}]])", "/modle", "did you mean \"model\"");
    row("unknown model key", R"([["/model/hiden", 4096]])", "/model/hiden",
        "did you mean \"hidden\"");
    row("unknown nested key", R"([["/parallelism/overlap", {"tpp": true}]])",
        "/parallelism/overlap/tpp", "did you mean \"tp\"");
    row("wrong format", R"([["/format", "trainscape.scenario/2"]])", "/format",
        "trainscape.scenario/1");
    row("format missing", R"([["/format"]])", "/format", "required");
    row("dp disagrees", R"([["/parallelism/dp", 3]])", "/parallelism/dp", "cluster.num_gpus = 64");
    row("degrees do not divide", R"([["/parallelism/pp", 3]])", "/parallelism", "does not divide");
    row("heads not divisible by tp",
        R"([["/model/heads", 36], ["/model/kv_heads", 4], ["/model/head_dim", 128]])",
        "/parallelism/tp", "not divisible by tp");
    row("kv_heads does not divide heads", R"([["/model/kv_heads", 5]])", "/model/kv_heads",
        "must divide heads");
    row("global batch indivisible", R"([["/training/global_batch", 102]])",
        "/training/global_batch", "dp*micro_batch");
    row("micro batch above global", R"([["/training/micro_batch", 1024]])", "/training/micro_batch",
        "exceeds");
    row("precision unknown", R"([["/training/precision", "bf17"]])", "/training/precision",
        "\"bf16\"");
    row("mlp unknown", R"([["/model/mlp", "relu"]])", "/model/mlp", "\"swiglu\"");
    row("negative bandwidth", R"([["/cluster/scale_up/bandwidth_gb_s", -450]])",
        "/cluster/scale_up/bandwidth_gb_s", "from 0.01 to 10000000 (1 GbE");
    row("unknown gpu id", R"([["/cluster/gpu", "h900"]])", "/cluster/gpu", "known GPUs");
    row("unknown model preset", R"([["/model/preset", "llama9-1t"]])", "/model/preset",
        "known presets");
    row("unknown cluster preset", R"([["/cluster/preset", "dgx-z100"]])", "/cluster/preset",
        "known presets");
    row("vpp with 1f1b", R"([["/parallelism/vpp", 2], ["/parallelism/schedule", "1f1b"]])",
        "/parallelism/schedule", "interleaved");
    row("interleaved without vpp", R"([["/parallelism/schedule", "interleaved"]])",
        "/parallelism/vpp", "vpp >= 2");
    row("pipeline layers wrong sum", R"([["/parallelism/pipeline_layers", [10, 20]]])",
        "/parallelism/pipeline_layers", "model.layers = 32");
    row("pipeline layers wrong count", R"([["/parallelism/pipeline_layers", [32]]])",
        "/parallelism/pipeline_layers", "pp*vpp = 2");
    row("pipeline layer negative", R"([["/parallelism/pipeline_layers", [-1, 33]]])",
        "/parallelism/pipeline_layers/0", "layer count");
    row("ep without moe", R"([["/parallelism/ep", 2]])", "/parallelism/ep", "model.moe");
    row("model is a number", R"([["/model", 5]])", "/model", "expected an object");
    row("zero stage 4", R"([["/parallelism/zero", 4]])", "/parallelism/zero", "0 to 3");
    row("recompute layers without full", R"([["/parallelism/recompute_layers", 4]])",
        "/parallelism/recompute_layers", "\"full\"");
    row("mla wrong type", R"([["/model/mla", "yes"]])", "/model/mla", "expected an object");
    row("moe top_k above experts",
        R"([["/model/moe", {"experts": 8, "top_k": 9, "expert_ffn_hidden": 14336}]])",
        "/model/moe/top_k", "exceeds experts");
    row("moe missing experts", R"([["/model/moe", {"top_k": 2, "expert_ffn_hidden": 14336}]])",
        "/model/moe/experts", "required");
    row("unknown calibration", R"([["/calibration", "h200-lab"]])", "/calibration", "null");
    row("cp does not divide seq", R"([["/training/seq_len", 8191], ["/parallelism/cp", 2]])",
        "/parallelism/cp", "not divisible by cp");
    row("fp8 on a GPU without FP8",
        R"([["/cluster/gpu/fp8_tflops", 0], ["/training/precision", "fp8"]])",
        "/training/precision", "bf16");
    row("gpu object missing tdp", R"([["/cluster/gpu/tdp_w"]])", "/cluster/gpu/tdp_w", "required");
    // training.document_tokens: at most seq_len, not under context parallelism.
    row("document_tokens above seq_len", R"([["/training/document_tokens", 9000]])",
        "/training/document_tokens", "at most seq_len");
    row("document_tokens zero", R"([["/training/document_tokens", 0]])",
        "/training/document_tokens", "1");
    row("document_tokens with cp",
        R"([["/training/document_tokens", 512], ["/parallelism/cp", 2]])",
        "/training/document_tokens", "set cp 1");
    // training.grad_reduce_dtype: bf16 gradients need bf16 weights.
    row("grad_reduce_dtype bf16 with fp16",
        R"([["/training/precision", "fp16"], ["/training/grad_reduce_dtype", "bf16"]])",
        "/training/grad_reduce_dtype", "bf16 weights");
    row("grad_reduce_dtype bf16 with fp32",
        R"([["/training/precision", "fp32"], ["/training/grad_reduce_dtype", "bf16"]])",
        "/training/grad_reduce_dtype", "use \"fp32\"");
    row("grad_reduce_dtype unknown", R"([["/training/grad_reduce_dtype", "fp16"]])",
        "/training/grad_reduce_dtype", "bf16");
    row("gpu exponential rate zero", R"([["/cluster/gpu/sfu_exp_tera_per_s", 0]])",
        "/cluster/gpu/sfu_exp_tera_per_s", "3.9 T exponentials");
    // training.fp8_recipe: only with precision "fp8"; MX scaling is a precision of its own.
    row("fp8_recipe with bf16", R"([["/training/fp8_recipe", "blockwise"]])",
        "/training/fp8_recipe", "needs training.precision \"fp8\" (now \"bf16\")");
    row("fp8_recipe with mxfp8",
        R"([["/training/precision", "mxfp8"], ["/training/fp8_recipe", "tensorwise"]])",
        "/training/fp8_recipe", "needs training.precision \"fp8\" (now \"mxfp8\")");
    row("fp8_recipe mxfp8",
        R"([["/training/precision", "fp8"], ["/training/fp8_recipe", "mxfp8"]])",
        "/training/fp8_recipe", "set training.precision to \"mxfp8\"");
    row("fp8_recipe unknown",
        R"([["/training/precision", "fp8"], ["/training/fp8_recipe", "current"]])",
        "/training/fp8_recipe", "\"tensorwise\"");
    row("bool as string", R"([["/parallelism/sequence_parallel", "true"]])",
        "/parallelism/sequence_parallel", "true or false");
    row("oversubscription below 1", R"([["/cluster/scale_out/oversubscription", 0.5]])",
        "/cluster/scale_out/oversubscription", "from 1");
    row("no scale-out bandwidth", R"([["/cluster/scale_out"]])", "/cluster/scale_out/nic_gbit_s",
        "Gbit/s");
    row("no model architecture", R"([["/model", {}]])", "/model/layers", "required");
    row("graph topology without graph", R"([["/cluster/scale_out/topology", "graph"]])",
        "/cluster/graph", "no graph");
    // Hybrid sharding, CP communication, EP overlap and host figures (dp = 4 in kBase).
    row("dp_shard does not divide dp",
        R"([["/parallelism/dp_shard", 3], ["/parallelism/zero", 1]])", "/parallelism/dp_shard",
        "dp_shard = 3 does not divide dp = 4: choose a divisor of dp (1, 2, 4)");
    row("dp_shard above dp", R"([["/parallelism/dp_shard", 8], ["/parallelism/zero", 3]])",
        "/parallelism/dp_shard", "does not divide dp = 4");
    row("dp_shard zero", R"([["/parallelism/dp_shard", 0]])", "/parallelism/dp_shard", "from 1");
    row("dp_shard is a string", R"([["/parallelism/dp_shard", "2"]])", "/parallelism/dp_shard",
        "integer");
    row("dp_shard without ZeRO", R"([["/parallelism/dp_shard", 2]])", "/parallelism/dp_shard",
        "zero 0 replicates everything, so there is nothing to shard");
    row("cp_comm unknown", R"([["/parallelism/cp_comm", "ring"]])", "/parallelism/cp_comm",
        "\"p2p\"");
    row("a2a heads over tp*cp",
        R"([["/model/heads", 40], ["/model/head_dim", 128], ["/parallelism/cp", 2],
            ["/parallelism/cp_comm", "a2a"]])",
        "/parallelism/cp_comm", "heads = 40 is not divisible by 16: use cp_comm \"p2p\"");
    row("a2a names a cp that works",
        R"([["/model/heads", 48], ["/model/head_dim", 128], ["/parallelism/cp", 4],
            ["/parallelism/cp_comm", "a2a"]])",
        "/parallelism/cp_comm", "use cp = 2 with \"a2a\"");
    row("a2a kv_heads over tp*cp",
        R"([["/model/heads", 48], ["/model/kv_heads", 12], ["/model/head_dim", 128],
            ["/parallelism/tp", 4], ["/parallelism/cp", 2], ["/parallelism/cp_comm", "a2a"]])",
        "/parallelism/cp_comm", "kv_heads = 12 and 8 do not divide one another");
    row("overlap ep not a bool", R"([["/parallelism/overlap", {"ep": "yes"}]])",
        "/parallelism/overlap/ep", "true or false");
    row("unknown host key", R"([["/cluster/host", {"pcie_gbs": 55}]])", "/cluster/host/pcie_gbs",
        "did you mean \"pcie_gb_s\"");
    row("host figure zero", R"([["/cluster/host", {"nvme_gib": 0}]])", "/cluster/host/nvme_gib",
        "greater than 0");
    row("host figure negative", R"([["/cluster/host", {"memory_gb_s": -1}]])",
        "/cluster/host/memory_gb_s", "from 0.01");
    row("host is a number", R"([["/cluster/host", 5]])", "/cluster/host", "expected an object");
    // Group-limited routing (model.moe.groups, groups_per_token) and FP8 dispatch.
    auto moe = [](const char* groups) {
        return std::string(
                   R"([["/model/moe", {"experts": 16, "top_k": 4, "expert_ffn_hidden": 1024, )") +
               groups + "}]]";
    };
    static const std::string moeRows[] = {moe(R"("groups": 4)"),
                                          moe(R"("groups": null, "groups_per_token": 2)"),
                                          moe(R"("groups": 3, "groups_per_token": 1)"),
                                          moe(R"("groups": 4, "groups_per_token": 5)"),
                                          moe(R"("groups": 8, "groups_per_token": 6)"),
                                          moe(R"("groups": 8, "groups_per_token": 1)"),
                                          moe(R"("groups": 0, "groups_per_token": 1)"),
                                          moe(R"("groups": "4", "groups_per_token": 2)"),
                                          moe(R"("groupz": 4)")};
    row("moe groups without groups_per_token", moeRows[0].c_str(), "/model/moe/groups_per_token",
        "required with groups = 4: how many groups a token's experts may come from, 1 to 4");
    row("moe groups_per_token without groups", moeRows[1].c_str(), "/model/moe/groups",
        "required with groups_per_token = 2: the number of expert groups, a divisor of experts = "
        "16");
    row("moe groups do not divide experts", moeRows[2].c_str(), "/model/moe/groups",
        "experts = 16 is not divisible by groups = 3");
    row("moe groups_per_token above groups", moeRows[3].c_str(), "/model/moe/groups_per_token",
        "exceeds groups = 4: choose 1 to 4");
    row("moe groups_per_token above top_k", moeRows[4].c_str(), "/model/moe/groups_per_token",
        "exceeds top_k = 4");
    row("moe top_k above the chosen groups' experts", moeRows[5].c_str(),
        "/model/moe/groups_per_token",
        "that many groups of 2 experts hold 2, fewer than top_k = 4: choose at least 2");
    row("moe groups zero", moeRows[6].c_str(), "/model/moe/groups", "from 1");
    row("moe groups a string", moeRows[7].c_str(), "/model/moe/groups", "integer");
    row("moe groups misspelt", moeRows[8].c_str(), "/model/moe/groupz", "did you mean \"groups\"");
    row("moe_dispatch_fp8 a string", R"([["/parallelism/moe_dispatch_fp8", "yes"]])",
        "/parallelism/moe_dispatch_fp8", "true or false");
}

void TestScenario::badPatch() {
    QFETCH(QString, edits);
    QFETCH(QString, path);
    QFETCH(QString, hint);
    json doc = json::parse(kBase);
    for (const auto& edit : json::parse(edits.toStdString())) {
        const json::json_pointer pointer(edit[0].get<std::string>());
        if (edit.size() == 1)
            doc[pointer.parent_pointer()].erase(pointer.back());
        else
            doc[pointer] = edit[1];
    }
    Diagnostics diags;
    auto scenario = parseScenarioText(doc.dump(), diags);
    auto resolved = scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
    QVERIFY2(!resolved, "the bad scenario was accepted");
    const std::string all = joinDiagnostics(diags);
    bool found = false;
    for (const auto& d : diags.errors())
        if (d.path == path.toStdString() && d.message.find(hint.toStdString()) != std::string::npos)
            found = true;
    QVERIFY2(found, ("expected an error at " + path.toStdString() + " mentioning '" +
                     hint.toStdString() + "'; got:\n" + all)
                        .c_str());
}

void TestScenario::badText_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("hint");
    QTest::newRow("not JSON") << QByteArray("{not json") << "not valid JSON at line 1";
    QTest::newRow("empty file") << QByteArray("") << "empty";
    QTest::newRow("whitespace only") << QByteArray("  \n\t ") << "empty";
    QTest::newRow("top-level array") << QByteArray("[1, 2]") << "expected an object";
    QTest::newRow("trailing garbage") << QByteArray(kBase).append("}") << "not valid JSON";
    QTest::newRow("deeply nested")
        << (QByteArray(100000, '[') + QByteArray(100000, ']')) << "nested deeper";
    QTest::newRow("non-UTF-8")
        << QByteArray("{\"format\": \"trainscape.scenario/1\", \"name\": \"\xff\xfe\"}") << "UTF-8";
    QTest::newRow("truncated") << QByteArray(kBase).left(200) << "not valid JSON";
    QTest::newRow("too large") << QByteArray(17 << 20, ' ') << "at most";
}

void TestScenario::badText() {
    QFETCH(QByteArray, text);
    QFETCH(QString, hint);
    Diagnostics diags;
    QVERIFY(!parseScenarioText(std::string_view(text.constData(), text.size()), diags));
    QVERIFY(diags.hasErrors());
    const auto first = diags.errors().front();
    QCOMPARE(QString::fromStdString(first.path), QString());
    QVERIFY2(first.message.find(hint.toStdString()) != std::string::npos, first.message.c_str());
}

void TestScenario::atomicSave() {
    QTemporaryDir dir;
    Diagnostics diags;
    auto scenario = parseScenarioText(kBase, diags);
    QVERIFY(scenario);
    const std::string path = dir.filePath("saved.json").toStdString();
    std::string error;
    QVERIFY2(saveScenarioFile(path, *scenario, error), error.c_str());
    auto loaded = loadScenarioFile(path, diags);
    QVERIFY(loaded && *loaded == *scenario);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temp left
    // A folder that does not exist: an error, and nothing written.
    QVERIFY(!saveScenarioFile(dir.filePath("missing/saved.json").toStdString(), *scenario, error));
    QVERIFY(error.find("cannot create") != std::string::npos);
}

void TestScenario::unevenPipelineWarns() {
    json doc = json::parse(kBase);
    doc["model"]["layers"] = 33;
    Diagnostics diags;
    auto resolved =
        resolveScenario(*parseScenarioText(doc.dump(), diags), Catalog::builtIn(), diags);
    QVERIFY(resolved);
    QCOMPARE(resolved->parallel.pipelineLayers, (std::vector<int>{17, 16}));
    QCOMPARE(diags.warnings().size(), std::size_t{1});
    QCOMPARE(diags.warnings().front().path, std::string("/parallelism/pipeline_layers"));
}

// Every preset and default written out (validate --resolved) is a scenario that resolves to
// the same model, cluster, training and plan.
void TestScenario::explicitScenarioResolvesTheSame() {
    QFETCH(QByteArray, text);
    Diagnostics diags;
    auto first =
        resolveScenario(*parseScenarioText(text.toStdString(), diags), Catalog::builtIn(), diags);
    QVERIFY2(first, joinDiagnostics(diags).c_str());
    const std::string written = scenarioToText(explicitScenario(*first));
    Diagnostics again;
    auto parsed = parseScenarioText(written, again);
    QVERIFY2(parsed, (joinDiagnostics(again) + written).c_str());
    auto second = resolveScenario(*parsed, Catalog::builtIn(), again);
    QVERIFY2(second, (joinDiagnostics(again) + written).c_str());
    QVERIFY(second->model == first->model);
    QVERIFY(second->cluster == first->cluster);
    QVERIFY(second->training == first->training);
    QVERIFY(second->parallel == first->parallel);
    QVERIFY(second->calibration == first->calibration);
    QCOMPARE(second->costs.pue, first->costs.pue);
    QCOMPARE(second->costs.gpuHourUsd, first->costs.gpuHourUsd);
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
