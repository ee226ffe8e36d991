// Fine-tuning keys (shared/spec/scenario-format.md, "Fine-tuning keys"): reading, writing,
// resolving with defaults, the explicit scenario, and the errors that name the field: a LoRA
// target the model lacks, a rank of 0 or above the hidden size, a quantised base on full
// fine-tuning, BF16 on a GPU without it, optimizer-in-backward with accumulation. Then the
// physics by hand: NF4 storage, the frozen base and the adapters of a QLoRA, full
// fine-tuning as pre-training without master weights (no special case), 8-bit Adam,
// optimizer-in-backward, the LoRA backward without weight gradients, and the allocator's
// allocated <= reserved <= device figures.

#include "catalog/Catalog.h"
#include "estimate/AllocatorMemory.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "estimate/FinetuneMemory.h"
#include "model/TransformerArithmetic.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <string>

using namespace ts;

namespace {

// Llama 3.1 8B on one workstation GPU, with `finetune` and extra training keys spliced in.
std::string scenarioText(const std::string& finetune, const std::string& training = "",
                         const std::string& gpu = "rtx-4090", const std::string& model = "") {
    return R"({"format": "trainscape.scenario/1",
  "model": )" +
           (model.empty() ? std::string(R"({"preset": "llama3-8b"})") : model) + R"(,
  "cluster": {"preset": "workstation-1x", "gpu": ")" +
           gpu + R"(", "num_gpus": 1},
  "training": {"seq_len": 2048, "global_batch": 2, "micro_batch": 2)" +
           training + R"(},
  "parallelism": {"recompute": "full"})" +
           (finetune.empty() ? std::string() : ",\n  \"finetune\": " + finetune) + "}";
}

std::optional<ResolvedScenario> resolveText(const std::string& text, Diagnostics& diags) {
    auto s = parseScenarioText(text, diags);
    if (!s)
        return std::nullopt;
    return resolveScenario(*s, Catalog::builtIn(), diags);
}

std::string firstError(const Diagnostics& d) {
    return d.errors().empty() ? std::string() : d.errors().front().toString();
}

} // namespace

class TestFinetune : public QObject {
    Q_OBJECT
private slots:
    void readsAndWritesEveryKey();
    void resolvesDefaults();
    void explicitScenarioRoundTrips();
    void refusedWithPath_data();
    void refusedWithPath();
    void workstationGpusAndPresets();
    void nf4StorageBytes();
    void qloraStatesByHand();
    void fullFinetuneIsPretrainingWithoutMasters();
    void adam8bitAndOptimizerInBackward();
    void loraBackwardSkipsWeightGradients();
    void allocatorFigures();
    void optimizerStepTemporary();
};

namespace {

constexpr double kGiB = double(1ull << 30);

Estimate estimateText(const std::string& text) {
    Diagnostics diags;
    auto r = resolveText(text, diags);
    if (!r)
        qFatal("%s", firstError(diags).c_str());
    auto e = estimatePlan(*r, diags);
    if (!e)
        qFatal("%s", firstError(diags).c_str());
    return *e;
}

} // namespace

void TestFinetune::readsAndWritesEveryKey() {
    const std::string text = scenarioText(
        R"({"method": "qlora", "lora_rank": 16, "lora_alpha": 32,
            "lora_targets": ["v_proj", "q_proj", "lm_head"], "base_weights": "nf4",
            "double_quant": false})",
        R"(, "optimizer": "adam8bit", "optimizer_in_backward": true, "compile": true,
            "master_weights": false, "optimizer_impl": "for_loop")");
    Diagnostics diags;
    auto s = parseScenarioText(text, diags);
    QVERIFY2(s, firstError(diags).c_str());
    QVERIFY(s->finetune);
    QCOMPARE(*s->finetune->method, FinetuneMethod::Qlora);
    QCOMPARE(*s->finetune->loraRank, 16);
    QCOMPARE(*s->finetune->loraAlpha, 32.0);
    QCOMPARE(s->finetune->loraTargets->size(), std::size_t(3));
    QCOMPARE(s->finetune->loraTargets->front(), LoraTarget::VProj); // as written
    QCOMPARE(*s->finetune->doubleQuant, false);
    QCOMPARE(*s->training.optimizer, OptimizerKind::Adam8bit);
    QVERIFY(*s->training.optimizerInBackward && *s->training.compile);
    QVERIFY(!*s->training.masterWeights);
    QCOMPARE(*s->training.optimizerImpl, OptimizerImpl::ForLoop);
    // Written back, read again: the same scenario.
    Diagnostics d2;
    auto again = parseScenarioText(scenarioToText(*s), d2);
    QVERIFY(again);
    QVERIFY(*again == *s);
    const std::string written = scenarioToText(*s);
    QVERIFY(written.find("\"lora_targets\"") != std::string::npos);
    QVERIFY(written.find("\"optimizer_in_backward\": true") != std::string::npos);
    QVERIFY(written.find("\"optimizer_impl\": \"for_loop\"") != std::string::npos);
}

void TestFinetune::resolvesDefaults() {
    Diagnostics diags;
    auto r = resolveText(scenarioText(R"({"method": "qlora"})"), diags);
    QVERIFY2(r, firstError(diags).c_str());
    QVERIFY(r->finetune);
    const FinetuneConfig& f = *r->finetune;
    QCOMPARE(f.baseWeights, BaseWeights::Nf4); // QLoRA's default
    QVERIFY(f.doubleQuant);
    QCOMPARE(f.loraRank, 8); // PEFT LoraConfig defaults
    QCOMPARE(f.loraAlpha, 8.0);
    QCOMPARE(f.targets, (std::vector<LoraTarget>{LoraTarget::QProj, LoraTarget::VProj}));
    QVERIFY(!r->training.masterWeights); // states in the training precision
    QVERIFY(!r->training.optimizerInBackward && !r->training.compiled());
    QCOMPARE(r->training.optimizerImpl, OptimizerImpl::Fused);

    Diagnostics d2;
    auto lora = resolveText(scenarioText(R"({"method": "lora"})", R"(, "precision": "fp16")"), d2);
    QVERIFY2(lora, firstError(d2).c_str());
    QCOMPARE(lora->finetune->baseWeights, BaseWeights::Fp16); // the training precision

    Diagnostics d3;
    auto pre = resolveText(scenarioText(""), d3);
    QVERIFY(pre);
    QVERIFY(!pre->finetune);
    QVERIFY(pre->training.masterWeights); // pre-training keeps FP32 masters
}

void TestFinetune::explicitScenarioRoundTrips() {
    for (const char* ft : {R"({"method": "full"})", R"({"method": "lora", "lora_rank": 64})",
                           R"({"method": "qlora", "base_weights": "int8"})"}) {
        Diagnostics diags;
        auto r = resolveText(scenarioText(ft, R"(, "compile": true)"), diags);
        QVERIFY2(r, firstError(diags).c_str());
        const Scenario s = explicitScenario(*r);
        Diagnostics d2;
        auto back = resolveScenario(s, Catalog::builtIn(), d2);
        QVERIFY2(back, firstError(d2).c_str());
        QVERIFY(back->finetune == r->finetune);
        QVERIFY(back->training == r->training);
    }
}

void TestFinetune::refusedWithPath_data() {
    QTest::addColumn<QString>("finetune");
    QTest::addColumn<QString>("training");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("says");
    const QString gelu = R"({"layers": 24, "hidden": 2048, "ffn_hidden": 8192, "heads": 16,
        "vocab": 50304, "mlp": "gelu"})";
    QTest::newRow("target the model lacks")
        << R"({"method": "lora", "lora_targets": ["q_proj", "gate_proj"]})"
        << ""
        << "rtx-4090" << gelu << "/finetune/lora_targets/1"
        << "no gate_proj";
    QTest::newRow("unknown target") << R"({"method": "lora", "lora_targets": ["query"]})"
                                    << ""
                                    << "rtx-4090"
                                    << ""
                                    << "/finetune/lora_targets/0"
                                    << "expected one of q_proj";
    QTest::newRow("target twice") << R"({"method": "lora", "lora_targets": ["q_proj", "q_proj"]})"
                                  << ""
                                  << "rtx-4090"
                                  << ""
                                  << "/finetune/lora_targets/1"
                                  << "twice";
    QTest::newRow("rank 0") << R"({"method": "lora", "lora_rank": 0})"
                            << ""
                            << "rtx-4090"
                            << ""
                            << "/finetune/lora_rank"
                            << "rank of 1 or more";
    QTest::newRow("rank above hidden") << R"({"method": "qlora", "lora_rank": 5000})"
                                       << ""
                                       << "rtx-4090"
                                       << ""
                                       << "/finetune/lora_rank"
                                       << "at most 4096";
    QTest::newRow("nf4 on full") << R"({"method": "full", "base_weights": "nf4"})"
                                 << ""
                                 << "rtx-4090"
                                 << ""
                                 << "/finetune/base_weights"
                                 << "method \"qlora\"";
    QTest::newRow("rank on full") << R"({"method": "full", "lora_rank": 8})"
                                  << ""
                                  << "rtx-4090"
                                  << ""
                                  << "/finetune/lora_rank"
                                  << "only applies";
    QTest::newRow("nf4 on lora") << R"({"method": "lora", "base_weights": "nf4"})"
                                 << ""
                                 << "rtx-4090"
                                 << ""
                                 << "/finetune/base_weights"
                                 << "QLoRA";
    QTest::newRow("16-bit qlora") << R"({"method": "qlora", "base_weights": "bf16"})"
                                  << ""
                                  << "rtx-4090"
                                  << ""
                                  << "/finetune/base_weights"
                                  << "method \"lora\"";
    QTest::newRow("method missing") << R"({"lora_rank": 8})"
                                    << ""
                                    << "rtx-4090"
                                    << ""
                                    << "/finetune/method"
                                    << "";
    QTest::newRow("bf16 on T4") << R"({"method": "qlora"})"
                                << ""
                                << "t4"
                                << ""
                                << "/training/precision"
                                << "use \"fp16\"";
    QTest::newRow("bf16 base on T4") << R"({"method": "lora", "base_weights": "bf16"})"
                                     << R"(, "precision": "fp16")"
                                     << "t4"
                                     << ""
                                     << "/finetune/base_weights"
                                     << "no BF16";
    QTest::newRow("optimizer in backward with accumulation")
        << R"({"method": "full"})"
        << R"(, "global_batch": 8, "optimizer_in_backward": true)"
        << "rtx-4090"
        << ""
        << "/training/optimizer_in_backward"
        << "4 micro-batches";
    QTest::newRow("unknown optimizer implementation") << R"({"method": "full"})"
                                                      << R"(, "optimizer_impl": "multi_tensor")"
                                                      << "rtx-4090"
                                                      << ""
                                                      << "/training/optimizer_impl"
                                                      << "foreach";
    QTest::newRow("unknown finetune key") << R"({"method": "lora", "rank": 8})"
                                          << ""
                                          << "rtx-4090"
                                          << ""
                                          << "/finetune/rank"
                                          << "";
}

void TestFinetune::refusedWithPath() {
    QFETCH(QString, finetune);
    QFETCH(QString, training);
    QFETCH(QString, gpu);
    QFETCH(QString, model);
    QFETCH(QString, path);
    QFETCH(QString, says);
    std::string text = scenarioText(finetune.toStdString(), training.toStdString(),
                                    gpu.toStdString(), model.toStdString());
    // "global_batch" given twice: the later one (in `training`) is the test's.
    if (training.contains("global_batch"))
        text.replace(text.find(R"("global_batch": 2, )"), 19, "");
    Diagnostics diags;
    QVERIFY(!resolveText(text, diags));
    QVERIFY2(diags.hasErrorAt(path.toStdString()), firstError(diags).c_str());
    bool said = says.isEmpty();
    for (const Diagnostic& d : diags.errors())
        if (d.path == path.toStdString() && d.message.find(says.toStdString()) != std::string::npos)
            said = true;
    QVERIFY2(said, firstError(diags).c_str());
}

void TestFinetune::workstationGpusAndPresets() {
    const Catalog& catalog = Catalog::builtIn();
    for (const char* id : {"rtx-4090", "rtx-a6000", "rtx-6000-ada", "l40s", "l4", "a10g", "t4"}) {
        const GpuEntry* g = catalog.gpu(id);
        QVERIFY2(g, id);
        QVERIFY(g->spec.memoryGiB > 0 && g->spec.hbmGBps > 0 && g->spec.tdpW > 0);
        QVERIFY(g->spec.bf16Tflops > 0 || g->spec.fp16Tflops);
    }
    QCOMPARE(catalog.gpu("t4")->spec.bf16Tflops, 0.0);
    QCOMPARE(catalog.gpu("rtx-4090")->spec.memoryGiB, 24.0);
    for (int n : {1, 2, 4, 8}) {
        const ClusterPreset* c = catalog.cluster("workstation-" + std::to_string(n) + "x");
        QVERIFY(c);
        QCOMPARE(c->gpusPerNode, n);
        QCOMPARE(c->scaleUp.domainGpus, n);
        QVERIFY(c->scaleUp.bandwidthGBps < 32); // PCIe, no NVLink
    }
}

void TestFinetune::nf4StorageBytes() {
    // QLoRA sec. 3: 4 bits + a 32-bit absmax per 64 weights = 4.5 bits; double quantisation
    // 4 + 8/64 + 32/(64 * 256) = 4.127 bits.
    QCOMPARE(baseWeightBytesPerParam(BaseWeights::Nf4, false, 4096), 0.5 + 4.0 / 64);
    QCOMPARE(baseWeightBytesPerParam(BaseWeights::Nf4, true, 4096) * 8,
             4.0 + 8.0 / 64 + 32.0 / 16384);
    QCOMPARE(baseWeightBytesPerParam(BaseWeights::Int8, false, 4096), 1.0 + 4.0 / 4096);
    QCOMPARE(baseWeightBytesPerParam(BaseWeights::Bf16, false, 4096), 2.0);
}

void TestFinetune::qloraStatesByHand() {
    const Estimate e = estimateText(scenarioText(
        R"({"method": "qlora", "lora_rank": 8, "lora_targets": ["q_proj", "k_proj", "v_proj",
            "o_proj", "gate_proj", "up_proj", "down_proj"]})"));
    // Llama 3.1 8B: per layer q, o 4096 x 4096, k, v 4096 x 1024, gate, up, down 4096 x 14336.
    const double h = 4096, kv = 1024, ffn = 14336, layers = 32, r = 8;
    const double linear = layers * (2 * h * h + 2 * h * kv + 3 * h * ffn);
    const double nf4 = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
    const double matrices = 2 * 128256 * h * 2.0; // embedding and output in bf16
    const double norms = (layers * 2 + 1) * h * 2.0;
    QVERIFY(std::abs(e.peakBreakdown.frozenWeights - (linear * nf4 + matrices + norms)) < 1e3);
    const double adapters = layers * r * (2 * (h + h) + 2 * (h + kv) + 2 * (h + ffn) + (ffn + h));
    const double adapterWeights = e.peakBreakdown.weights - e.peakBreakdown.frozenWeights;
    QVERIFY(std::abs(adapterWeights - 2.0 * adapters) < 1.0);            // bf16, no master weights
    QVERIFY(std::abs(e.peakBreakdown.optimizer - 4.0 * adapters) < 1.0); // bf16 Adam moments
    // No gradient persists at the activation peak (one micro-batch, set_to_none).
    QCOMPARE(e.peakBreakdown.gradients, 0.0);
    QVERIFY(e.fits);
}

void TestFinetune::fullFinetuneIsPretrainingWithoutMasters() {
    const Estimate full = estimateText(scenarioText(R"({"method": "full"})"));
    const Estimate pre = estimateText(scenarioText("", R"(, "master_weights": false)"));
    QCOMPARE(full.peakBytes, pre.peakBytes);
    QCOMPARE(full.stepSeconds, pre.stepSeconds);
    QCOMPARE(full.peakBreakdown.frozenWeights, 0.0);
    const double params = countParameters(Catalog::builtIn().model("llama3.1-8b")->model).total();
    QVERIFY(std::abs(full.peakBreakdown.weights - 2.0 * params) < 1e3);
    QVERIFY(std::abs(full.peakBreakdown.optimizer - 4.0 * params) < 1e3);
}

void TestFinetune::adam8bitAndOptimizerInBackward() {
    const double params = countParameters(Catalog::builtIn().model("llama3.1-8b")->model).total();
    const Estimate adam = estimateText(scenarioText(R"({"method": "full"})"));
    const Estimate eight =
        estimateText(scenarioText(R"({"method": "full"})", R"(, "optimizer": "adam8bit")"));
    QVERIFY(std::abs(eight.peakBreakdown.optimizer - params * 2.0 * (1.0 + 4.0 / 2048)) < 1e3);
    QVERIFY(eight.peakAllocatedBytes < adam.peakAllocatedBytes - 1.9 * params); // 4 -> 2 B
    // Here the gradients (16 GB) outweigh the checkpointed activations, so the peak is at the
    // end of the backward; stepping in the backward leaves one gradient live there.
    const Estimate inBackward =
        estimateText(scenarioText(R"({"method": "full"})", R"(, "optimizer_in_backward": true)"));
    QVERIFY(inBackward.peakAllocatedBytes < adam.peakAllocatedBytes);
    QVERIFY(adam.peakAllocatedBytes - inBackward.peakAllocatedBytes > 0.25 * 2.0 * params);
}

void TestFinetune::loraBackwardSkipsWeightGradients() {
    const Estimate full = estimateText(scenarioText(R"({"method": "full"})"));
    const Estimate lora = estimateText(scenarioText(R"({"method": "lora"})"));
    const Estimate qlora = estimateText(scenarioText(R"({"method": "qlora"})"));
    // The frozen base's backward is its input-gradient GEMMs alone: about 2/3 of full's compute.
    QVERIFY(lora.time.compute < 0.8 * full.time.compute);
    QVERIFY(lora.time.compute > 0.55 * full.time.compute);
    // NF4 dequantises every base linear each pass.
    QVERIFY(qlora.stepSeconds > lora.stepSeconds);
    QVERIFY(qlora.peakBytes < lora.peakBytes - 8 * kGiB);
}

void TestFinetune::optimizerStepTemporary() {
    // Llama 3.1 8B full fine-tune on one 80 GB A100, states in bf16: the gradients (16 GB)
    // outweigh the checkpointed activations, so the fused step's peak is the backward's end.
    const std::string full = R"({"method": "full"})";
    const auto on = [&](const std::string& training) {
        return estimateText(scenarioText(full, training, "a100-sxm-80gb"));
    };
    const double params = countParameters(Catalog::builtIn().model("llama3.1-8b")->model).total();
    const Estimate fused = on("");
    const Estimate foreach_ = on(R"(, "optimizer_impl": "foreach")");
    QCOMPARE(on(R"(, "optimizer_impl": "fused")").peakAllocatedBytes, fused.peakAllocatedBytes);
    // foreach Adam: torch._foreach_sqrt(exp_avg_sqs) allocates the second moments' size (2 B
    // per parameter in bf16) beside every state and gradient, no activation.
    const double states = 2.0 * params + 2.0 * params + 4.0 * params;
    QVERIFY2(std::abs(foreach_.peakAllocatedBytes - (states + 2.0 * params)) < 1e6,
             qPrintable(QString("foreach peak %1 GiB, hand %2 GiB")
                            .arg(foreach_.peakAllocatedBytes / kGiB)
                            .arg((states + 2.0 * params) / kGiB)));
    QVERIFY(std::abs(foreach_.peakBreakdown.optimizer - 6.0 * params) < 1e6); // moments + temp
    QCOMPARE(foreach_.peakBreakdown.activations, 0.0);
    QVERIFY(foreach_.peakAllocatedBytes > fused.peakAllocatedBytes + 1.5 * params);
    QVERIFY(foreach_.peakReservedBytes >= foreach_.peakAllocatedBytes);
    // One tensor at a time: the largest (the 128256 x 4096 output matrix) in bf16.
    const Estimate loop = on(R"(, "optimizer_impl": "for_loop")");
    const double largest = 2.0 * 128256.0 * 4096.0;
    QCOMPARE(loop.peakAllocatedBytes, std::max(fused.peakAllocatedBytes, states + largest));
    // No temporary where the step runs elsewhere or per parameter in the backward.
    QCOMPARE(
        on(R"(, "optimizer_impl": "foreach", "optimizer_in_backward": true)").peakAllocatedBytes,
        on(R"(, "optimizer_in_backward": true)").peakAllocatedBytes);
    QCOMPARE(on(R"(, "optimizer_impl": "foreach", "optimizer": "adam8bit")").peakAllocatedBytes,
             on(R"(, "optimizer": "adam8bit")").peakAllocatedBytes);
}

void TestFinetune::allocatorFigures() {
    for (const std::string& ft : {std::string(), std::string(R"({"method": "qlora"})")}) {
        const Estimate e = estimateText(scenarioText(ft));
        QVERIFY(e.peakAllocatedBytes > 0);
        QVERIFY(e.peakAllocatedBytes <= e.peakReservedBytes);
        QVERIFY(e.peakReservedBytes < e.peakBytes);
        QVERIFY(std::abs(e.peakBreakdown.total() - e.peakBytes) < 1.0);
        const auto json = estimateToJson(e);
        QCOMPARE(json["memory"]["peak_allocated_bytes"].get<double>(),
                 std::round(e.peakAllocatedBytes));
        QCOMPARE(json["memory"]["peak_reserved_bytes"].get<double>(),
                 std::round(e.peakReservedBytes));
        QCOMPARE(json["memory"].contains("frozen_weights_bytes"), !ft.empty());
    }
    // Gradients that outlive the backward (master weights' persistent buffer) meet the
    // activations; freed ones (set_to_none) do not.
    TensorMoments m;
    m.weights = 10;
    m.gradients = 4;
    m.activations = 6;
    m.gradientsPersist = true;
    QCOMPARE(allocatorPeaks(m).allocated, 20.0);
    m.gradientsPersist = false;
    QCOMPARE(allocatorPeaks(m).allocated, 16.0);
    m.activations = 2;
    const AllocatorPeaks end = allocatorPeaks(m);
    QCOMPARE(end.allocated, 14.0);
    QVERIFY(!end.activationMoment);
    QCOMPARE(end.gradientsAtPeak, 4.0);
    // The loss's saved logits are freed before the last layer rebuilds its activations: the
    // two are never live together, and layer 0's working set meets every gradient.
    TensorMoments split;
    split.weights = 10;
    split.gradients = 4;
    split.gradientsPersist = false;
    split.activations = 3;
    split.lossActivations = 5;
    split.layerWorkingSet = 2;
    QCOMPARE(allocatorPeaks(split).allocated, 18.0); // 10 + 3 + 5, not 10 + 3 + 5 + 2
    QCOMPARE(allocatorPeaks(split).activationsAtPeak, 8.0);
    split.lossActivations = 0.5;
    QCOMPARE(allocatorPeaks(split).allocated, 16.0); // the end: 10 + 4 + 2
    QCOMPARE(allocatorPeaks(split).activationsAtPeak, 2.0);
    // Megatron-LM's accounting sums them (AllocatorMemory.h, lossFreedBeforeLayers).
    split.lossFreedBeforeLayers = false;
    split.lossActivations = 5;
    QCOMPARE(allocatorPeaks(split).allocated, 20.0);
}

QTEST_GUILESS_MAIN(TestFinetune)
#include "tst_finetune.moc"
