// How the execution keys change the step time (issue 16, "Execution physics"): the host
// timeline and its syncs (estimate/HostTimeline.h), the token dispatchers, the expert GEMM
// kinds, force balancing and recompute_modules (estimate/RoutedExperts.h, LayerCost.h); and
// the attention kernel's softmax exponentials on the special function units
// (hardware/KernelTime.h).

#include "EstimateChecks.h"
#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/EagerKernels.h"
#include "estimate/Estimator.h"
#include "estimate/HostTimeline.h"
#include "estimate/RoutedExperts.h"
#include "hardware/AttentionKernel.h"
#include "hardware/HardwareProfile.h"
#include "hardware/KernelTime.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

using namespace ts;
using nlohmann::json;

namespace {

// A fine-grained MoE model (Qwen3-30B-A3B-like) on 16 GPUs, EP 8 inside each 8-GPU NVLink
// domain, no pipeline (explicit GPU: no catalog entry needed).
const char* kMoe = R"({
  "format": "trainscape.scenario/1",
  "model": {"layers": 8, "hidden": 2048, "ffn_hidden": 6144, "heads": 32, "kv_heads": 4,
            "head_dim": 128, "vocab": 151936, "mlp": "swiglu",
            "moe": {"experts": 128, "top_k": 8, "expert_ffn_hidden": 768}},
  "cluster": {"gpu": {"name": "Test GPU", "memory_gib": 80, "hbm_gb_s": 3350, "bf16_tflops": 989.4,
                      "fp8_tflops": 1978.9, "fp32_tflops": 66.9, "tdp_w": 700},
              "num_gpus": 16, "gpus_per_node": 8,
              "scale_up": {"domain_gpus": 8, "bandwidth_gb_s": 450},
              "scale_out": {"nic_gbit_s": 400}},
  "training": {"seq_len": 4096, "global_batch": 64, "micro_batch": 1, "precision": "fp8"},
  "parallelism": {"tp": 1, "pp": 1, "ep": 8}
})";

ResolvedScenario resolveDoc(const json& doc) {
    Diagnostics diags;
    auto scenario = parseScenarioText(doc.dump(), diags);
    auto resolved = scenario ? resolveScenario(*scenario, Catalog::builtIn(), diags)
                             : std::optional<ResolvedScenario>{};
    if (!resolved)
        qFatal("resolve failed");
    return *resolved;
}

// A dense model of Llama 3 8B's shape on one DGX H100.
json llama8bOnDgxH100(const json& training, const json& parallelism) {
    json doc = json::parse(R"({
      "format": "trainscape.scenario/1",
      "model": {"layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32, "kv_heads": 8,
                "head_dim": 128, "vocab": 128256, "mlp": "swiglu"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 8}
    })");
    doc["training"] = training;
    doc["parallelism"] = parallelism;
    return doc;
}

Estimate estimateOf(const json& doc) {
    std::string why;
    const std::optional<Estimate> est = test::estimateDocument(doc, why);
    if (!est)
        qFatal("estimate failed: %s", why.c_str());
    return *est;
}

json withExecution(json doc, const json& execution) {
    for (const auto& [k, v] : execution.items())
        doc["execution"][k] = v;
    return doc;
}

} // namespace

class TestExecutionPhysics : public QObject {
    Q_OBJECT
private slots:
    void hostTimeline();
    void cudaGraphsRemoveHostCost();
    void hostBoundPassGainsNothingFromOverlap();
    void dispatchers();
    void expertGemmKinds();
    void forceBalance();
    void recomputeModules();
    void attentionExponentials();
    void attentionKernel();
    void tensorParallelByFramework();
    void eagerPytorchOperators();
};

// The pass takes the larger of host and GPU; a sync splits it; graphs remove the host side.
void TestExecutionPhysics::hostTimeline() {
    ExecutionConfig ex;
    ex.hostLaunchUs = 10.0;
    PassTimelineInput in;
    in.gpuSeconds = 1e-3;
    in.expertGpuSeconds = 0.6e-3;
    in.kernels = 150;      // 1.5 ms of host time
    in.expertKernels = 50; // 0.5 ms
    ex.cudaGraphs = CudaGraphs::None;
    QVERIFY(qFuzzyCompare(hostExposedSeconds(ex, in), 0.5e-3));
    // A sync before the experts: max(0.4, 1.0) + drain + max(0.6, 0.5) ms.
    in.syncs = 1;
    const double synced = 1.0e-3 + kHostSyncDrainUs * 1e-6 + 0.6e-3;
    QVERIFY(qFuzzyCompare(hostExposedSeconds(ex, in), synced - in.gpuSeconds));
    // Per-layer graphs: the captured part costs one launch; the experts are still issued.
    ex.cudaGraphs = CudaGraphs::Layers;
    in.syncs = 0;
    QCOMPARE(hostExposedSeconds(ex, in), 0.0); // 0.01 + 0.5 ms of host < 1 ms of GPU
    in.expertKernels = 120;                    // 1.2 ms + one launch
    QVERIFY(qFuzzyCompare(hostExposedSeconds(ex, in), 1.2e-3 + 10e-6 - 1e-3));
    ex.cudaGraphs = CudaGraphs::Full;
    in.syncs = 1;
    QCOMPARE(hostExposedSeconds(ex, in), 0.0);
}

// With a host that issues slowly, a step without graphs is host-bound; full graphs are not;
// the alltoall dispatcher's sync costs more than the sync-free hybridep.
void TestExecutionPhysics::cudaGraphsRemoveHostCost() {
    const json base = json::parse(kMoe);
    const json slow = withExecution(base, {{"host_launch_us", 60}, {"moe_dispatcher", "hybridep"}});
    const double none = estimateOf(withExecution(slow, {{"cuda_graphs", "none"}})).stepSeconds;
    const double layers = estimateOf(withExecution(slow, {{"cuda_graphs", "layers"}})).stepSeconds;
    const double full = estimateOf(withExecution(slow, {{"cuda_graphs", "full"}})).stepSeconds;
    QVERIFY2(none > layers && layers > full,
             qPrintable(QString("none %1 layers %2 full %3").arg(none).arg(layers).arg(full)));
    // Full graphs: the host launch cost does not matter at all.
    const double fullFast = estimateOf(withExecution(base, {{"host_launch_us", 1},
                                                            {"moe_dispatcher", "hybridep"},
                                                            {"cuda_graphs", "full"}}))
                                .stepSeconds;
    QCOMPARE(full, fullFast);
}

// The host issues the all-to-alls' kernels too: where it, not the GPU, bounds the pass,
// hiding the all-to-alls behind another micro-batch's compute (overlap.ep) saves nothing;
// where the GPU bounds it, the overlap saves time. (The old order subtracted the hidden
// all-to-alls from a host-bound pass: 1.1% off here.)
void TestExecutionPhysics::hostBoundPassGainsNothingFromOverlap() {
    const auto stepWith = [](double launchUs, bool overlapEp) {
        json doc = withExecution(json::parse(kMoe), {{"host_launch_us", launchUs},
                                                     {"moe_dispatcher", "hybridep"},
                                                     {"cuda_graphs", "none"}});
        doc["cluster"]["scale_up"]["domain_gpus"] = 4; // EP 8 crosses the network
        doc["parallelism"]["overlap"] = {{"ep", overlapEp}};
        return estimateOf(doc).stepSeconds;
    };
    const double hostBound = stepWith(400, false), hostBoundOverlapped = stepWith(400, true);
    QVERIFY2(qFuzzyCompare(hostBound, hostBoundOverlapped),
             qPrintable(QString("%1 vs %2").arg(hostBound).arg(hostBoundOverlapped)));
    const double gpuBound = stepWith(1, false), gpuBoundOverlapped = stepWith(1, true);
    QVERIFY2(gpuBoundOverlapped < 0.95 * gpuBound,
             qPrintable(QString("%1 vs %2").arg(gpuBound).arg(gpuBoundOverlapped)));
}

// alltoall sends one copy per selected expert, the flex dispatchers one per distinct rank; the
// alltoall dispatcher also permutes and sorts the copies separately and syncs the host.
void TestExecutionPhysics::dispatchers() {
    const json base = withExecution(json::parse(kMoe), {{"cuda_graphs", "full"}});
    const Estimate a2a = estimateOf(withExecution(base, {{"moe_dispatcher", "alltoall"}}));
    const Estimate hep = estimateOf(withExecution(base, {{"moe_dispatcher", "hybridep"}}));
    const Estimate dep = estimateOf(withExecution(base, {{"moe_dispatcher", "deepep"}}));
    const Estimate ag = estimateOf(withExecution(base, {{"moe_dispatcher", "allgather"}}));
    // top_k = 8 experts of 128 over 8 ranks: 8 / (8 (1 - (7/8)^8)) ~ 1.52 copies per distinct
    // rank; the FP8 dispatch direction and BF16 combine scale alike.
    const double ratio = a2a.commBytesPerGpu.ep / hep.commBytesPerGpu.ep;
    QVERIFY2(ratio > 1.4 && ratio < 1.65, qPrintable(QString::number(ratio)));
    QCOMPARE(hep.commBytesPerGpu.ep, dep.commBytesPerGpu.ep);
    QVERIFY(a2a.stepSeconds > hep.stepSeconds);
    // allgather moves the whole EP group's tokens: ep x hidden per token per pass.
    QVERIFY(ag.commBytesPerGpu.ep > hep.commBytesPerGpu.ep);
    // Without graphs (and a host fast enough never to be the bottleneck) a dispatcher that
    // syncs the host adds its drain once per MoE layer forward: 8 layers x 4 micro-batches.
    // alltoall (tokens_per_expert), DeepEP (the received-token count) and HybridEP without the
    // static budget that a full-iteration graph implies sync; allgather does not.
    const json fastHost = withExecution(json::parse(kMoe), {{"host_launch_us", 0.01}});
    const auto graphsCost = [&](const char* dispatcher) {
        const json d = withExecution(fastHost, {{"moe_dispatcher", dispatcher}});
        return estimateOf(withExecution(d, {{"cuda_graphs", "none"}})).stepSeconds -
               estimateOf(withExecution(d, {{"cuda_graphs", "full"}})).stepSeconds;
    };
    const double drains = 8 * 4 * kHostSyncDrainUs * 1e-6;
    QVERIFY2(std::abs(graphsCost("alltoall") - drains) < 0.02 * drains,
             qPrintable(QString("%1 vs %2").arg(graphsCost("alltoall")).arg(drains)));
    QVERIFY(std::abs(graphsCost("deepep") - drains) < 0.02 * drains);
    QVERIFY(std::abs(graphsCost("hybridep") - drains) < 0.02 * drains);
    QVERIFY(std::abs(graphsCost("allgather")) < 1e-9);
}

// A fused grouped expert MLP is one kernel per GEMM with its casts fused: faster than grouped
// (one GEMM and one cast per expert) and fewer kernels for the host.
void TestExecutionPhysics::expertGemmKinds() {
    const json base = withExecution(json::parse(kMoe), {{"moe_dispatcher", "hybridep"}});
    const auto step = [&](const char* kind, const char* graphs, double launch) {
        return estimateOf(withExecution(base, {{"moe_grouped_gemm", kind},
                                               {"cuda_graphs", graphs},
                                               {"host_launch_us", launch}}))
            .stepSeconds;
    };
    QVERIFY(step("fused", "full", 6) < step("grouped", "full", 6));
    QCOMPARE(step("per-expert", "full", 6), step("grouped", "full", 6));
    // Host-bound: the grouped GEMMs' per-expert launches cost more than the fused kernels.
    const double hostGrouped = step("grouped", "none", 60) - step("grouped", "full", 60);
    const double hostFused = step("fused", "none", 60) - step("fused", "full", 60);
    QVERIFY2(hostGrouped > hostFused,
             qPrintable(QString("%1 vs %2").arg(hostGrouped).arg(hostFused)));
}

// Forced balance removes the busiest rank's 1.1x load: less expert time, fewer EP bytes.
// (Under full-iteration graphs: at the default host cost this small plan's eager passes are
// host-bound, and the host issues the same kernels either way.)
void TestExecutionPhysics::forceBalance() {
    const json base = withExecution(json::parse(kMoe), {{"cuda_graphs", "full"}});
    const Estimate uneven = estimateOf(base);
    const Estimate even = estimateOf(withExecution(base, {{"moe_force_balance", true}}));
    QVERIFY(even.stepSeconds < uneven.stepSeconds);
    QVERIFY(qFuzzyCompare(uneven.commBytesPerGpu.ep / even.commBytesPerGpu.ep, 1.1));
}

// Selective recompute runs exactly the named modules' forwards again, additively.
void TestExecutionPhysics::recomputeModules() {
    json base = json::parse(kMoe);
    base["parallelism"]["recompute"] = "selective";
    const auto recompute = [&](const json& modules) {
        return estimateOf(withExecution(base, {{"recompute_modules", modules}})).time.recompute;
    };
    const double attn = recompute(json::array({"core_attn"}));
    const double act = recompute(json::array({"moe_act"}));
    const double norm = recompute(json::array({"layernorm"}));
    const double moe = recompute(json::array({"moe"}));
    QCOMPARE(recompute(nullptr), attn);
    QVERIFY(attn > 0 && act > 0 && norm > 0);
    QVERIFY(qFuzzyCompare(recompute(json::array({"core_attn", "moe_act"})), attn + act));
    // The whole routed-expert forward costs more than its activation function alone.
    QVERIFY(moe > act);

    // Memory (estimate/RecomputeModulesMemory.h): each module frees what it computed inside;
    // the routed experts' internals are more than their activation output, and the two norms'
    // outputs are 4h per token; the layer keeps at least its input.
    const auto activations = [&](const json& modules) {
        return estimateOf(withExecution(base, {{"recompute_modules", modules}}))
            .peakBreakdown.activations;
    };
    const double keepAttn = activations(json::array({"core_attn"}));
    const double keepAct = activations(json::array({"moe_act"}));
    const double keepNorm = activations(json::array({"layernorm"}));
    const double keepMoe = activations(json::array({"moe"}));
    QCOMPARE(activations(nullptr), keepAttn);
    QVERIFY(keepAct < keepAttn && keepNorm < keepAttn);
    QVERIFY(keepMoe < keepAct);
    QCOMPARE(activations(json::array({"moe", "moe_act"})), keepMoe);
    // The norm outputs (the QKV and MLP inputs, h values of 2 bytes each: 4h bytes per token)
    // of the 8 layers for the one micro-batch of 4096 tokens in flight (no pipeline).
    const double normFreed = 8.0 * 4096.0 * 4.0 * 2048.0;
    QVERIFY2(std::abs((keepAttn - keepNorm) - normFreed) < 0.01 * normFreed,
             qPrintable(QString("%1 vs %2").arg(keepAttn - keepNorm).arg(normFreed)));
    const double full = [&] {
        json f = json::parse(kMoe);
        f["parallelism"]["recompute"] = "full";
        return estimateOf(f).peakBreakdown.activations;
    }();
    QVERIFY(activations(json::array({"moe", "layernorm", "shared_experts"})) >= full);
}

// Flash attention = its matmuls + one exponential per score on the SFUs (KernelTime.h): on an
// H100 at head dim 128 that is the 0.36 / 0.29 of the BF16 peak the model was calibrated at;
// a smaller head dim has fewer FLOPs per exponential and runs at a lower fraction of the
// peak; B200 / GB200 (twice the tensor cores, the same exponential units) reach a lower
// fraction than H100, and Blackwell Ultra (twice the SFU throughput) gets it back.
void TestExecutionPhysics::attentionExponentials() {
    const Catalog& cat = Catalog::builtIn();
    auto profile = [&](const char* id) {
        const GpuEntry* g = cat.gpu(id);
        if (!g)
            qFatal("no catalog GPU %s", id);
        return defaultHardwareProfile(g->spec);
    };
    auto fractionOfPeak = [](const HardwareProfile& hw, int headDim, bool backward) {
        const AttentionShape a{32, 8192, headDim, true};
        const double flops = (backward ? 2.5 : 1.0) * attentionFlops(hw, a);
        const double seconds =
            backward ? attentionBackwardSeconds(hw, a) : attentionForwardSeconds(hw, a);
        return flops / seconds / (hw.bf16PeakTflops() * 1e12);
    };
    const HardwareProfile h100 = profile("h100-sxm-80gb");
    QVERIFY(h100.exponentialsPerSecond > 3.8e12 && h100.exponentialsPerSecond < 4.0e12);
    // The former calibration (0.36 forward, 0.29 backward) within rounding.
    QVERIFY(std::abs(fractionOfPeak(h100, 128, false) - 0.36) < 0.01);
    QVERIFY(std::abs(fractionOfPeak(h100, 128, true) - 0.29) < 0.01);
    QVERIFY(fractionOfPeak(h100, 64, false) < 0.9 * fractionOfPeak(h100, 128, false));
    QVERIFY(fractionOfPeak(h100, 256, false) > fractionOfPeak(h100, 128, false));

    const HardwareProfile gb200 = profile("gb200"), gb300 = profile("gb300");
    QCOMPARE(gb200.bf16PeakTflops(), gb300.bf16PeakTflops());
    QVERIFY(fractionOfPeak(gb200, 128, false) < 0.9 * fractionOfPeak(h100, 128, false));
    QVERIFY(fractionOfPeak(gb300, 128, false) > 1.1 * fractionOfPeak(gb200, 128, false));
    QVERIFY(std::abs(fractionOfPeak(gb300, 128, false) - fractionOfPeak(h100, 128, false)) < 0.02);

    // A GPU the catalog gives no exponential rate keeps the reference ratio: its attention
    // runs at the H100 fractions.
    GpuSpec custom = cat.gpu("h100-sxm-80gb")->spec;
    custom.sfuExpTeraPerS.reset();
    custom.bf16Tflops = 1500;
    const HardwareProfile other = defaultHardwareProfile(custom);
    QVERIFY(std::abs(fractionOfPeak(other, 128, false) - 0.36) < 0.01);
}

// Transformer Engine's fused attention on Hopper (Megatron-LM) multiplies faster than
// FlashAttention-2 (PyTorch's SDPA, torchtitan); elsewhere the frameworks' kernels are timed
// alike (hardware/AttentionKernel.h).
void TestExecutionPhysics::attentionKernel() {
    const auto factor = [](Framework f, GpuGeneration g, bool sinks = false) {
        return attentionKernelFactor(resolvedAttentionBackend(AttentionBackend::Auto, f, g, sinks),
                                     g);
    };
    QCOMPARE(factor(Framework::Megatron, GpuGeneration::Hopper), kTeFusedAttentionHopperFactor);
    QCOMPARE(factor(Framework::Pytorch, GpuGeneration::Hopper), 1.0);
    QCOMPARE(factor(Framework::Megatron, GpuGeneration::Blackwell), 1.0);
    QCOMPARE(factor(Framework::Megatron, GpuGeneration::Ampere), 1.0);
    // Stated backends override the framework's pick; sinks need cuDNN on Hopper or Blackwell.
    QCOMPARE(attentionKernelFactor(AttentionBackend::Cudnn, GpuGeneration::Hopper),
             kTeFusedAttentionHopperFactor);
    QCOMPARE(attentionKernelFactor(AttentionBackend::Flash, GpuGeneration::Hopper), 1.0);
    QCOMPARE(resolvedAttentionBackend(AttentionBackend::Auto, Framework::Megatron,
                                      GpuGeneration::Hopper, true),
             AttentionBackend::Cudnn);
    QCOMPARE(resolvedAttentionBackend(AttentionBackend::Auto, Framework::Megatron,
                                      GpuGeneration::Ampere, true),
             AttentionBackend::Unfused);
    QCOMPARE(resolvedAttentionBackend(AttentionBackend::Auto, Framework::Pytorch,
                                      GpuGeneration::Hopper, true),
             AttentionBackend::Unfused);
    QVERIFY(!attentionBackendProblem(AttentionBackend::Flash, GpuGeneration::Hopper, true).empty());
    QVERIFY(attentionBackendProblem(AttentionBackend::Cudnn, GpuGeneration::Hopper, true).empty());
    // Within what the sources allow: above FlashAttention-2, at most cuDNN's 1.6x.
    QVERIFY(kTeFusedAttentionHopperFactor > 1.0 && kTeFusedAttentionHopperFactor <= 1.6);

    // What the estimate uses: the settings of a scenario follow its framework on Hopper only.
    const auto settingsOf = [](const char* gpu, const char* framework) {
        json doc = json::parse(kMoe);
        doc["cluster"] = {{"preset", std::string(gpu) == "h100-sxm-80gb" ? "dgx-h100" : "dgx-b200"},
                          {"gpu", gpu},
                          {"num_gpus", 16}};
        doc = withExecution(doc, {{"framework", framework}});
        return defaultEstimatorSettings(resolveDoc(doc)).hardware;
    };
    const HardwareProfile hopperTe = settingsOf("h100-sxm-80gb", "megatron");
    const HardwareProfile hopperFa2 = settingsOf("h100-sxm-80gb", "pytorch");
    QVERIFY(qFuzzyCompare(hopperTe.attentionForwardEfficiency,
                          kTeFusedAttentionHopperFactor * hopperFa2.attentionForwardEfficiency));
    QVERIFY(qFuzzyCompare(hopperTe.attentionBackwardEfficiency,
                          kTeFusedAttentionHopperFactor * hopperFa2.attentionBackwardEfficiency));
    const AttentionShape a{32, 8192, 128, true};
    QVERIFY(attentionForwardSeconds(hopperTe, a) < attentionForwardSeconds(hopperFa2, a));
    const HardwareProfile blackwellTe = settingsOf("b200-sxm-180gb", "megatron");
    const HardwareProfile blackwellTorch = settingsOf("b200-sxm-180gb", "pytorch");
    QCOMPARE(blackwellTe.attentionForwardEfficiency, blackwellTorch.attentionForwardEfficiency);
}

// Sequence-parallel collectives by framework (estimate/LayerCost.h): Megatron-LM gathers each
// column-parallel input again for its weight gradient (4 backward all-gathers), DTensor keeps
// the gathered input (2); torchao's float8 tensor parallelism gathers one byte per element.
void TestExecutionPhysics::tensorParallelByFramework() {
    QCOMPARE(tensorParallelBackwardGathers(Framework::Megatron), 4);
    QCOMPARE(tensorParallelBackwardGathers(Framework::Pytorch), 2);
    const json dense =
        llama8bOnDgxH100({{"seq_len", 4096}, {"global_batch", 8}, {"micro_batch", 1}},
                         {{"tp", 8}, {"sequence_parallel", true}, {"recompute", "none"}});
    const auto tpBytes = [&](const char* framework, const char* precision) {
        json doc = withExecution(dense, {{"framework", framework}});
        doc["training"]["precision"] = precision;
        return estimateOf(doc).commBytesPerGpu.tp;
    };
    // Per layer, in units of one [tokens, h] 16-bit collective: Megatron 2 + 2 forward and
    // 4 + 2 backward, 10; DTensor 2 + 2 and 2 + 2, 8; with float8 gathers 1 + 2 and 1 + 2, 6.
    // The embedding's reduce-scatter and the output layer's gather and reduce-scatter (16-bit
    // in every recipe) add 3 units per micro-batch beside the 32 layers.
    const double megatron = tpBytes("megatron", "bf16");
    const double pytorch = tpBytes("pytorch", "bf16");
    const double float8 = tpBytes("pytorch", "fp8");
    QVERIFY2(std::abs(pytorch / megatron - (32 * 8 + 3) / (32 * 10 + 3.0)) < 0.005,
             qPrintable(QString::number(pytorch / megatron)));
    QVERIFY2(std::abs(float8 / pytorch - (32 * 6 + 3) / (32 * 8 + 3.0)) < 0.005,
             qPrintable(QString::number(float8 / pytorch)));
    // Megatron-LM's gathers stay 16-bit under FP8 (whether TransformerEngine gathers a cast
    // input is not modelled).
    QCOMPARE(tpBytes("megatron", "fp8"), megatron);
}

// Eager PyTorch modules (estimate/EagerKernels.h): each operator of the norms, RoPE, the
// attention's copies and SwiGLU reads and writes HBM; only where the scenario states
// training.compile false in a PyTorch-native recipe.
void TestExecutionPhysics::eagerPytorchOperators() {
    json dense = llama8bOnDgxH100({{"seq_len", 8192}, {"global_batch", 16}, {"micro_batch", 2}},
                                  {{"dp", 8}, {"zero", 3}, {"recompute", "none"}});
    dense["execution"] = {{"framework", "pytorch"}};
    const auto resolved = resolveDoc;
    json eagerDoc = dense, compiledDoc = dense;
    eagerDoc["training"]["compile"] = false;
    compiledDoc["training"]["compile"] = true;
    const ResolvedScenario eager = resolved(eagerDoc);
    QVERIFY(eagerPytorchModules(eager));
    QVERIFY(!eagerPytorchModules(resolved(compiledDoc)));
    QVERIFY(!eagerPytorchModules(resolved(dense))); // unstated: the fused kernels
    json megatron = eagerDoc;
    megatron["execution"]["framework"] = "megatron";
    QVERIFY(!eagerPytorchModules(resolved(megatron)));

    // Per token of a Llama 3 8B layer (h 4096, q 4096, kv 1024, grouped-query attention):
    // norms 2 x 32 h, RoPE 20 (q + kv), output copy 4 q, K and V expanded 2 (2 kv + 2 q).
    const EagerBytes a = eagerAttentionBytes(eager, 1.0, 4096, 1024);
    QCOMPARE(a.forward, 2 * 32.0 * 4096 + 20.0 * 5120 + 4.0 * 4096 + 2 * (2.0 * 1024 + 2.0 * 4096));
    QCOMPARE(a.backward,
             2 * 48.0 * 4096 + 20.0 * 5120 + 4.0 * 4096 + 2 * (2.0 * 1024 + 2.0 * 4096));
    const EagerBytes mlp = eagerActivationBytes(eager, 14336);
    QCOMPARE(mlp.forward, 4.0 * 14336);
    QCOMPARE(mlp.backward, 6.0 * 14336);

    // The step: eager is slower by those bytes; compiled and unstated are the fused step.
    const double eagerStep = estimateOf(eagerDoc).stepSeconds;
    const double compiledStep = estimateOf(compiledDoc).stepSeconds;
    QCOMPARE(estimateOf(dense).stepSeconds, compiledStep);
    QVERIFY2(eagerStep > 1.05 * compiledStep && eagerStep < 1.3 * compiledStep,
             qPrintable(QString::number(eagerStep / compiledStep)));

    // The explicit form keeps an unstated key unstated (and a stated one stated).
    QVERIFY(!explicitScenario(resolved(dense)).training.compile.has_value());
    QCOMPARE(explicitScenario(eager).training.compile, std::optional<bool>(false));
}

QTEST_GUILESS_MAIN(TestExecutionPhysics)
#include "tst_execution_physics.moc"
