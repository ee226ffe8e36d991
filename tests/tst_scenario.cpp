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
    QCOMPARE(resolved->parallel.schedule, PipelineScheduleKind::OneFOneB);
    QCOMPARE(resolved->parallel.pipelineLayers, (std::vector<int>{16, 16}));
    QCOMPARE(resolved->cluster.scaleOut.nicsPerNode, 8); // one NIC per GPU
    QCOMPARE(resolved->model.tiedEmbeddings, false);
}

void TestScenario::roundTrip_data() {
    QTest::addColumn<QString>("label");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("base") << "base" << QByteArray(kBase);
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
    row("num_gpus 1e15", R"([["/cluster/num_gpus", 1e15]])", "/cluster/num_gpus", "16777216");
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
        "/cluster/scale_up/bandwidth_gb_s", "greater than 0");
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
    row("bool as string", R"([["/parallelism/sequence_parallel", "true"]])",
        "/parallelism/sequence_parallel", "true or false");
    row("oversubscription below 1", R"([["/cluster/scale_out/oversubscription", 0.5]])",
        "/cluster/scale_out/oversubscription", "from 1");
    row("no scale-out bandwidth", R"([["/cluster/scale_out"]])", "/cluster/scale_out/nic_gbit_s",
        "Gbit/s");
    row("no model architecture", R"([["/model", {}]])", "/model/layers", "required");
    row("graph topology without graph", R"([["/cluster/scale_out/topology", "graph"]])",
        "/cluster/graph", "no graph");
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
