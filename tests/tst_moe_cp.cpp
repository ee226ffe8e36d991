// Mixture-of-experts, MLA, context parallelism and the zero-bubble / breadth-first
// schedules against their published figures and formulas: parameter counts of Mixtral 8x7B
// and DeepSeek-V3, activations divided by cp, the all-to-all bytes of expert parallelism,
// and the bubbles of the schedules.

#include "EstimateChecks.h"
#include "EstimatorFixtures.h"
#include "PipelineFixtures.h"
#include "estimate/ContextParallel.h"
#include "estimate/Estimator.h"
#include "estimate/MoeLayerCost.h"
#include "model/MoeArithmetic.h"
#include "parallel/CollectiveCost.h"
#include "parallel/PipelineSchedule.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ts;

namespace {

using test::deepseekV3;
using test::estimateOrFail;
using test::h100;
using test::llama3_8b;
using test::mixtral8x7b;
using test::near;
using test::simulateEven;

// 64 H100 in 8 nodes, tp 1, pp 2, dp 32.
ResolvedScenario scenario(const ModelConfig& model) {
    return test::h100Scenario("test", model, {.globalBatch = 256, .pp = 2});
}

} // namespace

class TestMoeCp : public QObject {
    Q_OBJECT
private slots:
    void mixtralParameters();
    void deepseekV3Parameters();
    void contextParallelHalvesActivations();
    void contextParallelSplitsCompute();
    void allToAllBytes();
    void ringAndUlyssesCosts();
    void expertStatesShardOverExpertDp();
    void moeEstimateWarnsAndUsesActiveFlops();
    void zeroBubbleShortensBubble();
    void breadthFirstShortensGpipeBubble();
    void zeroBubbleEstimates();
};

void TestMoeCp::mixtralParameters() {
    // Mistral AI, "Mixtral of Experts" (arXiv 2401.04088): 46.7B total, 12.9B active.
    const SparseParameterCounts c = sparseParameterCounts(mixtral8x7b());
    QVERIFY2(near(c.total, 46.7e9, 0.01), qPrintable(QString::number(c.total)));
    QVERIFY2(near(c.active, 12.9e9, 0.01), qPrintable(QString::number(c.active)));
}

void TestMoeCp::deepseekV3Parameters() {
    // DeepSeek-V3 report (arXiv 2412.19437) sec. 4.2: 671B total, 37B activated per token
    // (the multi-token-prediction module, 14B, not included).
    const SparseParameterCounts c = sparseParameterCounts(deepseekV3());
    QVERIFY2(near(c.total, 671e9, 0.01), qPrintable(QString::number(c.total)));
    QVERIFY2(near(c.active, 37e9, 0.03), qPrintable(QString::number(c.active)));
    // MLA head dims: QK 128 + 64, PV 128; head_dim = 56 is ignored.
    const AttentionHeadDims d = attentionHeadDims(deepseekV3());
    QCOMPARE(d.qk, 192);
    QCOMPARE(d.v, 128);
}

void TestMoeCp::contextParallelHalvesActivations() {
    ResolvedScenario a = scenario(llama3_8b());
    a.parallel.pp = 1;
    a.parallel.pipelineLayers = {32};
    a.parallel.dp = a.parallel.dpShard = 64;
    ResolvedScenario b = a;
    b.parallel.cp = 2;
    b.parallel.dp = b.parallel.dpShard = 32;
    const Estimate ea = estimateOrFail(a), eb = estimateOrFail(b);
    QVERIFY2(near(eb.peakBreakdown.activations, 0.5 * ea.peakBreakdown.activations, 1e-9),
             qPrintable(QString("%1 vs %2")
                            .arg(eb.peakBreakdown.activations)
                            .arg(ea.peakBreakdown.activations)));
    // The ring exchanges K and V: cp traffic appears, and the gradient and optimizer
    // states shard over dp x cp = 64 as before.
    QVERIFY(eb.commBytesPerGpu.cp > 0);
    QVERIFY(near(eb.peakBreakdown.optimizer, ea.peakBreakdown.optimizer, 1e-9));
}

void TestMoeCp::contextParallelSplitsCompute() {
    // Same micro-batches per rank, cp = 2: each rank computes half of every sequence, so the
    // step's compute is about half (GEMM efficiency changes a little with the shorter M).
    ResolvedScenario a = scenario(llama3_8b());
    a.training.seqLen = 32768;
    a.training.globalBatch = 64;
    a.parallel.dp = a.parallel.dpShard = 32;
    ResolvedScenario b = a;
    b.parallel.cp = 2;
    b.parallel.dp = b.parallel.dpShard = 16;
    b.training.globalBatch = 32;
    const Estimate ea = estimateOrFail(a), eb = estimateOrFail(b);
    const double ratio = eb.time.compute / ea.time.compute;
    QVERIFY2(ratio > 0.45 && ratio < 0.6, qPrintable(QString::number(ratio)));
}

void TestMoeCp::allToAllBytes() {
    ResolvedScenario sc = scenario(mixtral8x7b());
    sc.parallel.ep = 8;
    sc.execution.moeDispatcher = MoeDispatcher::DeepEp;
    // Dispatch per rank (deduplicating dispatcher): tokens x distinct destination ranks x
    // imbalance x h x 2 bytes;
    // k = 2 of ep = 8: 8 (1 - (7/8)^2) = 1.875 ranks per token.
    const double expected = 4096.0 * 1.875 * 1.1 * 4096.0 * 2.0;
    QVERIFY(near(expertDispatchBytes(sc, 1.1), expected, 1e-12));
    // The NCCL-tests convention: an all-to-all sends (n-1)/n of the buffer.
    const AlphaBetaCollectiveCost cost(sc.cluster);
    const CollectiveTime t = cost.cost(Collective::AllToAll, expected, GroupPlacement{8, 1});
    QVERIFY(near(t.scaleUpBytes + t.scaleOutBytes, expected * 7.0 / 8.0, 1e-12));
    // The estimate: four all-to-alls per MoE layer and micro-batch (dispatch and combine,
    // forward and backward), on the ep group inside a node.
    const Estimate e = estimateOrFail(sc);
    const double m = 256.0 / 32.0;
    const double perGpu = 4.0 * 16.0 * m * expected * 7.0 / 8.0; // 16 layers per stage
    QVERIFY2(near(e.commBytesPerGpu.ep, perGpu, 1e-9),
             qPrintable(QString("%1 vs %2").arg(e.commBytesPerGpu.ep).arg(perGpu)));
    QVERIFY(e.time.epExposed > 0);
    // The alltoall dispatcher (the format's default) sends one copy per selected expert: k = 2.
    sc.execution.moeDispatcher = MoeDispatcher::AllToAll;
    const Estimate a2a = estimateOrFail(sc);
    const double copies = 4096.0 * 2.0 * 1.1 * 4096.0 * 2.0;
    QVERIFY2(near(a2a.commBytesPerGpu.ep, 4.0 * 16.0 * m * copies * 7.0 / 8.0, 1e-9),
             qPrintable(QString::number(a2a.commBytesPerGpu.ep)));
}

void TestMoeCp::ringAndUlyssesCosts() {
    const ResolvedScenario sc = scenario(llama3_8b());
    const AlphaBetaCollectiveCost cost(sc.cluster);
    HardwareProfile hw = defaultHardwareProfile(h100());
    const AttentionShape local{32, 65536, 128, true};
    const double kvPerToken = 2.0 * 1024 * 2.0;
    // cp = 1: the plain kernel, no communication.
    const ContextParallelAttention one = ringAttention(hw, cost, local, 1, {1, 1}, kvPerToken);
    QCOMPARE(one.forwardSeconds, attentionForwardSeconds(hw, local));
    QCOMPARE(one.forwardComm.scaleUpBytes, 0.0);
    // cp = 4 inside a node: 4 causal blocks of s/4 (the causal work divided by 4, within the
    // tile rounding), 3 transfers of the local K, V forward and 3 of K, V and their
    // gradients backward, hidden behind the blocks here.
    const ContextParallelAttention ring = ringAttention(hw, cost, local, 4, {4, 1}, kvPerToken);
    QVERIFY(near(ring.forwardSeconds, attentionForwardSeconds(hw, local) / 4.0, 0.02));
    QVERIFY(near(ring.forwardComm.scaleUpBytes, 3.0 * kvPerToken * 65536 / 4, 1e-12));
    QVERIFY(near(ring.backwardComm.scaleUpBytes, 6.0 * kvPerToken * 65536 / 4, 1e-12));
    QCOMPARE(ring.forwardComm.seconds, 0.0);
    // Ulysses: an all-to-all of the local tensor over the cp group.
    const CollectiveTime u = ulyssesAllToAll(cost, 1e8, 4, {4, 1});
    QVERIFY(near(u.scaleUpBytes, 1e8 * 3.0 / 4.0, 1e-12));
    QCOMPARE(ulyssesAllToAll(cost, 1e8, 1, {1, 1}).seconds, 0.0);
}

void TestMoeCp::expertStatesShardOverExpertDp() {
    // Mixtral on tp 1, ep 8, dp 32: experts sharded 8 ways, expert-DP = 32 / 8 = 4; the
    // distributed optimizer shards the dense states over 32 and the expert states over 4.
    ResolvedScenario sc = scenario(mixtral8x7b());
    sc.parallel.ep = 8;
    const SparseLayerParams p = sparseLayerParams(sc.model);
    const double denseStage = 16.0 * (p.attention.total() + p.norms + p.router) +
                              double(sc.model.vocab) * sc.model.hidden; // stage 0: embedding
    const double expertStage = 16.0 * p.experts * p.routedExpert / 8.0;
    const Estimate e = estimateOrFail(sc);
    const double optimizer = 12.0 * (denseStage / 32.0 + expertStage / 4.0);
    QVERIFY2(near(e.stages[0].bytes.optimizer, optimizer, 1e-9),
             qPrintable(QString("%1 vs %2").arg(e.stages[0].bytes.optimizer).arg(optimizer)));
    QVERIFY(near(e.stages[0].bytes.weights, 2.0 * (denseStage + expertStage), 1e-9));
}

void TestMoeCp::moeEstimateWarnsAndUsesActiveFlops() {
    ResolvedScenario sc = scenario(mixtral8x7b());
    sc.parallel.ep = 8;
    const Estimate e = estimateOrFail(sc);
    const auto warnsImbalance = [](const Estimate& est) {
        return std::any_of(est.warnings.begin(), est.warnings.end(), [](const Message& w) {
            return w.english.find("expert imbalance factor assumed 1.1") != std::string::npos;
        });
    };
    QVERIFY(warnsImbalance(e));
    // Force-balanced routing, or a capacity factor of 1, leaves no imbalance to assume.
    ResolvedScenario balanced = sc;
    balanced.execution.moeForceBalance = true;
    QVERIFY(!warnsImbalance(estimateOrFail(balanced)));
    ResolvedScenario capped = sc;
    capped.model.moe->capacityFactor = 1.0;
    QVERIFY(!warnsImbalance(estimateOrFail(capped)));
    const double flops = sparseTrainingFlopsPerToken(sc.model, sc.training.seqLen);
    QVERIFY(near(e.modelTflopsPerGpu, flops * e.tokensPerSPerGpu / 1e12, 1e-12));
    // 6 x active parameters (12.9B) dominates: far below 6 x 46.7B.
    QVERIFY(flops < 6.0 * 20e9);
}

void TestMoeCp::zeroBubbleShortensBubble() {
    // Qi et al. 2024, Table/Fig. 3: with F = B = W, ZB-H1's bubble is about a third of
    // 1F1B's, (p - 1)(F + B - W) against (p - 1)(F + B + W).
    for (int p : {4, 8})
        for (std::int64_t m : {8, 16, 32}) {
            std::vector<TimelineEvent> timeline;
            const PipelineResult zb =
                simulateEven(PipelineScheduleKind::ZeroBubble, p, 1, m, 1.0, 2.0, 1.0, &timeline);
            const PipelineResult ob =
                simulateEven(PipelineScheduleKind::OneFOneB, p, 1, m, 1.0, 2.0, 1.0);
            QVERIFY(zb.ok && ob.ok);
            const double work = 3.0 * m;
            const double bubbleZb = zb.makespanSeconds - work;
            const double bubble1f1b = ob.makespanSeconds - work;
            QVERIFY2(std::abs(bubble1f1b - 3.0 * (p - 1)) < 1e-9, "1F1B bubble (p-1)(F+B)");
            QVERIFY2(
                bubbleZb < 0.5 * bubble1f1b,
                qPrintable(
                    QString("p=%1 m=%2: %3 vs %4").arg(p).arg(m).arg(bubbleZb).arg(bubble1f1b)));
            QVERIFY(bubbleZb >= (p - 1) * (1.0 + 1.0 - 1.0) - 1e-9);
            const auto count = [&](TimelineOp op) {
                return std::count_if(timeline.begin(), timeline.end(),
                                     [&](const TimelineEvent& ev) { return ev.op == op; });
            };
            QCOMPARE(count(TimelineOp::BackwardInput), std::ptrdiff_t(p * m));
            QCOMPARE(count(TimelineOp::BackwardWeight), std::ptrdiff_t(p * m));
        }
}

void TestMoeCp::breadthFirstShortensGpipeBubble() {
    // Lamy-Poirier 2023: looping over v chunks divides GPipe's bubble (p - 1)(F + B) by v.
    const int p = 4, v = 4;
    const std::int64_t m = 8;
    const PipelineResult gp = simulateEven(PipelineScheduleKind::GPipe, p, 1, m, 1.0, 2.0, 0.0);
    const PipelineResult bf =
        simulateEven(PipelineScheduleKind::BreadthFirst, p, v, m, 1.0, 2.0, 0.0);
    QVERIFY(gp.ok && bf.ok);
    const double work = 3.0 * m;
    QVERIFY(std::abs((gp.makespanSeconds - work) - 3.0 * (p - 1)) < 1e-9);
    QVERIFY2(std::abs((bf.makespanSeconds - work) - 3.0 * (p - 1) / v) < 1e-9,
             qPrintable(QString::number(bf.makespanSeconds - work)));
}

void TestMoeCp::zeroBubbleEstimates() {
    ResolvedScenario a = scenario(llama3_8b());
    a.parallel.pp = 4;
    a.parallel.dp = a.parallel.dpShard = 16;
    a.parallel.pipelineLayers = {8, 8, 8, 8};
    ResolvedScenario b = a;
    b.parallel.schedule = PipelineScheduleKind::ZeroBubble;
    const Estimate ea = estimateOrFail(a), eb = estimateOrFail(b);
    QVERIFY(eb.time.pipelineBubble < ea.time.pipelineBubble);
    QVERIFY(near(eb.peakBreakdown.activations, ea.peakBreakdown.activations, 1e-12));
    ResolvedScenario c = a;
    c.parallel.schedule = PipelineScheduleKind::BreadthFirst;
    c.parallel.vpp = 2;
    c.parallel.pipelineLayers = {4, 4, 4, 4, 4, 4, 4, 4};
    const Estimate ec = estimateOrFail(c);
    // Every micro-batch in flight: 16 of them, against 1F1B's 4 on the first rank.
    QVERIFY(ec.peakBreakdown.activations > 3.0 * ea.peakBreakdown.activations);
}

QTEST_GUILESS_MAIN(TestMoeCp)
#include "tst_moe_cp.moc"
