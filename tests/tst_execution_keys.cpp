// The execution keys of scenario format v1 ("Execution keys": execution.moe_dispatcher,
// moe_grouped_gemm, moe_force_balance, cuda_graphs, recompute_modules, fp8_attention,
// host_launch_us; the project's framework) and the two pipeline-split keys: reading and lossless
// writing, defaults, the split of the layers over the chunks, the explicit (--resolved) scenario,
// and errors that name the JSON path.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <map>

using namespace ts;
using nlohmann::json;

namespace {

// A MoE model on 64 GPUs with a pipeline (explicit GPU: needs no catalog entry).
const char* kMoe = R"({
  "format": "trainscape.scenario/1",
  "model": {"layers": 30, "hidden": 2048, "ffn_hidden": 8192, "heads": 16, "kv_heads": 4,
            "vocab": 32000, "mlp": "swiglu",
            "moe": {"experts": 64, "top_k": 8, "expert_ffn_hidden": 768}},
  "cluster": {"gpu": {"name": "Test GPU", "memory_gib": 80, "hbm_gb_s": 3350, "bf16_tflops": 989.4,
                      "fp8_tflops": 1978.9, "fp32_tflops": 66.9, "tdp_w": 700},
              "num_gpus": 64, "gpus_per_node": 8,
              "scale_up": {"domain_gpus": 8, "bandwidth_gb_s": 450},
              "scale_out": {"nic_gbit_s": 400}},
  "training": {"seq_len": 4096, "global_batch": 512, "precision": "fp8"},
  "parallelism": {"tp": 1, "pp": 4, "vpp": 2, "ep": 8}
})";

std::string messages(const Diagnostics& d) {
    std::string out;
    for (const auto& item : d.all())
        out += item.toString() + "\n";
    return out;
}

std::optional<ResolvedScenario> resolveJson(const json& doc, Diagnostics& diags) {
    auto scenario = parseScenarioText(doc.dump(), diags);
    return scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags) : std::nullopt;
}

bool hasMessage(const std::vector<Diagnostic>& list, const std::string& path,
                const std::string& part) {
    for (const auto& d : list)
        if (d.path == path && d.message.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestExecutionKeys : public QObject {
    Q_OBJECT
private slots:
    void defaults();
    void everyKeyRoundTrips();
    void keysResolve();
    void pipelineSplitSlots_data();
    void pipelineSplitSlots();
    void explicitScenarioKeepsTheKeys();
    void badKeys_data();
    void badKeys();
    void keysWithoutEffectWarn();
    void estimateSaysWhatIsNotModelled();
    void frameworkInferredOrStated();
    void crossEntropyInferredOrStated();
};

void TestExecutionKeys::defaults() {
    Diagnostics diags;
    const auto r = resolveJson(json::parse(kMoe), diags);
    QVERIFY2(r, messages(diags).c_str());
    QCOMPARE(r->execution.moeDispatcher, MoeDispatcher::AllToAll);
    QCOMPARE(r->execution.moeGroupedGemm, MoeGroupedGemm::Grouped);
    QCOMPARE(r->execution.cudaGraphs, CudaGraphs::None);
    QVERIFY(!r->execution.moeForceBalance);
    QVERIFY(!r->execution.fp8Attention);
    QVERIFY(r->execution.recomputeModules.empty()); // recompute "none"
    QCOMPARE(r->execution.hostLaunchUs, kDefaultHostLaunchUs);
    QVERIFY(!r->parallel.embeddingInPipelineSplit);
    // Selective recompute without recompute_modules recomputes the attention core.
    json doc = json::parse(kMoe);
    doc["parallelism"]["recompute"] = "selective";
    const auto s = resolveJson(doc, diags);
    QVERIFY(s);
    QCOMPARE(s->execution.recomputeModules,
             std::vector<RecomputeModule>{RecomputeModule::CoreAttn});
}

void TestExecutionKeys::everyKeyRoundTrips() {
    json doc = json::parse(kMoe);
    doc["parallelism"]["embedding_in_pipeline_split"] = true;
    doc["parallelism"]["loss_in_pipeline_split"] = false;
    doc["parallelism"]["recompute"] = "selective";
    doc["execution"] = {{"moe_dispatcher", "hybridep"},
                        {"moe_grouped_gemm", "per-expert"},
                        {"moe_force_balance", true},
                        {"cuda_graphs", "layers"},
                        {"recompute_modules", {"layernorm", "moe_act"}},
                        {"fp8_attention", true},
                        {"host_launch_us", 7.5},
                        {"framework", "pytorch"},
                        {"cross_entropy", "chunked"}};
    for (const json& nulls : {json::object(), json{{"recompute_modules", nullptr},
                                                   {"host_launch_us", nullptr},
                                                   {"framework", nullptr},
                                                   {"cross_entropy", nullptr}}}) {
        json d = doc;
        d["execution"].update(nulls);
        Diagnostics diags;
        const auto first = parseScenarioText(d.dump(), diags);
        QVERIFY2(first, messages(diags).c_str());
        const std::string written = scenarioToText(*first);
        // Lossless (null kept as null); the MoE object is written with all its keys.
        const json back = json::parse(written);
        QCOMPARE(back.at("execution"), d.at("execution"));
        QCOMPARE(back.at("parallelism"), d.at("parallelism"));
        const auto second = parseScenarioText(written, diags);
        QVERIFY(second && *second == *first);
    }
}

void TestExecutionKeys::keysResolve() {
    json doc = json::parse(kMoe);
    doc["model"]["layers"] = 32;
    doc["parallelism"]["recompute"] = "selective";
    doc["execution"] = {
        {"moe_dispatcher", "deepep"}, {"moe_grouped_gemm", "fused"},  {"moe_force_balance", true},
        {"cuda_graphs", "full"},      {"recompute_modules", {"moe"}}, {"fp8_attention", true},
        {"host_launch_us", 3},        {"framework", "megatron"},      {"cross_entropy", "plain"}};
    Diagnostics diags;
    const auto r = resolveJson(doc, diags);
    QVERIFY2(r, messages(diags).c_str());
    QVERIFY2(diags.warnings().empty(), messages(diags).c_str());
    QCOMPARE(r->execution.moeDispatcher, MoeDispatcher::DeepEp);
    QCOMPARE(r->execution.moeGroupedGemm, MoeGroupedGemm::Fused);
    QCOMPARE(r->execution.cudaGraphs, CudaGraphs::Full);
    QVERIFY(r->execution.moeForceBalance && r->execution.fp8Attention);
    QVERIFY(r->execution.recomputes(RecomputeModule::Moe));
    QCOMPARE(r->execution.framework, Framework::Megatron);
    QCOMPARE(r->execution.crossEntropy, CrossEntropy::Plain);
    QVERIFY(!r->execution.recomputes(RecomputeModule::CoreAttn));
    QCOMPARE(r->execution.hostLaunchUs, 3.0);
}

void TestExecutionKeys::pipelineSplitSlots_data() {
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("vpp");
    QTest::addColumn<bool>("embedding");
    QTest::addColumn<bool>("loss");
    QTest::addColumn<QList<int>>("expected");
    // 126 layers + 2 slots fill 128 chunks: the first and last hold no transformer layer.
    QList<int> ones(128, 1);
    ones.front() = 0;
    ones.back() = 0;
    QTest::newRow("126 layers, 128 chunks, both slots") << 126 << 16 << 8 << true << true << ones;
    QList<int> tail(128, 1); // without the slots the last two chunks stay empty (a warning)
    tail[126] = tail[127] = 0;
    QTest::newRow("126 layers, 128 chunks, no slots") << 126 << 16 << 8 << false << false << tail;
    QTest::newRow("94 layers, pp 8 vpp 4, both") // Qwen3-235B in Megatron-Bridge 26.02
        << 94 << 8 << 4 << true << true
        << QList<int>{2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                      3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2};
    QTest::newRow("30 layers, pp 4, embedding only")
        << 30 << 4 << 1 << true << false << QList<int>{7, 8, 8, 7};
    QTest::newRow("30 layers, pp 4, loss only")
        << 30 << 4 << 1 << false << true << QList<int>{8, 8, 8, 6};
    QTest::newRow("30 layers, pp 4, neither")
        << 30 << 4 << 1 << false << false << QList<int>{8, 8, 7, 7};
}

void TestExecutionKeys::pipelineSplitSlots() {
    QFETCH(int, layers);
    QFETCH(int, pp);
    QFETCH(int, vpp);
    QFETCH(bool, embedding);
    QFETCH(bool, loss);
    QFETCH(QList<int>, expected);
    json doc = json::parse(kMoe);
    doc["model"]["layers"] = layers;
    doc["model"].erase("moe");
    doc["cluster"]["num_gpus"] = pp * 8;
    doc["training"]["global_batch"] = 1024;
    doc["parallelism"] = {{"tp", 8},
                          {"pp", pp},
                          {"vpp", vpp},
                          {"embedding_in_pipeline_split", embedding},
                          {"loss_in_pipeline_split", loss}};
    Diagnostics diags;
    const auto r = resolveJson(doc, diags);
    QVERIFY2(r, messages(diags).c_str());
    QCOMPARE(QList<int>(r->parallel.pipelineLayers.begin(), r->parallel.pipelineLayers.end()),
             expected);
    QCOMPARE(r->parallel.embeddingInPipelineSplit, embedding);
    QCOMPARE(r->parallel.lossInPipelineSplit, loss);
}

void TestExecutionKeys::explicitScenarioKeepsTheKeys() {
    json doc = json::parse(kMoe);
    doc["parallelism"]["embedding_in_pipeline_split"] = true;
    doc["parallelism"]["loss_in_pipeline_split"] = true;
    doc["execution"] = {{"moe_dispatcher", "hybridep"}, {"cuda_graphs", "full"}};
    Diagnostics diags;
    const auto r = resolveJson(doc, diags);
    QVERIFY2(r, messages(diags).c_str());
    const json written = scenarioToJson(explicitScenario(*r));
    const json& e = written.at("execution");
    QCOMPARE(e.at("moe_dispatcher"), json("hybridep"));
    QCOMPARE(e.at("moe_grouped_gemm"), json("grouped"));
    QCOMPARE(e.at("cuda_graphs"), json("full"));
    QCOMPARE(e.at("fp8_attention"), json(false));
    QCOMPARE(e.at("host_launch_us"), json(kDefaultHostLaunchUs));
    QVERIFY(!e.contains("recompute_modules"));      // recompute "none"
    QCOMPARE(e.at("framework"), json("megatron"));  // inferred from ZeRO 0, written resolved
    QCOMPARE(e.at("cross_entropy"), json("fused")); // inferred from the framework
    QCOMPARE(written.at("parallelism").at("embedding_in_pipeline_split"), json(true));
    // Written out and read again, it resolves to the same scenario.
    Diagnostics again;
    const auto back = resolveJson(written, again);
    QVERIFY2(back, messages(again).c_str());
    QCOMPARE(back->execution, r->execution);
    QCOMPARE(back->parallel, r->parallel);
    // A dense model's explicit scenario carries no MoE key.
    json dense = json::parse(kMoe);
    dense["model"].erase("moe");
    dense["parallelism"]["ep"] = 1;
    const auto d = resolveJson(dense, diags);
    QVERIFY(d);
    const json denseWritten = scenarioToJson(explicitScenario(*d));
    QVERIFY(!denseWritten.at("execution").contains("moe_dispatcher"));
}

void TestExecutionKeys::badKeys_data() {
    QTest::addColumn<QString>("patch"); // merged into kMoe
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("hint");
    QTest::newRow("dispatcher unknown") << R"({"execution": {"moe_dispatcher": "nccl"}})"
                                        << "/execution/moe_dispatcher"
                                        << "\"hybridep\"";
    QTest::newRow("grouped gemm unknown") << R"({"execution": {"moe_grouped_gemm": true}})"
                                          << "/execution/moe_grouped_gemm"
                                          << "\"per-expert\"";
    QTest::newRow("cuda graphs unknown") << R"({"execution": {"cuda_graphs": "all"}})"
                                         << "/execution/cuda_graphs"
                                         << "\"layers\"";
    QTest::newRow("force balance a string") << R"({"execution": {"moe_force_balance": "yes"}})"
                                            << "/execution/moe_force_balance"
                                            << "true or false";
    QTest::newRow("unknown key") << R"({"execution": {"cuda_graph": "full"}})"
                                 << "/execution/cuda_graph"
                                 << "did you mean \"cuda_graphs\"";
    QTest::newRow("execution a list") << R"({"execution": ["full"]})"
                                      << "/execution"
                                      << "expected an object";
    QTest::newRow("module unknown") << R"({"parallelism": {"recompute": "selective"},
               "execution": {"recompute_modules": ["core_attn", "attention"]}})"
                                    << "/execution/recompute_modules/1"
                                    << "\"mla_up_proj\"";
    QTest::newRow("module twice") << R"({"parallelism": {"recompute": "selective"},
               "execution": {"recompute_modules": ["moe", "moe"]}})"
                                  << "/execution/recompute_modules/1"
                                  << "named twice";
    QTest::newRow("modules not a list") << R"({"parallelism": {"recompute": "selective"},
               "execution": {"recompute_modules": "core_attn"}})"
                                        << "/execution/recompute_modules"
                                        << "array";
    QTest::newRow("modules without selective") << R"({"parallelism": {"recompute": "full"},
               "execution": {"recompute_modules": ["core_attn"]}})"
                                               << "/execution/recompute_modules"
                                               << "only applies with parallelism.recompute";
    QTest::newRow("fp8 attention in bf16")
        << R"({"training": {"precision": "bf16"}, "execution": {"fp8_attention": true}})"
        << "/execution/fp8_attention"
        << "FP8 training precision";
    QTest::newRow("framework unknown") << R"({"execution": {"framework": "jax"}})"
                                       << "/execution/framework"
                                       << "\"pytorch\"";
    QTest::newRow("cross entropy unknown") << R"({"execution": {"cross_entropy": "liger"}})"
                                           << "/execution/cross_entropy"
                                           << "\"chunked\"";
    QTest::newRow("host launch negative") << R"({"execution": {"host_launch_us": -1}})"
                                          << "/execution/host_launch_us"
                                          << "0 to";
    QTest::newRow("split a number") << R"({"parallelism": {"embedding_in_pipeline_split": 1}})"
                                    << "/parallelism/embedding_in_pipeline_split"
                                    << "true or false";
    QTest::newRow("slots do not fill the chunks")
        << R"({"parallelism": {"pp": 4, "vpp": 16, "loss_in_pipeline_split": true},
               "model": {"layers": 30}})"
        << "/parallelism/vpp"
        << "1 slot for the embedding/loss cannot fill pp*vpp = 4*16";
    QTest::newRow("a rank with nothing")
        << R"({"parallelism": {"pp": 32, "ep": 2}, "model": {"layers": 30},
               "cluster": {"num_gpus": 64}})"
        << "/parallelism/pp"
        << "choose pp <= 30";
}

void TestExecutionKeys::badKeys() {
    QFETCH(QString, patch);
    QFETCH(QString, path);
    QFETCH(QString, hint);
    json doc = json::parse(kMoe);
    doc.merge_patch(json::parse(patch.toStdString()));
    Diagnostics diags;
    QVERIFY2(!resolveJson(doc, diags), "the bad scenario was accepted");
    QVERIFY2(hasMessage(diags.errors(), path.toStdString(), hint.toStdString()),
             ("expected an error at " + path.toStdString() + " with '" + hint.toStdString() +
              "'; got:\n" + messages(diags))
                 .c_str());
}

void TestExecutionKeys::keysWithoutEffectWarn() {
    json dense = json::parse(kMoe);
    dense["model"].erase("moe");
    dense["parallelism"]["ep"] = 1;
    dense["parallelism"]["recompute"] = "selective";
    dense["execution"] = {{"moe_dispatcher", "deepep"}, {"recompute_modules", {"moe_act"}}};
    Diagnostics diags;
    QVERIFY2(resolveJson(dense, diags), messages(diags).c_str());
    QVERIFY(hasMessage(diags.warnings(), "/execution/moe_dispatcher", "without model.moe"));
    QVERIFY(hasMessage(diags.warnings(), "/execution/recompute_modules/0", "no such module"));
    json noEp = json::parse(kMoe);
    noEp["parallelism"]["ep"] = 1;
    noEp["execution"] = {{"moe_dispatcher", "hybridep"}};
    Diagnostics d2;
    QVERIFY2(resolveJson(noEp, d2), messages(d2).c_str());
    QVERIFY(hasMessage(d2.warnings(), "/execution/moe_dispatcher", "ep = 1"));
    json onePipe = json::parse(kMoe);
    onePipe["parallelism"] = {{"ep", 8}, {"embedding_in_pipeline_split", true}};
    Diagnostics d3;
    QVERIFY2(resolveJson(onePipe, d3), messages(d3).c_str());
    QVERIFY(hasMessage(d3.warnings(), "/parallelism/embedding_in_pipeline_split", "pp = 1"));
}

// The keys the model uses say nothing; FP8 attention and the memory side of recompute_modules,
// which it does not use, say so.
void TestExecutionKeys::estimateSaysWhatIsNotModelled() {
    const auto warningsOf = [](const json& doc) {
        Diagnostics diags;
        auto resolved = resolveJson(doc, diags);
        std::vector<Message> out;
        if (!resolved)
            return out;
        auto estimate = estimatePlan(*resolved, diags);
        return estimate ? estimate->warnings : out;
    };
    const auto count = [](const std::vector<Message>& warnings, const std::string& part) {
        int n = 0;
        for (const auto& w : warnings)
            n += w.english.find(part) != std::string::npos;
        return n;
    };
    json plain = json::parse(kMoe);
    QCOMPARE(count(warningsOf(plain), "not modelled yet"), 0);
    json set = plain;
    set["parallelism"]["recompute"] = "selective";
    set["execution"] = {{"moe_dispatcher", "deepep"},       {"moe_grouped_gemm", "fused"},
                        {"moe_force_balance", true},        {"cuda_graphs", "full"},
                        {"recompute_modules", {"moe_act"}}, {"host_launch_us", 9}};
    const auto warnings = warningsOf(set);
    QCOMPARE(count(warnings, "not modelled yet"), 0);
    // Megatron-style: recompute_modules' time and memory are both modelled.
    QCOMPARE(count(warnings, "/execution/recompute_modules:"), 0);
    // A PyTorch-native recipe checkpoints by its op-level save list: its memory follows that.
    json native = set;
    native["training"]["compile"] = true;
    QCOMPARE(count(warningsOf(native), "/execution/recompute_modules: a PyTorch-native recipe"), 1);
    set["execution"]["fp8_attention"] = true;
    set["training"]["precision"] = "fp8";
    QCOMPARE(count(warningsOf(set), "/execution/fp8_attention: true is read but"), 1);
}

// execution.framework: inferred once at resolution (PyTorch with bf16 states, torch.compile
// or ZeRO 2/3; else Megatron), or as stated; it changes the memory accounting, not the time.
void TestExecutionKeys::frameworkInferredOrStated() {
    json doc = json::parse(kMoe);
    doc["model"].erase("moe");
    doc["parallelism"] = {{"tp", 1}, {"pp", 1}, {"zero", 1}, {"recompute", "selective"}};
    const auto frameworkOf = [](const json& d) {
        Diagnostics diags;
        const auto r = resolveJson(d, diags);
        return r ? std::optional<Framework>(r->execution.framework) : std::nullopt;
    };
    QCOMPARE(frameworkOf(doc), Framework::Megatron); // the distributed optimizer
    json fsdp = doc;
    fsdp["parallelism"]["zero"] = 3;
    QCOMPARE(frameworkOf(fsdp), Framework::Pytorch); // FSDP2 / DeepSpeed ZeRO-3
    json compiled = doc;
    compiled["training"]["compile"] = true;
    QCOMPARE(frameworkOf(compiled), Framework::Pytorch);
    json bf16States = doc;
    bf16States["training"]["master_weights"] = false;
    QCOMPARE(frameworkOf(bf16States), Framework::Pytorch);
    json megatronFsdp = fsdp; // Megatron-FSDP keeps Transformer Engine's kernels
    megatronFsdp["execution"] = {{"framework", "megatron"}};
    QCOMPARE(frameworkOf(megatronFsdp), Framework::Megatron);
    // ZeRO 3 alone, the one inference a Megatron-FSDP run falls into, is said; stated, not.
    Diagnostics said;
    QVERIFY(resolveJson(fsdp, said));
    QVERIFY(hasMessage(said.warnings(), "/execution/framework", "set \"megatron\""));
    Diagnostics stated;
    QVERIFY(resolveJson(megatronFsdp, stated));
    QVERIFY(!hasMessage(stated.warnings(), "/execution/framework", ""));
    json nullInfers = fsdp;
    nullInfers["execution"] = {{"framework", nullptr}};
    QCOMPARE(frameworkOf(nullInfers), Framework::Pytorch);

    // Same plan, the two stacks: op-level selective checkpointing keeps less than Megatron's
    // attention-core recompute, and the FP32 cross entropy more than the fused loss; the step
    // time does not move.
    const auto estimateOf = [](const json& d) {
        Diagnostics diags;
        auto r = resolveJson(d, diags);
        return r ? estimatePlan(*r, diags) : std::nullopt;
    };
    json pytorch = megatronFsdp;
    pytorch["execution"]["framework"] = "pytorch";
    const auto m = estimateOf(megatronFsdp);
    const auto p = estimateOf(pytorch);
    QVERIFY(m && p);
    QCOMPARE(p->stepSeconds, m->stepSeconds);
    QVERIFY(p->peakBreakdown.activations != m->peakBreakdown.activations);
    // The bf16 logits freed before the loss's backward stay reserved (AllocatorMemory.h).
    QVERIFY(p->peakReservedBytes - p->peakAllocatedBytes >
            m->peakReservedBytes - m->peakAllocatedBytes);
}

// execution.cross_entropy: inferred from the framework (fused under Megatron-LM, the FP32
// F.cross_entropy under PyTorch with FP32 masters, torchtune's chunked loss without them), or
// as stated; the loss's bytes per logit at the loss's backward follow it, not the time.
void TestExecutionKeys::crossEntropyInferredOrStated() {
    json doc = json::parse(kMoe);
    doc["model"].erase("moe");
    doc["parallelism"] = {{"tp", 1}, {"pp", 1}, {"zero", 1}, {"recompute", "full"}};
    const auto resolvedOf = [](const json& d) {
        Diagnostics diags;
        return resolveJson(d, diags);
    };
    QCOMPARE(resolvedOf(doc)->execution.crossEntropy, CrossEntropy::Fused);
    json torchtitan = doc;
    torchtitan["execution"] = {{"framework", "pytorch"}};
    QCOMPARE(resolvedOf(torchtitan)->execution.crossEntropy, CrossEntropy::Plain);
    json torchtune = doc;
    torchtune["training"]["master_weights"] = false;
    QCOMPARE(resolvedOf(torchtune)->execution.crossEntropy, CrossEntropy::Chunked);

    // Each stated loss on the torchtune plan: 4, 5 (eager chunked) and 12 bytes per logit
    // (FinetuneMemory.h); the same step time. The logits are seq_len x micro_batch x vocab on the
    // last (only) stage.
    std::map<CrossEntropy, Estimate> byLoss;
    for (const CrossEntropy c : {CrossEntropy::Fused, CrossEntropy::Chunked, CrossEntropy::Plain}) {
        json d = torchtune;
        d["execution"] = {{"cross_entropy", std::string(enumName(c))}};
        Diagnostics diags;
        const auto r = resolveJson(d, diags);
        QVERIFY2(r, messages(diags).c_str());
        QCOMPARE(r->execution.crossEntropy, c);
        const auto e = estimatePlan(*r, diags);
        QVERIFY(e);
        byLoss.emplace(c, *e);
    }
    const Estimate& chunked = byLoss.at(CrossEntropy::Chunked);
    const Estimate& fused = byLoss.at(CrossEntropy::Fused);
    const Estimate& plain = byLoss.at(CrossEntropy::Plain);
    QCOMPARE(plain.stepSeconds, chunked.stepSeconds);
    QVERIFY(fused.peakAllocatedBytes < chunked.peakAllocatedBytes);
    QVERIFY(chunked.peakAllocatedBytes < plain.peakAllocatedBytes);
    // Plain holds 12 bytes per logit against the eager chunked loss's 5: 7 more at the loss's
    // backward, which sets this plan's peak.
    const auto r = resolvedOf(torchtune);
    QVERIFY(r);
    const double logits =
        double(r->training.seqLen) * double(r->training.microBatch) * double(r->model.vocab);
    QVERIFY(std::abs(plain.peakAllocatedBytes - chunked.peakAllocatedBytes - 7.0 * logits) <
            0.01 * logits);
    // Its freed 16-bit logits stay reserved (AllocatorMemory.h); the chunked loss frees none.
    QVERIFY(plain.peakReservedBytes - plain.peakAllocatedBytes >
            chunked.peakReservedBytes - chunked.peakAllocatedBytes);
}

QTEST_GUILESS_MAIN(TestExecutionKeys)
#include "tst_execution_keys.moc"
