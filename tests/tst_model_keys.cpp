// The wave-3 model and execution keys (issue 36 item 1; shared/spec/scenario-format.md "Model
// keys", "Execution keys (more)"): sliding windows, sinks, biases, the clamped SwiGLU, the
// attention backend, the FP8 weight cache, linear-chunked cross entropy and peak_active_bytes.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "export/Exporter.h"
#include "hardware/HardwareProfile.h"
#include "hardware/KernelTime.h"
#include "model/MoeArithmetic.h"
#include "model/TransformerArithmetic.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

using namespace ts;
using nlohmann::json;

namespace {

std::string joinDiagnostics(const Diagnostics& d) {
    std::string out;
    for (const auto& item : d.all())
        out += item.toString() + "\n";
    return out;
}

json gptOss(const char* gpu = "h100-sxm-80gb") {
    return json::parse(std::string(R"({
      "format": "trainscape.scenario/1",
      "model": {"preset": "gpt-oss-120b"},
      "cluster": {"preset": ")") +
                       (std::string(gpu) == "h100-sxm-80gb" ? "dgx-h100" : "dgx-b200") +
                       R"(", "gpu": ")" + gpu + R"(", "num_gpus": 64},
      "training": {"seq_len": 4096, "global_batch": 1280, "micro_batch": 1,
                   "precision": "bf16", "optimizer": "adam"},
      "parallelism": {"tp": 1, "pp": 4, "ep": 8, "etp": 1, "dp": 16, "zero": 1,
                      "recompute": "selective"}
    })");
}

std::optional<ResolvedScenario> resolved(const json& doc, Diagnostics& diags) {
    auto s = parseScenarioText(doc.dump(), diags);
    return s ? resolveScenario(*s, Catalog::builtIn(), diags) : std::nullopt;
}

Estimate estimateOf(const json& doc) {
    Diagnostics diags;
    auto r = resolved(doc, diags);
    auto e = r ? estimatePlan(*r, diags) : std::nullopt;
    if (!e)
        qFatal("%s", joinDiagnostics(diags).c_str());
    return *e;
}

} // namespace

class TestModelKeys : public QObject {
    Q_OBJECT
private slots:
    void presets();
    void windowArithmetic();
    void windowedKernel();
    void windowShortensStep();
    void sinksNeedAFusedKernel();
    void biasesCount();
    void fp8WeightCache();
    void linearChunkedLoss();
    void peakActive();
    void badValues();
    void megatronExport();
};

// The spec's two presets: hidden 2880, 64 heads, 8 KV heads, head_dim 64, vocab 201,088,
// top-4 of 32 / 128 experts, window 128 on alternate layers, sinks, biases, clamped SwiGLU.
void TestModelKeys::presets() {
    for (auto [id, layers, experts] :
         {std::tuple{"gpt-oss-20b", 24, 32}, {"gpt-oss-120b", 36, 128}}) {
        const ModelPreset* p = Catalog::builtIn().model(id);
        QVERIFY2(p, id);
        const ModelConfig& m = p->model;
        QCOMPARE(m.layers, layers);
        QCOMPARE(m.moe->experts, experts);
        QCOMPARE(m.hidden, std::int64_t(2880));
        QCOMPARE(m.heads, 64);
        QCOMPARE(m.kvHeads, 8);
        QCOMPARE(m.headDim, 64);
        QCOMPARE(m.vocab, std::int64_t(201088));
        QCOMPARE(m.moe->topK, 4);
        QCOMPARE(*m.slidingWindow, std::int64_t(128));
        QCOMPARE(m.windowLayers, WindowLayers::Alternate);
        QVERIFY(m.attentionSinks && m.attentionBias && m.expertBias() && m.routerBias());
        QCOMPARE(m.mlp, MlpKind::ClampedSwiGlu);
    }
    // 120B: about 116.8B parameters (openai/gpt-oss model card: 116.83B total, 5.13B active).
    const SparseParameterCounts c =
        sparseParameterCounts(Catalog::builtIn().model("gpt-oss-120b")->model);
    QVERIFY2(std::abs(c.total / 116.83e9 - 1.0) < 0.01, QByteArray::number(c.total / 1e9));
    // The card's active count leaves out the input embedding (201,088 x 2,880).
    const double active = c.active - 201088.0 * 2880.0;
    QVERIFY2(std::abs(active / 5.13e9 - 1.0) < 0.01, QByteArray::number(active / 1e9));
}

// Keys a query attends to: (s + 1) / 2 in full, (w (w + 1) / 2 + (s - w) w) / s in a window.
void TestModelKeys::windowArithmetic() {
    QCOMPARE(meanAttendedKeys(4096, std::nullopt), 4097.0 / 2.0);
    QCOMPARE(meanAttendedKeys(4096, 128),
             (128.0 * 129.0 / 2.0 + (4096.0 - 128.0) * 128.0) / 4096.0);
    QCOMPARE(meanAttendedKeys(100, 4096), 101.0 / 2.0); // a window longer than the sequence
    ModelConfig m = Catalog::builtIn().model("gpt-oss-20b")->model;
    QCOMPARE(m.windowedLayerFraction(), 0.5);
    QVERIFY(m.windowedLayer(0) && !m.windowedLayer(1) && m.windowedLayer(22));
    const double alternate = meanAttendedKeys(m, 4096);
    QCOMPARE(alternate, 0.5 * meanAttendedKeys(4096, 128) + 0.5 * 4097.0 / 2.0);
    const double windowedFlops = sparseTrainingFlopsPerToken(m, 4096);
    m.slidingWindow.reset();
    QVERIFY(sparseTrainingFlopsPerToken(m, 4096) > windowedFlops);
}

// The fused kernel computes the band's tiles only: a 128-token window over 8k tokens costs
// about 2 (w / B + 1) / nb of the causal tiles.
void TestModelKeys::windowedKernel() {
    const HardwareProfile hw =
        defaultHardwareProfile(Catalog::builtIn().gpu("h100-sxm-80gb")->spec);
    AttentionShape full{64, 8192, 64, true};
    AttentionShape band = full;
    band.window = 128;
    const double ratio = attentionFlops(hw, band) / attentionFlops(hw, full);
    QVERIFY2(ratio > 0.01 && ratio < 0.1, QByteArray::number(ratio));
    QVERIFY(attentionForwardSeconds(hw, band) < attentionForwardSeconds(hw, full));
    QVERIFY(attentionBackwardSeconds(hw, band) < attentionBackwardSeconds(hw, full));
    band.window = 1 << 20; // wider than the sequence: the causal kernel
    QCOMPARE(attentionFlops(hw, band), attentionFlops(hw, full));
}

void TestModelKeys::windowShortensStep() {
    json doc = gptOss();
    const Estimate windowed = estimateOf(doc);
    doc["model"]["sliding_window"] = nullptr;
    const Estimate full = estimateOf(doc);
    QVERIFY(windowed.stepSeconds < full.stepSeconds);
    QVERIFY(windowed.modelTflopsPerGpu * windowed.stepSeconds <
            full.modelTflopsPerGpu * full.stepSeconds); // fewer FLOPs counted
}

// Sinks: Transformer Engine runs them in cuDNN (Hopper, Blackwell); FlashAttention takes none,
// so "flash" warns, and "unfused" materialises the scores (slower, more memory).
void TestModelKeys::sinksNeedAFusedKernel() {
    json doc = gptOss();
    doc["execution"] = {{"attention_backend", "flash"}};
    Diagnostics diags;
    QVERIFY(resolved(doc, diags));
    QVERIFY2(joinDiagnostics(diags).find("/execution/attention_backend") != std::string::npos,
             joinDiagnostics(diags).c_str());
    // Without recompute, so that the attention core's activations stay (selective recompute
    // of core_attn would drop the scores as it drops flash's statistics).
    doc = gptOss();
    doc["parallelism"]["recompute"] = "none";
    const Estimate cudnn = estimateOf(doc);
    doc["execution"] = {{"attention_backend", "unfused"}};
    const Estimate unfused = estimateOf(doc);
    QVERIFY(unfused.stepSeconds > cudnn.stepSeconds);
    QVERIFY(unfused.peakBytes > cudnn.peakBytes);
    // PyTorch-native frameworks fall back to the unfused path with sinks.
    doc["execution"] = {{"framework", "pytorch"}};
    const Estimate native = estimateOf(doc);
    QVERIFY(native.peakBytes > cudnn.peakBytes);
}

// Biases and sinks add parameters: QKV + output biases, a sink per head, expert biases.
void TestModelKeys::biasesCount() {
    ModelConfig m = Catalog::builtIn().model("gpt-oss-20b")->model;
    const double with = sparseParameterCounts(m).total;
    m.attentionBias = false;
    m.attentionSinks = false;
    m.moe->expertBias = false;
    m.moe->routerBias = false;
    const double without = sparseParameterCounts(m).total;
    const double q = 64 * 64, kv = 8 * 64, h = 2880, ffn = 2880, e = 32;
    const double perLayer = (q + 2 * kv + h) + 64 + e * (2 * ffn + h) + e;
    QCOMPARE(with - without, 24 * perLayer);
}

// FP8: the cache holds 2 bytes per weight on Hopper and 1 on Blackwell (per-tensor); without
// it, a copy per micro-batch in flight instead.
void TestModelKeys::fp8WeightCache() {
    json doc = json::parse(
        test::readAll(test::sourceDir() + "/resources/examples/llama3-70b-64xh100.json"));
    doc["training"]["precision"] = "fp8";
    const Estimate cached = estimateOf(doc);
    doc["execution"]["fp8_weight_cache"] = false;
    const Estimate uncached = estimateOf(doc);
    QVERIFY(uncached.peakBreakdown.weights < cached.peakBreakdown.weights);
    QVERIFY(uncached.peakBreakdown.activations > cached.peakBreakdown.activations);
}

void TestModelKeys::linearChunkedLoss() {
    json doc =
        json::parse(test::readAll(test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json"));
    doc["execution"]["cross_entropy"] = "chunked";
    const Estimate chunked = estimateOf(doc);
    doc["execution"]["cross_entropy"] = "linear-chunked";
    const Estimate linear = estimateOf(doc);
    QVERIFY(linear.peakBytes < chunked.peakBytes);
    doc["execution"]["loss_chunks"] = 32;
    QVERIFY(estimateOf(doc).peakBytes < linear.peakBytes);
}

void TestModelKeys::peakActive() {
    const Estimate e = estimateOf(gptOss());
    QCOMPARE(e.peakActiveBytes, e.peakAllocatedBytes);
    const auto j = estimateToJson(e);
    QVERIFY(j.at("memory").contains("peak_active_bytes"));
}

// Bad values name their path and what would be right.
void TestModelKeys::badValues() {
    const auto errorAt = [](json doc, const char* path) {
        Diagnostics diags;
        const bool ok = resolved(doc, diags).has_value();
        return !ok && joinDiagnostics(diags).find(path) != std::string::npos;
    };
    json doc = gptOss();
    doc["model"]["sliding_window"] = 0;
    QVERIFY(errorAt(doc, "/model/sliding_window"));
    doc = gptOss();
    doc["model"]["window_layers"] = "odd";
    QVERIFY(errorAt(doc, "/model/window_layers"));
    doc = gptOss();
    doc["execution"] = {{"attention_backend", "xformers"}};
    QVERIFY(errorAt(doc, "/execution/attention_backend"));
    doc = gptOss();
    doc["execution"] = {{"loss_chunks", 0}};
    QVERIFY(errorAt(doc, "/execution/loss_chunks"));
    doc = gptOss();
    doc["model"]["mlp"] = "clamped_swiglu";
    QVERIFY(errorAt(doc, "/model/mlp"));
}

// The Megatron-LM export of the keys, and the core_v0.15.0 startup checks a plan reaches:
// window (W - 1, 0) and skip frequency 2, learnable softmax, biases all together (refused when
// they differ), etp 1 with MoE biases, kv_heads % tp, seq_len % 2 cp, top-1 pre-softmax.
void TestModelKeys::megatronExport() {
    const Exporter* megatron = findExporter("megatron");
    const auto render = [&](const json& doc) {
        Diagnostics diags;
        auto r = resolved(doc, diags);
        if (!r)
            qFatal("%s", joinDiagnostics(diags).c_str());
        return megatron->render(*r, ExportOptions{});
    };
    const auto refusedAt = [](const ExportResult& r, const std::string& path) {
        for (const ExportRefusal& x : r.refusals)
            if (x.path == path)
                return true;
        return false;
    };
    json doc = gptOss();
    doc["parallelism"]["overlap"] = {{"tp", false}, {"dp", true}, {"pp", false}};
    const ExportResult ok = render(doc);
    QVERIFY2(ok.refusals.empty(), ok.refusals.empty() ? "" : ok.refusals[0].toString().c_str());
    const std::string script = ok.files.at(0).text;
    for (const char* flag :
         {"--window-size '127,0'", "--window-attn-skip-freq 2", "--softmax-type learnable",
          "--quick-geglu", "--activation-func-clamp-value 7.0", "--glu-linear-offset 1.0",
          "--no-bias-dropout-fusion"})
        QVERIFY2(script.find(flag) != std::string::npos, flag);
    QVERIFY(script.find("--disable-bias-linear") == std::string::npos);
    QVERIFY(script.find("--swiglu") == std::string::npos);

    json mixed = doc;
    mixed["model"]["attention_bias"] = false;
    QVERIFY(refusedAt(render(mixed), "/model/attention_bias"));
    json etp = doc;
    etp["parallelism"]["etp"] = 2;
    etp["parallelism"]["tp"] = 2;
    etp["parallelism"]["dp"] = 8;
    etp["parallelism"]["sequence_parallel"] = true;
    QVERIFY(refusedAt(render(etp), "/parallelism/etp"));
    json kv = doc;
    kv["parallelism"]["tp"] = 16;
    kv["parallelism"]["pp"] = 1;
    kv["parallelism"]["ep"] = 4;
    kv["parallelism"]["dp"] = 4;
    kv["parallelism"]["sequence_parallel"] = true;
    QVERIFY(refusedAt(render(kv), "/parallelism/tp")); // 8 KV heads over tp 16
    json cp = doc;
    cp["training"]["seq_len"] = 4098; // divisible by cp, not by 2 cp
    cp["parallelism"]["cp"] = 2;
    cp["parallelism"]["dp"] = 8;
    QVERIFY(refusedAt(render(cp), "/parallelism/cp"));
    json top1 = doc;
    top1["model"]["moe"] = {{"experts", 128},
                            {"top_k", 1},
                            {"expert_ffn_hidden", 2880},
                            {"expert_bias", true},
                            {"router_bias", true}};
    QVERIFY(render(top1).files.at(0).text.find("--moe-router-pre-softmax") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestModelKeys)
#include "tst_model_keys.moc"
