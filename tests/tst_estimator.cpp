// The estimator's parts against their published formulas: parameter counts of known models,
// Korthikanti et al. 2022 activation memory, ZeRO model states, the 1F1B bubble, collective
// costs, and the estimate's invariants (breakdown sums to the step, monotonicity, JSON shape).

#include "EstimateChecks.h"
#include "EstimatorFixtures.h"
#include "TestSupport.h"
#include "catalog/Catalog.h"
#include "estimate/EstimateJson.h"
#include "estimate/Estimator.h"
#include "estimate/MemoryModel.h"
#include "estimate/PrecisionMemory.h"
#include "hardware/KernelTime.h"
#include "model/TransformerArithmetic.h"
#include "parallel/CollectiveCost.h"
#include "parallel/PipelineSchedule.h"
#include "scenario/ExecutionJson.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace ts;

namespace {

using test::estimateOrFail;
using test::h100;
using test::llama3_8b;
using test::near;

ModelConfig llama3_70b() {
    ModelConfig m = llama3_8b();
    m.layers = 80;
    m.hidden = 8192;
    m.ffnHidden = 28672;
    m.heads = 64;
    return m;
}

ModelConfig gpt3_175b() {
    ModelConfig m;
    m.layers = 96;
    m.hidden = 12288;
    m.ffnHidden = 4 * 12288;
    m.heads = 96;
    m.kvHeads = 96;
    m.headDim = 128;
    m.vocab = 51200;
    m.mlp = MlpKind::Gelu;
    m.tiedEmbeddings = true;
    return m;
}

// Llama 3 8B on 64 H100 (8 nodes), tp 2, pp 2, dp 16: a hand-built resolved scenario.
ResolvedScenario baseScenario() {
    ResolvedScenario sc = test::h100Scenario(
        "test", llama3_8b(), {.globalBatch = 256, .seqLen = 8192, .tp = 2, .pp = 2});
    sc.parallel.sequenceParallel = true;
    return sc;
}

void setPipeline(ResolvedScenario& sc, int pp, int vpp, std::int64_t dp) {
    sc.parallel.pp = pp;
    sc.parallel.vpp = vpp;
    sc.parallel.dp = dp;
    sc.parallel.dpShard = dp;
    sc.parallel.schedule =
        vpp > 1 ? PipelineScheduleKind::Interleaved : PipelineScheduleKind::OneFOneB;
    const int chunks = pp * vpp;
    sc.parallel.pipelineLayers.assign(chunks, sc.model.layers / chunks);
    for (int i = 0; i < sc.model.layers % chunks; ++i)
        ++sc.parallel.pipelineLayers[i];
}

// The estimate with the default event budget (which takes the schedule's steady-state
// shortcut) against the full simulation: same step to 1e-12. Returns the shortcut estimate.
Estimate shortcutMatchesFullRun(const ResolvedScenario& sc, std::int64_t microbatches) {
    EstimatorSettings fullSettings = defaultEstimatorSettings(sc);
    fullSettings.maxScheduleEvents = std::int64_t(1) << 40;
    const Estimate fast = estimateOrFail(sc);
    const Estimate full = estimateOrFail(sc, fullSettings);
    if (full.microbatches != microbatches || fast.timelineMicrobatches >= microbatches ||
        full.timelineMicrobatches != microbatches ||
        !near(fast.stepSeconds, full.stepSeconds, 1e-12))
        qFatal("shortcut: %lld of %lld micro-batches simulated, step %.17g vs full %.17g",
               static_cast<long long>(fast.timelineMicrobatches),
               static_cast<long long>(full.microbatches), fast.stepSeconds, full.stepSeconds);
    return fast;
}

} // namespace

class TestEstimator : public QObject {
    Q_OBJECT
private slots:
    void topologyWarningKept();
    void parameterCounts();
    void trainingFlops();
    void korthikantiActivations();
    void flashAttentionDropsScores();
    void pytorchNativeActivations();
    void zeroPaperModelStates();
    void megatronBytesPerParameter();
    void bf16GradientBuffer();
    void packedDocumentsAttendWithinThemselves();
    void inFlightMicrobatches();
    void oneFOneBBubble();
    void interleavedBubble();
    void extrapolationMatchesFullSimulation();
    void zeroBubbleVExtrapolation();
    void zeroBubbleH1Extrapolation();
    void zeroBubbleVPlan();
    void collectiveCosts();
    void matmulQuantization();
    void breakdownSumsToStep_data();
    void breakdownSumsToStep();
    void monotonicity();
    void memoryFollowsPlan();
    void paperAssumptions();
    void jsonShape();
    void unsupportedIsAnError();
};

void TestEstimator::parameterCounts() {
    QVERIFY(near(countParameters(llama3_8b()).total(), 8.03e9, 0.005));
    QVERIFY(near(countParameters(llama3_70b()).total(), 70.6e9, 0.005));
    // GPT-3 (Brown et al. 2020): 175B; 174.6e9 with the padded 51,200 vocabulary and tied
    // embeddings (learned position embeddings, 25M, not counted).
    QVERIFY(near(countParameters(gpt3_175b()).total(), 174.6e9, 0.005));
}

void TestEstimator::trainingFlops() {
    // 6N per token plus the causal attention term: for GPT-3 at s = 2048,
    // 6 * 12 L h^2 (1 + s/(12h)) approximately (Narayanan et al. 2021 eq. 3 without recompute
    // and with the causal half of the attention scores).
    const ModelConfig m = gpt3_175b();
    const double s = 2048, h = m.hidden, L = m.layers;
    const double attention = 3.0 * 4.0 * s * h * L * (s + 1) / (2 * s);
    const double expected = 6.0 * countParameters(m).matmulParameters + attention;
    QVERIFY(near(trainingFlopsPerToken(m, 2048), expected, 1e-12));
    QVERIFY(near(causalFraction(2048), 0.5 + 0.5 / 2048, 1e-15));
}

void TestEstimator::korthikantiActivations() {
    // GPT-3 175B shapes, s = 2048, b = 1, t = 8, with the paper's assumptions.
    ModelConfig m = gpt3_175b();
    const ActivationAssumptions paper{false, true};
    const double s = 2048, b = 1, h = m.hidden, a = m.heads, t = 8;
    const double sbh = s * b * h;
    auto layout = [&](int tp, bool sp) { return ActivationLayout{2048, 1, tp, sp}; };
    // Table 2 of Korthikanti et al. 2022.
    QCOMPARE(layerActivationBytes(m, layout(1, false), paper), sbh * (34 + 5 * a * s / h));
    QCOMPARE(layerActivationBytes(m, layout(8, false), paper),
             sbh * (10 + 24 / t + 5 * a * s / (h * t)));
    QCOMPARE(layerActivationBytes(m, layout(8, true), paper), sbh / t * (34 + 5 * a * s / h));
    QCOMPARE(layerActivationBytesSelective(m, layout(8, false), paper), sbh * (10 + 24 / t));
    QCOMPARE(layerActivationBytesSelective(m, layout(8, true), paper), 34 * sbh / t);
    QCOMPARE(layerActivationBytesFull(m, layout(8, false)), 2 * sbh);
    QCOMPARE(layerActivationBytesFull(m, layout(8, true)), 2 * sbh / t);
}

void TestEstimator::flashAttentionDropsScores() {
    const ModelConfig m = gpt3_175b();
    const ActivationLayout l{2048, 1, 8, true};
    const double withFlash = layerActivationBytes(m, l, {true, true});
    const double selective = layerActivationBytesSelective(m, l, {false, true});
    // Flash attention keeps no s x s tensor: selective's 34 sbh/t plus the FP32 log-sum-exp.
    QCOMPARE(withFlash, selective + 2048.0 * 4.0 * m.heads / 8.0);
    // SwiGLU and GQA (Llama 3 8B), no dropout: 2h + 2q + 4kv + 2q + 6 ffn + 2h + 4h per token
    // (+ log-sum-exp), without TP.
    const ModelConfig l8 = llama3_8b();
    const double perToken =
        2 * 4096 + 2 * 4096 + 4 * 1024 + 2 * 4096 + 6 * 14336 + 2 * 4096 + 4 * 4096 + 4 * 32;
    QCOMPARE(layerActivationBytes(l8, {8192, 1, 1, false}), 8192.0 * perToken);
}

void TestEstimator::pytorchNativeActivations() {
    // torchtitan's op-level selective checkpointing on Llama 3 8B (parallelize_llama.py at
    // 9dec370): layer input 2h, wq 2q, wv 2kv, SDPA out 2q + FP32 LSE 4 heads, w1 2 ffn, w2 2h.
    const ModelConfig l8 = llama3_8b();
    ActivationAssumptions op;
    op.opLevelSelective = true;
    const double perToken =
        2 * 4096 + 2 * 4096 + 2 * 1024 + 2 * 4096 + 4 * 32 + 2 * 14336 + 2 * 4096;
    QCOMPARE(layerActivationBytesSelective(l8, {8192, 1, 1, false}, op), 8192.0 * perToken);
    // With TP 8 and SP: column-parallel outputs shard, the w2 product stays whole, and the two
    // reduce-scatter outputs (2h / t each) are kept.
    const double tpToken = (2 * 4096 + 2 * 4096 + 2 * 1024 + 2 * 4096 + 4 * 32 + 2 * 14336) / 8.0 +
                           2 * 4096 + 2 * (2 * 4096 / 8.0);
    QCOMPARE(layerActivationBytesSelective(l8, {8192, 1, 8, true}, op), 8192.0 * tpToken);
    // DTensor SP saves the gathered QKV and MLP inputs whole (4h), where Megatron's SP
    // divides them by t.
    ActivationAssumptions gathered;
    gathered.gatheredLinearInputs = true;
    const ActivationLayout tp8{8192, 1, 8, true};
    QCOMPARE(layerActivationBytes(l8, tp8, gathered) - layerActivationBytes(l8, tp8),
             8192.0 * 4 * 4096 * (1 - 1 / 8.0));
    // The loss: bytes per logit on the last stage, beside the final norm's and the output
    // layer's inputs.
    ActivationAssumptions eagerLoss;
    eagerLoss.lossBytesPerLogit = 12;
    const ActivationLayout one{8192, 1, 1, false};
    QCOMPARE(outputLayerActivationBytes(l8, one, eagerLoss) - outputLayerActivationBytes(l8, one),
             8192.0 * 8 * 128256);
    // FSDP2 under PP (ZeRO 2 in a PyTorch-native loop) keeps whole FP32 gradients.
    TrainingConfig titan;
    titan.precision = Precision::Fp8;
    ParallelConfig fsdpUnderPp;
    fsdpUnderPp.zero = 2;
    QCOMPARE(inferFramework(titan, fsdpUnderPp), Framework::Pytorch);
    ParallelConfig distributedOptimizer;
    distributedOptimizer.zero = 1;
    QCOMPARE(inferFramework(titan, distributedOptimizer), Framework::Megatron);
    titan.compile = true;
    QCOMPARE(inferFramework(titan, distributedOptimizer), Framework::Pytorch);
    const StateBytesPerParam b = stateBytesPerParam(titan, Framework::Pytorch);
    QVERIFY(b.unshardedGradientsUnderZero2);
    QCOMPARE(modelStateBytes(1.0, 8, 2, b).gradients, 4.0);
    QCOMPARE(modelStateBytes(1.0, 8, 3, b).gradients, 4.0 / 8.0);
    QVERIFY(!stateBytesPerParam(titan, Framework::Megatron).unshardedGradientsUnderZero2);
    // torchao casts at each use; TransformerEngine caches two.
    QCOMPARE(lowPrecisionWeightCopyBytes(titan, 2, Framework::Pytorch), 0.0);
    QCOMPARE(lowPrecisionWeightCopyBytes(titan, 2, Framework::Megatron), 2.0);
}

void TestEstimator::zeroPaperModelStates() {
    // Rajbhandari et al. 2020, Fig. 1: 7.5B parameters, Nd = 64, K = 12 (shared/validation/
    // zero-paper-model-states.json): 120, 31.4, 16.6 and 1.9 GB per GPU.
    const double psi = 7.5e9;
    const double expected[] = {120e9, 31406250000.0, 16640625000.0, 1875000000.0};
    for (int zero = 0; zero <= 3; ++zero)
        QCOMPARE(modelStateBytes(psi, 64, zero, kZeroPaperStateBytes).total(), expected[zero]);
}

void TestEstimator::megatronBytesPerParameter() {
    // megatron/training/theoretical_memory_usage.py: 18 bytes, or 6 + 12/d with the
    // distributed optimizer.
    const StateBytesPerParam b = megatronStateBytes(Precision::Bf16, OptimizerKind::Adam);
    QCOMPARE(modelStateBytes(1.0, 8, 0, b).total(), 18.0);
    QCOMPARE(modelStateBytes(1.0, 8, 1, b).total(), 6.0 + 12.0 / 8.0);
}

// training.grad_reduce_dtype "bf16" (Megatron-LM --grad-reduce-in-bf16, Megatron-Bridge's
// performance recipes): 2 instead of 4 bytes per parameter of gradients, in memory and on the
// data-parallel wire; the weights and optimizer states do not move.
void TestEstimator::bf16GradientBuffer() {
    ResolvedScenario fp32 = baseScenario();
    ResolvedScenario bf16 = fp32;
    bf16.training.gradReduceDtype = GradReduceDtype::Bf16;
    const Estimate a = estimateOrFail(fp32), b = estimateOrFail(bf16);
    QVERIFY(a.peakBreakdown.gradients > 0);
    QCOMPARE(b.peakBreakdown.gradients, a.peakBreakdown.gradients / 2.0);
    QCOMPARE(b.peakBreakdown.weights, a.peakBreakdown.weights);
    QCOMPARE(b.peakBreakdown.optimizer, a.peakBreakdown.optimizer);
    // The distributed optimizer (zero 1) reduce-scatters the gradients (4 -> 2 bytes) and
    // all-gathers the 16-bit weights (2 bytes): 6 -> 4 bytes per parameter.
    QVERIFY(near(b.commBytesPerGpu.dp, a.commBytesPerGpu.dp * 4.0 / 6.0, 1e-9));
    QVERIFY(b.time.dpExposed <= a.time.dpExposed);
    // Stated "fp32" is the unstated default.
    ResolvedScenario stated = fp32;
    stated.training.gradReduceDtype = GradReduceDtype::Fp32;
    QCOMPARE(estimateOrFail(stated).stepSeconds, a.stepSeconds);
    // Without master weights the gradients stay in the training precision: not read.
    ResolvedScenario pure = fp32;
    pure.training.masterWeights = false;
    ResolvedScenario pureBf16 = pure;
    pureBf16.training.gradReduceDtype = GradReduceDtype::Bf16;
    QCOMPARE(estimateOrFail(pureBf16).peakBreakdown.gradients,
             estimateOrFail(pure).peakBreakdown.gradients);
}

// training.document_tokens: the kernels see micro_batch x s / d sequences of d tokens. Llama 3
// 8B at 8192 tokens in documents of 1024: the attention computes 8 x 1024^2 x (8 + 1) / 16
// score pairs (tiles of 128: nb (nb + 1) / 2 of nb^2) against 8192^2 x 65 / 128 for the row,
// so a little over 1/8 of its time; the linear layers do not move.
void TestEstimator::packedDocumentsAttendWithinThemselves() {
    const ResolvedScenario row = baseScenario();
    ResolvedScenario packed = row;
    packed.training.documentTokens = 1024;
    const AttentionShape whole = attentionShapeOf(row.training, 16.0, 128);
    const AttentionShape documents = attentionShapeOf(packed.training, 16.0, 128);
    QCOMPARE(whole.seqLen, std::int64_t(8192));
    QCOMPARE(documents.seqLen, std::int64_t(1024));
    QCOMPARE(documents.batchHeads, whole.batchHeads * 8.0);
    const HardwareProfile hw = defaultHardwareProfile(h100()); // attention tiles of 128
    const double ratio = attentionFlops(hw, documents) / attentionFlops(hw, whole);
    QVERIFY(near(ratio, (8.0 * 1024.0 * 1024.0 * 9.0 / 16.0) / (8192.0 * 8192.0 * 65.0 / 128.0),
                 1e-12));
    const double a = attentionForwardSeconds(hw, whole), b = attentionForwardSeconds(hw, documents);
    QVERIFY(b < a / 7.0 && b > a / 9.0);
    const Estimate full = estimateOrFail(row), part = estimateOrFail(packed);
    QVERIFY(part.stepSeconds < full.stepSeconds);
    QCOMPARE(part.peakBreakdown.weights, full.peakBreakdown.weights);
    // The model FLOPs keep the published convention (the whole row's attention).
    QVERIFY(near(part.modelTflopsPerGpu * part.stepSeconds,
                 full.modelTflopsPerGpu * full.stepSeconds, 1e-9));
}

void TestEstimator::inFlightMicrobatches() {
    // 1F1B: the first stage holds p micro-batches (m >= p), the last one.
    QCOMPARE(microbatchesInFlight(PipelineScheduleKind::OneFOneB, 8, 1, 0, 64), 8.0);
    QCOMPARE(microbatchesInFlight(PipelineScheduleKind::OneFOneB, 8, 1, 7, 64), 1.0);
    QCOMPARE(microbatchesInFlight(PipelineScheduleKind::OneFOneB, 8, 1, 0, 4), 4.0);
    // Interleaved: p (1 + (p - 1) / (p v)) on the first stage (Megatron).
    QCOMPARE(microbatchesInFlight(PipelineScheduleKind::Interleaved, 8, 3, 0, 64),
             8.0 * (1.0 + 7.0 / 24.0));
    QCOMPARE(microbatchesInFlight(PipelineScheduleKind::GPipe, 4, 1, 0, 32), 32.0);
}

void TestEstimator::oneFOneBBubble() {
    for (int p : {2, 4, 8})
        for (std::int64_t m : {1, 4, 8, 32}) {
            std::vector<double> f(p, 1.0), b(p, 2.0);
            PipelineInput in;
            in.stages = p;
            in.microbatches = m;
            in.forwardSeconds = f.data();
            in.backwardSeconds = b.data();
            const PipelineResult r = simulatePipeline(in, nullptr);
            QVERIFY(r.ok);
            const double ideal = m * 3.0;
            const double bubble = (r.makespanSeconds - ideal) / r.makespanSeconds;
            QVERIFY2(std::abs(bubble - oneFOneBBubbleFraction(p, m)) < 1e-12,
                     qPrintable(QString("p=%1 m=%2").arg(p).arg(m)));
        }
}

void TestEstimator::interleavedBubble() {
    // Narayanan et al. 2021 sec. 2.2.2: with v chunks per rank the bubble shrinks to
    // (p - 1)/v micro-batch times: makespan = (m + (p - 1)/v)(f + b).
    const int p = 4, v = 2;
    const std::int64_t m = 8;
    std::vector<double> f(p * v, 1.0 / v), b(p * v, 2.0 / v);
    PipelineInput in;
    in.schedule = PipelineScheduleKind::Interleaved;
    in.stages = p;
    in.chunks = v;
    in.microbatches = m;
    in.forwardSeconds = f.data();
    in.backwardSeconds = b.data();
    std::vector<TimelineEvent> timeline;
    const PipelineResult r = simulatePipeline(in, &timeline);
    QVERIFY(r.ok);
    QCOMPARE(timeline.size(), std::size_t(2 * p * v * m));
    QVERIFY(std::abs(r.makespanSeconds - (m + double(p - 1) / v) * 3.0) < 1e-9);
    // Interleaving beats plain 1F1B.
    std::vector<double> f1(p, 1.0), b1(p, 2.0);
    PipelineInput plain = in;
    plain.schedule = PipelineScheduleKind::OneFOneB;
    plain.chunks = 1;
    plain.forwardSeconds = f1.data();
    plain.backwardSeconds = b1.data();
    QVERIFY(r.makespanSeconds < simulatePipeline(plain, nullptr).makespanSeconds);
}

void TestEstimator::extrapolationMatchesFullSimulation() {
    // The steady-state shortcut is exact: random pipelines with uneven layer splits, a heavier
    // first and last stage, p2p delays, 1F1B and interleaved, against the full simulation.
    std::mt19937 rng(42);
    const auto uniform = [&](double a, double b) {
        return std::uniform_real_distribution<double>(a, b)(rng);
    };
    int shortcuts = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const int p = 2 + int(rng() % 15);
        const int v = rng() % 3 == 0 ? 1 : 1 + int(rng() % 4);
        const std::int64_t m = p * (1 + std::int64_t(rng() % 20)) + (v == 1 ? rng() % p : 0);
        const int layers = p * v * (1 + int(rng() % 4)) + int(rng() % (p * v));
        std::vector<double> f(p * v), b(p * v);
        for (int s = 0; s < p; ++s)
            for (int c = 0; c < v; ++c) {
                const int chunkIndex = c * p + s;
                const int l = layers / (p * v) + (chunkIndex < layers % (p * v) ? 1 : 0);
                f[s * v + c] = l * 1.0;
                b[s * v + c] = l * 2.2;
            }
        f[p * v - 1] += uniform(0, 3);
        b[p * v - 1] += uniform(0, 6);
        f[0] += uniform(0, 0.2);
        b[0] += uniform(0, 0.4);
        PipelineInput in;
        in.schedule = v > 1 ? PipelineScheduleKind::Interleaved : PipelineScheduleKind::OneFOneB;
        in.stages = p;
        in.chunks = v;
        in.microbatches = m;
        in.forwardSeconds = f.data();
        in.backwardSeconds = b.data();
        in.edgeDelaySeconds = rng() % 2 ? uniform(0, 0.3) : 0.0;
        const PipelineResult full = simulatePipeline(in, nullptr, std::int64_t(1) << 40);
        const PipelineResult fast = simulatePipeline(in, nullptr, 1);
        QVERIFY(full.ok && fast.ok && !full.extrapolated);
        shortcuts += fast.extrapolated ? 1 : 0;
        QVERIFY2(near(fast.makespanSeconds, full.makespanSeconds, 1e-9),
                 qPrintable(QString("p=%1 v=%2 m=%3: %4 vs %5")
                                .arg(p)
                                .arg(v)
                                .arg(m)
                                .arg(fast.makespanSeconds)
                                .arg(full.makespanSeconds)));
        for (int s = 0; s < p; ++s)
            QVERIFY(near(fast.stageEndSeconds[s], full.stageEndSeconds[s], 1e-9));
    }
    QVERIFY(shortcuts > 200); // most runs were long enough to take the shortcut
}

void TestEstimator::zeroBubbleVExtrapolation() {
    // ZB-V's steady-state shortcut (parallel/ZeroBubbleV.h) against the full simulation:
    // uneven chunks, the embedding on rank 0's first chunk and the output layer on its second,
    // W from none to a whole B, p2p delays, up to 256 micro-batches.
    std::mt19937 rng(5);
    const auto uniform = [&](double a, double b) {
        return std::uniform_real_distribution<double>(a, b)(rng);
    };
    int shortcuts = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const int p = 2 + int(rng() % 11);
        const std::int64_t m = trial < 10 ? 256 : 1 + std::int64_t(rng() % 256);
        const int layers = 2 * p * (1 + int(rng() % 3)) + int(rng() % (2 * p));
        std::vector<double> f(2 * p), b(2 * p), w(2 * p);
        const double wShare = uniform(0, 0.5);
        for (int s = 0; s < p; ++s)
            for (int c = 0; c < 2; ++c) {
                const int k = chunkModelIndex(PipelineScheduleKind::ZeroBubble, p, 2, s, c);
                const int l = layers / (2 * p) + (k < layers % (2 * p) ? 1 : 0);
                f[s * 2 + c] = l * 1.0;
                b[s * 2 + c] = l * 2.2;
                w[s * 2 + c] = l * 2.2 * wShare;
            }
        f[1] += uniform(0, 3); // rank 0's chunk 1: output layer and loss
        b[1] += uniform(0, 6);
        f[0] += uniform(0, 0.2); // rank 0's chunk 0: embedding
        b[0] += uniform(0, 0.4);
        PipelineInput in;
        in.schedule = PipelineScheduleKind::ZeroBubble;
        in.stages = p;
        in.chunks = 2;
        in.microbatches = m;
        in.forwardSeconds = f.data();
        in.backwardSeconds = b.data();
        in.weightGradSeconds = w.data();
        in.edgeDelaySeconds = rng() % 2 ? uniform(0, 0.3) : 0.0;
        const PipelineResult full = simulatePipeline(in, nullptr, std::int64_t(1) << 40);
        const PipelineResult fast = simulatePipeline(in, nullptr, 1);
        QVERIFY(full.ok && fast.ok && !full.extrapolated);
        shortcuts += fast.extrapolated ? 1 : 0;
        QVERIFY2(near(fast.makespanSeconds, full.makespanSeconds, 1e-12),
                 qPrintable(QString("p=%1 m=%2: %3 vs %4")
                                .arg(p)
                                .arg(m)
                                .arg(fast.makespanSeconds)
                                .arg(full.makespanSeconds)));
        for (int s = 0; s < p; ++s) {
            QVERIFY(near(fast.stageEndSeconds[s], full.stageEndSeconds[s], 1e-12));
            QVERIFY(near(fast.stageBusySeconds[s], full.stageBusySeconds[s], 1e-12));
        }
    }
    QVERIFY2(shortcuts > 100, qPrintable(QString::number(shortcuts)));

    // Through the estimator: 256 micro-batches with the default event budget (the CLI's) give
    // the step of the full simulation.
    ResolvedScenario sc = baseScenario();
    setPipeline(sc, 4, 2, 8);
    sc.parallel.schedule = PipelineScheduleKind::ZeroBubble;
    sc.training.globalBatch = 256 * 8;
    const Estimate fast = shortcutMatchesFullRun(sc, 256);
}

void TestEstimator::zeroBubbleH1Extrapolation() {
    // ZB-H1 (zero bubble, vpp = 1) takes the steady-state shortcut too (parallel/
    // ScheduleKinds.h; against the full simulation in tst_schedules): 256 micro-batches on 8
    // stages are 6,144 operations, above the default event budget, and give the step of the
    // full simulation.
    ResolvedScenario sc = baseScenario();
    setPipeline(sc, 8, 1, 4);
    sc.parallel.schedule = PipelineScheduleKind::ZeroBubble;
    sc.training.globalBatch = 256 * 4;
    const Estimate fast = shortcutMatchesFullRun(sc, 256);
    // The timeline holds the short run: F, B and W of every micro-batch it simulated.
    std::int64_t passes = 0;
    for (const TimelineEvent& e : fast.timeline)
        passes += e.microbatch >= 0 ? 1 : 0;
    QCOMPARE(passes, 3 * 8 * fast.timelineMicrobatches);
}

void TestEstimator::zeroBubbleVPlan() {
    // ZB-V (zero bubble, vpp = 2): the model chunks in a V, so the output layer and the loss
    // sit on rank 0 with the embedding, and every rank holds 1F1B's first-stage activations.
    ResolvedScenario sc = baseScenario();
    setPipeline(sc, 4, 2, 8); // 8 chunks of 4 layers, m = 32
    sc.parallel.schedule = PipelineScheduleKind::ZeroBubble;
    const Estimate v = estimateOrFail(sc);
    QVERIFY(v.stepSeconds > 0);
    QCOMPARE(v.time.sum(), v.stepSeconds);
    QVERIFY(v.time.pipelineBubble >= 0);
    QCOMPARE(int(v.stageTimes.size()), 4);
    // The output layer's time is on rank 0; ranks 1 to 3 hold transformer layers only.
    for (int s = 1; s < 4; ++s)
        QVERIFY(v.stageTimes[0].forwardSeconds > v.stageTimes[s].forwardSeconds * 1.05);
    // The interleaved plan (looping placement) has it on the last rank instead.
    ResolvedScenario il = sc;
    il.parallel.schedule = PipelineScheduleKind::Interleaved;
    const Estimate i = estimateOrFail(il);
    QVERIFY(i.stageTimes[3].forwardSeconds > i.stageTimes[1].forwardSeconds * 1.05);
    QVERIFY(v.stageTimes[3].forwardSeconds <= v.stageTimes[1].forwardSeconds * 1.0001);
    QVERIFY(near(v.stageTimes[0].forwardSeconds - v.stageTimes[1].forwardSeconds,
                 i.stageTimes[0].forwardSeconds - i.stageTimes[1].forwardSeconds +
                     i.stageTimes[3].forwardSeconds - i.stageTimes[1].forwardSeconds,
                 1e-6));
    // The loss: the first backward of the step is rank 0's on its second chunk.
    const TimelineEvent* firstBackward = nullptr;
    for (const TimelineEvent& e : v.timeline)
        if (e.op == TimelineOp::BackwardInput &&
            (!firstBackward || e.startS < firstBackward->startS))
            firstBackward = &e;
    QVERIFY(firstBackward && firstBackward->stage == 0 && firstBackward->chunk == 1);
    // Activations: p micro-batches of a stage on every rank, plus the logits on rank 0.
    QCOMPARE(int(v.stages.size()), 4);
    for (int s = 2; s < 4; ++s)
        QVERIFY(near(v.stages[s].bytes.activations, v.stages[1].bytes.activations, 1e-12));
    QVERIFY(v.stages[0].bytes.activations > v.stages[1].bytes.activations);
    // Bubbles: ZB-V below ZB-H1 below 1F1B, for the same pp.
    ResolvedScenario h1 = sc;
    setPipeline(h1, 4, 1, 8);
    h1.parallel.schedule = PipelineScheduleKind::ZeroBubble;
    ResolvedScenario ofob = h1;
    ofob.parallel.schedule = PipelineScheduleKind::OneFOneB;
    const double bubbleH1 = estimateOrFail(h1).time.pipelineBubble;
    const double bubble1f1b = estimateOrFail(ofob).time.pipelineBubble;
    QVERIFY2(v.time.pipelineBubble < bubbleH1 && bubbleH1 < bubble1f1b,
             qPrintable(QString("zb-v %1, zb-h1 %2, 1f1b %3")
                            .arg(v.time.pipelineBubble)
                            .arg(bubbleH1)
                            .arg(bubble1f1b)));
}

void TestEstimator::collectiveCosts() {
    ClusterConfig c = baseScenario().cluster;
    const AlphaBetaCollectiveCost cost(c);
    const double S = 1e9;
    // Inside the NVLink domain: 2(n-1)/n S over 370 GB/s plus 2(n-1) latency steps.
    const CollectiveTime ar = cost.cost(Collective::AllReduce, S, {8, 1});
    QVERIFY(near(ar.seconds, 2.0 * 7 / 8 * S / 370e9 + 14 * 2e-6, 1e-12));
    QCOMPARE(ar.scaleOutBytes, 0.0);
    const CollectiveTime ag = cost.cost(Collective::AllGather, S, {8, 1});
    QVERIFY(near(ag.seconds, 7.0 / 8 * S / 370e9 + 7 * 2e-6, 1e-12));
    // One GPU per node: the NIC (400 Gbit/s, 47 GB/s achieved) is the bus bandwidth.
    const CollectiveTime rs = cost.cost(Collective::ReduceScatter, S, {16, 8});
    QVERIFY(near(rs.seconds, 15.0 / 16 * S / 47e9 + 4 * 5e-6, 1e-12));
    QCOMPARE(rs.scaleUpBytes, 0.0);
    // Eight members per node across nodes: NVLink-bound, traffic split by link class.
    const CollectiveTime wide = cost.cost(Collective::AllReduce, S, {64, 1});
    QVERIFY(wide.scaleOutBytes > 0 && wide.scaleUpBytes > 0);
    QVERIFY(wide.seconds > ar.seconds);
    QVERIFY(near(wide.scaleOutBytes + wide.scaleUpBytes, 2.0 * 63 / 64 * S, 1e-12));
}

void TestEstimator::matmulQuantization() {
    const HardwareProfile hw = defaultHardwareProfile(h100());
    // A multiply whose 256 x 128 tiles fill exactly 132 SMs is not quantized; one more tile
    // row adds a second, nearly empty wave (the best tile then is smaller).
    const double full = matmulShapeEfficiency(hw, 256 * 12, 128 * 11, 8192);
    QVERIFY(near(full, 1.0, 1e-12));
    QVERIFY(matmulShapeEfficiency(hw, 256 * 12 + 8, 128 * 11, 8192) < 0.95);
    // Compute-bound large GEMM vs memory-bound skinny GEMM.
    const double big = matmulSeconds(hw, MatmulDtype::Bf16, 8192, 8192, 8192);
    QVERIFY(big > 2.0 * 8192.0 * 8192 * 8192 / 989.4e12);
    const double skinny = matmulSeconds(hw, MatmulDtype::Bf16, 8192, 8192, 8);
    QVERIFY(skinny >= (8192.0 * 8192 * 2) / (3350e9 * hw.hbmEfficiency));
    // FP8 is faster than BF16 for the same shape.
    QVERIFY(matmulSeconds(hw, MatmulDtype::Fp8, 8192, 8192, 8192, 1.0) < big);
}

void TestEstimator::breakdownSumsToStep_data() {
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("vpp");
    QTest::addColumn<int>("zero");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<bool>("overlap");
    QTest::newRow("pp1 zero0") << 1 << 1 << 0 << 0 << false;
    QTest::newRow("pp2 zero1") << 2 << 1 << 1 << 1 << true;
    QTest::newRow("pp4 vpp2 zero1 full") << 4 << 2 << 1 << 2 << true;
    QTest::newRow("pp2 zero3 no overlap") << 2 << 1 << 3 << 1 << false;
    QTest::newRow("pp8 vpp4 gpipe-free") << 8 << 4 << 2 << 1 << true;
}

void TestEstimator::breakdownSumsToStep() {
    QFETCH(int, pp);
    QFETCH(int, vpp);
    QFETCH(int, zero);
    QFETCH(int, recompute);
    QFETCH(bool, overlap);
    ResolvedScenario sc = baseScenario();
    setPipeline(sc, pp, vpp, 64 / (2 * pp));
    sc.parallel.zero = zero;
    sc.parallel.recompute = static_cast<RecomputeMode>(recompute);
    sc.parallel.overlap = {overlap, overlap, overlap};
    const Estimate e = estimateOrFail(sc);
    QVERIFY(e.stepSeconds > 0);
    QCOMPARE(e.time.sum(), e.stepSeconds);
    QVERIFY(e.time.pipelineBubble >= 0);
    QVERIFY(e.time.compute > 0);
    if (pp == 1)
        QVERIFY(e.time.pipelineBubble < 1e-12);
    else
        QVERIFY(e.time.pipelineBubble > 0);
    QVERIFY(e.timeline.size() > 0);
    QCOMPARE(int(e.stages.size()), pp);
    QVERIFY(e.mfu > 0.05 && e.mfu < 1.0);
    QVERIFY(near(e.tokensPerS, 256.0 * 8192 / e.stepSeconds, 1e-12));
}

void TestEstimator::monotonicity() {
    const ResolvedScenario base = baseScenario();
    const double step = estimateOrFail(base).stepSeconds;
    // A larger global batch takes longer.
    ResolvedScenario bigger = base;
    bigger.training.globalBatch *= 2;
    QVERIFY(estimateOrFail(bigger).stepSeconds > step);
    // A larger model takes longer.
    ResolvedScenario deeper = base;
    deeper.model.layers = 48;
    deeper.parallel.pipelineLayers = {24, 24};
    QVERIFY(estimateOrFail(deeper).stepSeconds > step);
    // Full recompute costs time, saves memory.
    ResolvedScenario full = base;
    full.parallel.recompute = RecomputeMode::Full;
    const Estimate fe = estimateOrFail(full);
    const Estimate be = estimateOrFail(base);
    QVERIFY(fe.stepSeconds > be.stepSeconds);
    QVERIFY(fe.peakBreakdown.activations < be.peakBreakdown.activations);
    // Twice the GPUs in data parallel, same global batch: faster.
    ResolvedScenario wide = base;
    wide.cluster.numGpus = 128;
    wide.parallel.dp = 32;
    wide.parallel.dpShard = 32;
    QVERIFY(estimateOrFail(wide).stepSeconds < step);
    // FP8 is faster than BF16.
    ResolvedScenario fp8 = base;
    fp8.training.precision = Precision::Fp8;
    QVERIFY(estimateOrFail(fp8).stepSeconds < step);
    // Overlap never hurts.
    ResolvedScenario noOverlap = base;
    noOverlap.parallel.overlap = {false, false, false};
    QVERIFY(estimateOrFail(noOverlap).stepSeconds >= step);
    // A faster network never hurts.
    ResolvedScenario slowNet = base;
    slowNet.cluster.scaleOut.nicGbitPerS = 100;
    QVERIFY(estimateOrFail(slowNet).stepSeconds >= step);
}

void TestEstimator::memoryFollowsPlan() {
    const ResolvedScenario base = baseScenario();
    const Estimate e = estimateOrFail(base);
    QVERIFY(e.fits);
    QCOMPARE(e.capacityBytes, 80.0 * (1ull << 30));
    QCOMPARE(e.peakBytes, e.peakBreakdown.total());
    // ZeRO 0 holds more optimizer state than ZeRO 1, ZeRO 3 the least.
    ResolvedScenario z0 = base, z3 = base;
    z0.parallel.zero = 0;
    z3.parallel.zero = 3;
    QVERIFY(estimateOrFail(z0).peakBreakdown.optimizer > e.peakBreakdown.optimizer);
    QVERIFY(estimateOrFail(z3).peakBreakdown.weights < e.peakBreakdown.weights);
    // The first 1F1B stage holds the most activations (pp micro-batches in flight).
    QVERIFY(e.stages[0].bytes.activations > e.stages[1].bytes.activations * 0.9);
    // A plan that cannot fit says so, with a warning.
    ResolvedScenario huge = base;
    huge.training.microBatch = 16;
    huge.training.globalBatch = 16 * 16 * 4;
    huge.parallel.recompute = RecomputeMode::None;
    const Estimate he = estimateOrFail(huge);
    QVERIFY(!he.fits);
    QVERIFY(!he.warnings.empty());
}

void TestEstimator::paperAssumptions() {
    // Materialised attention scores (Korthikanti's assumptions) cost memory and time.
    const ResolvedScenario sc = baseScenario();
    EstimatorSettings paper = defaultEstimatorSettings(sc);
    paper.activations = {false, true};
    Diagnostics diags;
    const auto flash = estimatePlan(sc, diags);
    const auto materialised = estimatePlan(sc, paper, diags);
    QVERIFY(flash && materialised);
    QVERIFY(materialised->stepSeconds > flash->stepSeconds);
    // Selective recompute drops the s x s terms: activations equal up to the dropout masks.
    QVERIFY(materialised->peakBreakdown.activations > flash->peakBreakdown.activations);
    ResolvedScenario none = sc;
    none.parallel.recompute = RecomputeMode::None;
    const auto noneFlash = estimatePlan(none, diags);
    const auto noneMaterialised = estimatePlan(none, paper, diags);
    QVERIFY(noneMaterialised->peakBreakdown.activations >
            2.0 * noneFlash->peakBreakdown.activations);
}

void TestEstimator::jsonShape() {
    const Estimate e = estimateOrFail(baseScenario());
    const nlohmann::ordered_json j = estimateToJson(e);
    QCOMPARE(j.at("format").get<std::string>(), std::string("trainscape.estimate/1"));
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items())
        keys.push_back(k);
    const std::vector<std::string> expected = {"format",     "fits",          "memory", "time",
                                               "throughput", "communication", "energy", "cost",
                                               "train",      "warnings"};
    QVERIFY(keys == expected);
    QCOMPARE(j.at("memory").at("breakdown_bytes").size(), std::size_t(6));
    QCOMPARE(j.at("time").at("breakdown_s").size(), std::size_t(10));
    double sum = 0;
    for (const auto& [k, v] : j.at("time").at("breakdown_s").items())
        sum += v.get<double>();
    QVERIFY(near(sum, j.at("time").at("step_s").get<double>(), 1e-12));
    // Energy is always estimated (issue 7); a cost needs a price, which this hand-built
    // scenario (no catalog defaults) lacks.
    QVERIFY(j.at("energy").at("step_j").get<double>() > 0);
    QVERIFY(j.at("cost").at("usd_per_million_tokens").is_null());
    QVERIFY(j.at("train").at("days").is_null());
    // With training.tokens: whole steps and days.
    ResolvedScenario withTokens = baseScenario();
    withTokens.training.tokens = 1e12;
    const Estimate te = estimateOrFail(withTokens);
    QCOMPARE(*te.trainSteps, std::ceil(1e12 / (256.0 * 8192)));
    QVERIFY(near(*te.trainDays, *te.trainSteps * te.stepSeconds / 86400.0, 1e-12));
    QVERIFY(!te.trainUsd && te.stepJoules && te.trainKwh); // no price: no cost
    QCOMPARE(j.at("communication").at("bytes_per_gpu_per_step").size(), std::size_t(5));
    QVERIFY(j.at("communication").at("bytes_per_step_by_link").at("scale_out").get<double>() > 0);
    const std::string text = estimateToText(e);
    QVERIFY(text.find("fits: yes") != std::string::npos);
    QVERIFY(text.find("MFU") != std::string::npos);
}

void TestEstimator::unsupportedIsAnError() {
    // Offload and ZB-V are modelled (tests/tst_offload.cpp, zeroBubbleVPlan); expert
    // parallelism without experts is not.
    ResolvedScenario noExperts = baseScenario();
    noExperts.parallel.ep = 2;
    Diagnostics d1;
    QVERIFY(!estimatePlan(noExperts, d1));
    QVERIFY(d1.hasErrorAt("/parallelism/ep"));
    QVERIFY(d1.errors().front().message.find("not modelled yet") != std::string::npos);
    // Zero bubble takes one chunk per rank (ZB-H1) or two in a V (ZB-V), never three.
    ResolvedScenario zb3 = baseScenario();
    zb3.parallel.schedule = PipelineScheduleKind::ZeroBubble;
    zb3.parallel.vpp = 3;
    zb3.parallel.pipelineLayers = {6, 6, 5, 5, 5, 5};
    Diagnostics d2;
    QVERIFY(!estimatePlan(zb3, d2));
    QVERIFY(d2.hasErrorAt("/parallelism/vpp"));
    QVERIFY(d2.errors().front().message.find("ZB-V uses exactly 2 chunks") != std::string::npos);
}

// More GPUs than the graph model takes: the estimate says collectives use the two-level
// model. The warning was written into EstimateCollectives::topologyDiags before that member
// was constructed, then dropped by its constructor (ASan: stack-use-after-scope, found by
// fuzz_import_megatron; tests/fuzz/regressions/import_megatron).
void TestEstimator::topologyWarningKept() {
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(
        test::readAll(test::sourceDir() + "/resources/examples/llama3-8b-8xh100.json"));
    doc["cluster"]["num_gpus"] = 262144;
    doc["parallelism"]["dp"] = 262144;
    doc["training"]["global_batch"] = 262144;
    Diagnostics diags;
    auto scenario = scenarioFromJson(doc, diags);
    QVERIFY(scenario);
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY2(resolved, diags.all().empty() ? "" : diags.all()[0].message.c_str());
    EstimatorSettings settings = defaultEstimatorSettings(*resolved);
    settings.recordTimeline = false;
    auto estimate = estimatePlan(*resolved, settings, diags);
    QVERIFY(estimate);
    bool found = false;
    for (const auto& w : estimate->warnings)
        found = found || w.english.find("two-level model") != std::string::npos;
    QVERIFY2(found, "the graph model's warning is missing");
}

QTEST_GUILESS_MAIN(TestEstimator)
#include "tst_estimator.moc"
