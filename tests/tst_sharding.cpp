// Hybrid sharding (parallelism.dp_shard), the context-parallel communication variants
// (parallelism.cp_comm) and the expert-parallel all-to-all overlap (parallelism.overlap.ep)
// against hand-computed figures: ZeRO states divided by dp_shard x cp, the bytes each
// collective sends per GPU, and the direction the physics gives each trade-off.

#include "EstimateChecks.h"
#include "EstimatorFixtures.h"
#include "estimate/ContextParallel.h"
#include "estimate/DataParallelCost.h"
#include "estimate/Estimator.h"
#include "model/MoeArithmetic.h"
#include "model/TransformerArithmetic.h"
#include "parallel/CollectiveCost.h"

#include <QtTest>

#include <algorithm>
#include <string>

using namespace ts;

namespace {

using test::hasWarning;
using test::llama3_8b;
using test::mixtral8x7b;
using test::near;
using test::pair;

// Llama 3 8B on 64 H100 in 8 nodes: tp 1, pp 1, dp 64, full sharding, ZeRO 1.
ResolvedScenario scenario() {
    return test::h100Scenario("sharding", llama3_8b(), {.globalBatch = 512});
}

// The step's parts add up to the step (checked on every estimate made here).
void checkBreakdown(const Estimate& e) {
    QVERIFY2(test::sumsToStep(e), qPrintable(pair(e.time.sum(), e.stepSeconds)));
    QVERIFY(e.stepSeconds > 0);
}

// `twoLevel`: the alpha-beta collective model, whose figures the hand formulas below use;
// otherwise the default settings (collectives on the cluster graph). The breakdown checked.
Estimate estimateChecked(const ResolvedScenario& sc, bool twoLevel = true) {
    const Estimate e = test::estimateOrFail(sc, !twoLevel);
    checkBreakdown(e);
    return e;
}

// Dense parameters on one rank with tp = pp = 1: the whole model.
double allParams(const ModelConfig& m) {
    return countParameters(m).total();
}

} // namespace

class TestSharding : public QObject {
    Q_OBJECT
private slots:
    void groupsFollowRankOrder();
    void hybridStatesDivideByShardGroup_data();
    void hybridStatesDivideByShardGroup();
    void fullShardingIsTheFormerModel();
    void replicaAllReduceInDpBytes();
    void zero3ReplicaAllReduceOncePerStep();
    void zero3GathersLayerByLayer();
    void hybridBeatsFullShardingOnSlowNetwork();
    void expertStatesKeepExpertDp();
    void cpVariantsBytesPerGpu();
    void cpVariantsExposedTime();
    void ulyssesBeatsRingWhenRingIsBandwidthBound();
    void ringBeatsUlyssesWhenHiddenBehindBlocks();
    void epOverlapHidesAllToAlls();
    void epOverlapWarnings();
    void defaultSettingsSumToStep();
};

// ZeRO-3 gathers one layer at a time: the same bytes as one gather of the chunk, but each
// layer's collective pays the ring's latency, so at DP 1024 without model parallelism the
// gathers of 32 layers cost 32 latencies more (DeepSpeed / FSDP at scale: latency-bound).
void TestSharding::zero3GathersLayerByLayer() {
    ResolvedScenario sc =
        test::h100Scenario("zero3 dp 1024", llama3_8b(), {.gpus = 1024, .globalBatch = 1024});
    sc.parallel.zero = 3;
    const AlphaBetaCollectiveCost cost(sc.cluster);
    const DataParallelGroups g = dataParallelGroups(sc.parallel, groupStrides(sc.parallel));
    const double params = 8e9;
    const ShardedChunkComm whole = zero3ChunkComm(cost, g, params, 2.0, 4.0, 1);
    const ShardedChunkComm layers = zero3ChunkComm(cost, g, params, 2.0, 4.0, 32);
    QVERIFY(near(layers.gather.scaleOutBytes + layers.gather.scaleUpBytes,
                 whole.gather.scaleOutBytes + whole.gather.scaleUpBytes, 1e-12));
    const double oneLatency =
        cost.cost(Collective::AllGather, 1.0, g.shard).seconds; // ~ the latency alone
    QVERIFY2(layers.gather.seconds - whole.gather.seconds > 30.0 * oneLatency,
             qPrintable(pair(layers.gather.seconds - whole.gather.seconds, oneLatency)));
    QVERIFY(layers.reduceScatter.seconds > whole.reduceScatter.seconds);
}

void TestSharding::groupsFollowRankOrder() {
    // tp 2, cp 2, dp 16, dp_shard 4: a shard group is 4 x 2 = 8 consecutive dp-cp ranks
    // (stride tp = 2), its replicas lie 4 x 2 x 2 = 16 ranks apart.
    ParallelConfig p;
    p.tp = 2;
    p.cp = 2;
    p.dp = 16;
    p.dpShard = 4;
    const DataParallelGroups g = dataParallelGroups(p, groupStrides(p));
    QCOMPARE(g.dpCp, std::int64_t(32));
    QCOMPARE(g.shardRanks, std::int64_t(8));
    QCOMPARE(g.replicas, std::int64_t(4));
    QCOMPARE(g.shard.size, 8);
    QCOMPARE(g.shard.stride, 2LL);
    QCOMPARE(g.replicate.size, 4);
    QCOMPARE(g.replicate.stride, 16LL);
    QVERIFY(g.hybrid());
    // A plan built by hand whose dp_shard does not divide dp shards fully.
    p.dpShard = 3;
    QCOMPARE(shardDegree(p), std::int64_t(16));
    p.dpShard = 0;
    QCOMPARE(shardDegree(p), std::int64_t(16));
    p.dpShard = 16;
    QVERIFY(!dataParallelGroups(p, groupStrides(p)).hybrid());
}

void TestSharding::hybridStatesDivideByShardGroup_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<int>("cp");
    QTest::addColumn<int>("dpShard");
    QTest::newRow("zero1 cp1 shard8") << 1 << 1 << 8;
    QTest::newRow("zero2 cp1 shard8") << 2 << 1 << 8;
    QTest::newRow("zero3 cp1 shard8") << 3 << 1 << 8;
    QTest::newRow("zero3 cp2 shard4") << 3 << 2 << 4;
    QTest::newRow("zero1 cp2 shard1") << 1 << 2 << 1;
}

void TestSharding::hybridStatesDivideByShardGroup() {
    QFETCH(int, zero);
    QFETCH(int, cp);
    QFETCH(int, dpShard);
    ResolvedScenario sc = scenario();
    sc.parallel.zero = zero;
    sc.parallel.cp = cp;
    sc.parallel.dp = 64 / cp;
    sc.parallel.dpShard = dpShard;
    const Estimate e = estimateChecked(sc);
    // bf16 + Adam (Megatron accounting): weights 2, FP32 gradients 4, optimizer 12 bytes per
    // parameter; ZeRO 1 shards the optimizer, 2 also the gradients, 3 also the weights, each
    // over dp_shard x cp ranks (FSDP HYBRID_SHARD, Zhao et al. 2023 sec. 3.2.2).
    const double params = allParams(sc.model);
    const double shard = double(dpShard) * cp;
    const MemoryBreakdown& m = e.stages[0].bytes;
    QVERIFY2(near(m.optimizer, params * 12.0 / shard, 1e-12),
             qPrintable(pair(m.optimizer, params * 12.0 / shard)));
    QVERIFY(near(m.gradients, params * 4.0 / (zero >= 2 ? shard : 1.0), 1e-12));
    QVERIFY(near(m.weights, params * 2.0 / (zero >= 3 ? shard : 1.0), 1e-12));
    // Full sharding of the same plan holds dp_shard / dp of it.
    ResolvedScenario full = sc;
    full.parallel.dpShard = full.parallel.dp;
    const Estimate f = estimateChecked(full);
    QVERIFY(near(f.stages[0].bytes.optimizer, params * 12.0 / 64.0, 1e-12));
    QVERIFY(m.total() > f.stages[0].bytes.total());
}

void TestSharding::fullShardingIsTheFormerModel() {
    // dp_shard = dp is the estimate as it was before hybrid sharding: bit for bit the same as
    // a hand-built plan that leaves dp_shard unset (0, shardDegree = dp), and the collectives
    // of full sharding: ZeRO 1, reduce-scatter of the FP32 gradients and all-gather of the
    // 16-bit weights over all 64 ranks, (n-1)/n of each buffer sent per GPU (nccl-tests).
    for (int zero : {0, 1, 2, 3}) {
        ResolvedScenario a = scenario();
        a.parallel.zero = zero;
        ResolvedScenario b = a;
        b.parallel.dpShard = 0;
        const Estimate ea = estimateChecked(a), eb = estimateChecked(b);
        QCOMPARE(ea.stepSeconds, eb.stepSeconds);
        QCOMPARE(ea.peakBytes, eb.peakBytes);
        QCOMPARE(ea.commBytesPerGpu.dp, eb.commBytesPerGpu.dp);
        QVERIFY(!hasWarning(ea, "dp_shard"));
    }
    const Estimate e = estimateChecked(scenario());
    const double p = allParams(scenario().model);
    const double expected = 63.0 / 64.0 * (4.0 * p) + 63.0 / 64.0 * (2.0 * p);
    QVERIFY2(near(e.commBytesPerGpu.dp, expected, 1e-12),
             qPrintable(pair(e.commBytesPerGpu.dp, expected)));
}

void TestSharding::replicaAllReduceInDpBytes() {
    // ZeRO 1, dp 64, dp_shard 8: reduce-scatter of the gradients in the shard group (7/8 of
    // the buffer), all-reduce of the 1/8 gradient shard across the 8 replicas (2 x 7/8 of it),
    // all-gather of the weights in the shard group (7/8).
    ResolvedScenario sc = scenario();
    sc.parallel.dpShard = 8;
    const Estimate e = estimateChecked(sc);
    const double p = allParams(sc.model);
    const double g = 4.0 * p, w = 2.0 * p;
    const double expected = 7.0 / 8.0 * g + 2.0 * 7.0 / 8.0 * (g / 8.0) + 7.0 / 8.0 * w;
    QVERIFY2(near(e.commBytesPerGpu.dp, expected, 1e-12),
             qPrintable(pair(e.commBytesPerGpu.dp, expected)));
    // The shard group is one node (NVLink), the replica all-reduce crosses nodes with one
    // rank per node: exactly its bytes go over the NICs, 64 GPUs x 2 x 7/8 x g / 8.
    QVERIFY2(near(e.commBytesByLink.scaleOut, 64.0 * 2.0 * 7.0 / 8.0 * g / 8.0, 1e-12),
             qPrintable(pair(e.commBytesByLink.scaleOut, 64.0 * 2.0 * 7.0 / 8.0 * g / 8.0)));
    // Full sharding runs its ring reduce-scatter and all-gather across the 8 nodes, the 8
    // members of a node sharing the inter-node hops: 1/8 of what each sends crosses a NIC,
    // 64 x 63/64 (g + w) / 8 in all. With ZeRO 1 that is about what the hybrid all-reduce
    // sends (16-bit weights gathered against FP32 gradient shards all-reduced): hybrid
    // sharding pays off with ZeRO 3 (hybridBeatsFullShardingOnSlowNetwork).
    const Estimate full = estimateChecked(scenario());
    const double fullOut = 64.0 * 63.0 / 64.0 * (g + w) / 8.0;
    QVERIFY2(near(full.commBytesByLink.scaleOut, fullOut, 1e-12),
             qPrintable(pair(full.commBytesByLink.scaleOut, fullOut)));
}

void TestSharding::zero3ReplicaAllReduceOncePerStep() {
    // ZeRO 3, dp_shard 8: per micro-batch two all-gathers of the weights and one
    // reduce-scatter of the gradients in the shard group; once per step the all-reduce of
    // the gradient shard across the replicas. m = 512 / 64 = 8 micro-batches.
    ResolvedScenario sc = scenario();
    sc.parallel.zero = 3;
    sc.parallel.dpShard = 8;
    const Estimate e = estimateChecked(sc);
    const double p = allParams(sc.model);
    const double g = 4.0 * p, w = 2.0 * p, m = 8.0;
    const double expected = m * (2.0 * 7.0 / 8.0 * w + 7.0 / 8.0 * g) + 2.0 * 7.0 / 8.0 * (g / 8.0);
    QVERIFY2(near(e.commBytesPerGpu.dp, expected, 1e-12),
             qPrintable(pair(e.commBytesPerGpu.dp, expected)));
    QVERIFY(e.time.dpExposed > 0);
}

void TestSharding::hybridBeatsFullShardingOnSlowNetwork() {
    // Llama 3 8B, ZeRO 3 on 8 nodes joined by one 100 Gbit/s NIC each: full sharding gathers
    // and reduce-scatters every layer over the NICs for each of the 8 micro-batches; with
    // dp_shard = 8 (a node) they run on NVLink and only the gradient shards cross the network,
    // once per step (the case for HSDP in Zhao et al. 2023 sec. 3.2.2 and for MiCS).
    ResolvedScenario full = scenario();
    full.parallel.zero = 3;
    full.cluster.scaleOut.nicGbitPerS = 100;
    full.cluster.scaleOut.nicsPerNode = 1;
    ResolvedScenario hybrid = full;
    hybrid.parallel.dpShard = 8;
    const Estimate ef = estimateChecked(full), eh = estimateChecked(hybrid);
    QVERIFY2(eh.stepSeconds < 0.5 * ef.stepSeconds,
             qPrintable(pair(eh.stepSeconds, ef.stepSeconds)));
    QVERIFY(eh.time.dpExposed < ef.time.dpExposed);
    QVERIFY(eh.commBytesByLink.scaleOut < ef.commBytesByLink.scaleOut);
    // The price: 8x the states of full sharding.
    QVERIFY(near(eh.stages[0].bytes.optimizer, 8.0 * ef.stages[0].bytes.optimizer, 1e-12));
    // On the same graph-costed network the order holds as well.
    QVERIFY(estimateChecked(hybrid, false).stepSeconds < estimateChecked(full, false).stepSeconds);
}

void TestSharding::expertStatesKeepExpertDp() {
    // Routed experts shard over the expert-data-parallel group, tp cp dp / (ep etp) ranks, as
    // before (Megatron-Core's expert-DP group); dp_shard shards the dense states only.
    // Mixtral-like, ep 8, dp 64: experts 8 ways, expert-DP 8; dense states over 64, then 16.
    ResolvedScenario sc = scenario();
    sc.model = mixtral8x7b();
    sc.parallel.ep = 8;
    ResolvedScenario hybrid = sc;
    hybrid.parallel.dpShard = 16;
    const Estimate e = estimateChecked(sc), eh = estimateChecked(hybrid);
    const SparseLayerParams p = sparseLayerParams(sc.model);
    const double dense = 32.0 * (p.attention.total() + p.norms + p.router) +
                         2.0 * double(sc.model.vocab) * sc.model.hidden +
                         countParameters(sc.model).finalNorm;
    const double experts = 32.0 * p.experts * p.routedExpert / 8.0;
    QVERIFY2(near(e.stages[0].bytes.optimizer, 12.0 * (dense / 64.0 + experts / 8.0), 1e-12),
             qPrintable(pair(e.stages[0].bytes.optimizer, 12.0 * (dense / 64.0 + experts / 8.0))));
    QVERIFY(near(eh.stages[0].bytes.optimizer, 12.0 * (dense / 16.0 + experts / 8.0), 1e-12));
}

void TestSharding::cpVariantsBytesPerGpu() {
    // Llama 3 8B, cp 8 inside a node, s = 32768, m = 64 / 8 = 8 micro-batches, 32 layers.
    // Per token on one rank (16-bit): K + V 2 x 1024 x 2 = 4096 bytes, Q and the output
    // 4096 x 2 = 8192 bytes each.
    ResolvedScenario sc = scenario();
    sc.training.seqLen = 32768;
    sc.training.globalBatch = 64;
    sc.parallel.cp = 8;
    sc.parallel.dp = sc.parallel.dpShard = 8;
    const double s = 32768, cp = 8, layers = 32, m = 8;
    const double kv = 4096, q = 8192, out = 8192;
    // p2p: cp - 1 sends of the local K, V block forward, of K, V and dK, dV backward.
    const double ring = m * layers * 3.0 * (cp - 1) * kv * s / cp;
    // allgather: one all-gather of the sequence's K, V forward, another and a reduce-scatter
    // of dK, dV backward, (cp - 1)/cp of the full-sequence buffer each: the same volume.
    const double gather = m * layers * 3.0 * (cp - 1) / cp * kv * s;
    // a2a: Q, K, V and the output forward, their gradients backward, (cp - 1)/cp of the
    // local [s/cp] share each; 8 KV heads over cp = 8 need no replication.
    const double ulysses = m * layers * 2.0 * (cp - 1) / cp * (s / cp) * (q + kv + out);
    const std::pair<CpCommType, double> cases[] = {
        {CpCommType::P2P, ring}, {CpCommType::AllGather, gather}, {CpCommType::A2A, ulysses}};
    for (const auto& [comm, expected] : cases) {
        ResolvedScenario v = sc;
        v.parallel.cpComm = comm;
        const Estimate e = estimateChecked(v);
        QVERIFY2(near(e.commBytesPerGpu.cp, expected, 1e-12),
                 qPrintable(QString::fromStdString(std::string(enumName(comm))) + ": " +
                            pair(e.commBytesPerGpu.cp, expected)));
    }
    QVERIFY(near(ring, gather, 1e-12));
    // Ulysses moves (q + kv + out) x 2 / cp against the ring's 3 kv: 5/12 of it here.
    QVERIFY(near(ulysses / ring, 20480.0 * 2.0 / (8.0 * 3.0 * 4096.0), 1e-12));
}

namespace {

// Exposed CP seconds of one layer and micro-batch, forward + backward, by the formulas of
// each variant on the alpha-beta collectives (what the estimator must reproduce).
struct CpHand {
    double ring = 0, gather = 0, ulysses = 0;
};

CpHand cpHand(const ResolvedScenario& sc) {
    // The estimator's profile: the framework's attention kernel applied (AttentionKernel.h).
    const HardwareProfile hw = defaultEstimatorSettings(sc).hardware;
    const AlphaBetaCollectiveCost cost(sc.cluster);
    const ModelConfig& m = sc.model;
    const int tp = sc.parallel.tp, cp = sc.parallel.cp;
    const GroupPlacement group{cp, tp};
    const double s = double(sc.training.seqLen), local = s / cp;
    const double kvTok = 2.0 * m.kvHeads * m.headDim / tp * 2.0;
    const double qTok = double(m.heads) * m.headDim / tp * 2.0;
    const double heads = double(m.heads) / tp;
    AttentionShape block{heads, sc.training.seqLen / cp, m.headDim, true};
    const double blockF = attentionForwardSeconds(hw, block);
    const double blockB = attentionBackwardSeconds(hw, block);
    CpHand h;
    const double sendF = cost.cost(Collective::SendRecv, kvTok * local, group).seconds;
    const double sendB = cost.cost(Collective::SendRecv, 2.0 * kvTok * local, group).seconds;
    h.ring = (cp - 1) * (std::max(0.0, sendF - blockF) + std::max(0.0, sendB - blockB));
    const double ag = cost.cost(Collective::AllGather, kvTok * s, group).seconds;
    const double rs = cost.cost(Collective::ReduceScatter, kvTok * s, group).seconds;
    h.gather = ag + ag + rs;
    const double kvReplication = std::max(1.0, cp / (double(m.kvHeads) / tp));
    const double a2aQ = cost.cost(Collective::AllToAll, qTok * local, group).seconds;
    const double a2aK =
        cost.cost(Collective::AllToAll, 0.5 * kvTok * kvReplication * local, group).seconds;
    h.ulysses = 2.0 * (a2aQ + 2.0 * a2aK + a2aQ);
    return h;
}

// tp 8, cp 8 over the 8 nodes, one CP rank per node (every CP byte over the NICs), dp 1.
ResolvedScenario cpAcrossNodes(std::int64_t seqLen, std::int64_t globalBatch) {
    ResolvedScenario sc = scenario();
    sc.training.seqLen = seqLen;
    sc.training.globalBatch = globalBatch;
    sc.parallel.tp = 8;
    sc.parallel.cp = 8;
    sc.parallel.dp = sc.parallel.dpShard = 1;
    sc.parallel.sequenceParallel = true;
    return sc;
}

// The step's exposed CP time: m micro-batches x layers x the per-layer figure.
double stepCp(const ResolvedScenario& sc, double perLayer) {
    const double m = double(sc.training.globalBatch) / double(sc.parallel.dp);
    return m * sc.model.layers * perLayer;
}

} // namespace

void TestSharding::cpVariantsExposedTime() {
    const ResolvedScenario sc = cpAcrossNodes(32768, 8);
    const CpHand h = cpHand(sc);
    const std::pair<CpCommType, double> cases[] = {
        {CpCommType::P2P, h.ring}, {CpCommType::AllGather, h.gather}, {CpCommType::A2A, h.ulysses}};
    for (const auto& [comm, perLayer] : cases) {
        ResolvedScenario v = sc;
        v.parallel.cpComm = comm;
        const Estimate e = estimateChecked(v);
        QVERIFY2(near(e.time.cpExposed, stepCp(v, perLayer), 1e-9),
                 qPrintable(QString::fromStdString(std::string(enumName(comm))) + ": " +
                            pair(e.time.cpExposed, stepCp(v, perLayer))));
    }
    // The all-gather moves what the ring moves but cannot hide behind the attention.
    QVERIFY(h.gather > h.ring);
}

void TestSharding::ulyssesBeatsRingWhenRingIsBandwidthBound() {
    // Multi-head attention (32 K/V heads), s = 16384 over cp = 16 across two nodes with one
    // 100 Gbit/s NIC each: a ring step sends the 1024-token K, V block (2 x 4096 x 2 bytes per
    // token, 16 MiB) over one GPU's NIC share, far slower than the block's attention, so the
    // ring is bandwidth-bound: 15 exposed steps of the whole block. Ulysses sends each of Q, K,
    // V and the output (8 MiB each) once, half of it over the NICs (8 of 16 peers in the other
    // node): 16 MiB against the ring's 15 x 16 MiB forward (Jacobs et al. 2023 sec. 3.2:
    // constant per-link volume as cp grows with s). The all-gather sends what the ring sends,
    // but as one NCCL collective whose inter-node hops share all 8 members' NIC shares.
    ResolvedScenario sc = scenario();
    sc.model.kvHeads = sc.model.heads;
    sc.cluster.scaleOut.nicGbitPerS = 100;
    sc.cluster.scaleOut.nicsPerNode = 1;
    sc.training.seqLen = 16384;
    sc.training.globalBatch = 32;
    sc.parallel.cp = 16;
    sc.parallel.dp = sc.parallel.dpShard = 4;
    // The comparison is of GPU work: a full-iteration graph takes the host's per-kernel cost
    // out (at the default 40 us the ring's 16 steps of small kernels make its passes
    // host-bound, which estimate/HostTimeline.h counts as compute).
    sc.execution.cudaGraphs = CudaGraphs::Full;
    const CpHand h = cpHand(sc);
    QVERIFY2(h.ulysses < h.ring / 8.0, qPrintable(pair(h.ulysses, h.ring)));
    QVERIFY(h.ulysses < h.gather && h.gather < h.ring);
    ResolvedScenario ring = sc, ulysses = sc;
    ulysses.parallel.cpComm = CpCommType::A2A;
    const Estimate er = estimateChecked(ring), eu = estimateChecked(ulysses);
    QVERIFY(near(er.time.cpExposed, stepCp(sc, h.ring), 1e-9));
    QVERIFY(near(eu.time.cpExposed, stepCp(sc, h.ulysses), 1e-9));
    QVERIFY(eu.stepSeconds < er.stepSeconds);
    // Ulysses runs whole-sequence causal attention on 2 heads; the ring's 16 causal blocks of
    // 1024 tokens waste more of the diagonal tiles: a little more compute for the ring.
    QVERIFY(eu.time.compute < er.time.compute);
    QVERIFY(eu.time.compute > 0.85 * er.time.compute);
}

void TestSharding::ringBeatsUlyssesWhenHiddenBehindBlocks() {
    // Llama 3 8B (GQA, 8 K/V heads), tp 8, cp 8 across 8 nodes, s = 131072: a ring step sends
    // 16384 tokens x 512 bytes of K, V (8 MiB) while the 4 local heads compute a 16384-token
    // causal block, long enough to hide it (block work grows as (s/cp)^2, the transfer as
    // s/cp). Ulysses must replicate the single local K/V head to cp = 8 heads, then all-to-all
    // Q, K, V and the output in the open.
    const ResolvedScenario sc = cpAcrossNodes(131072, 1);
    const CpHand h = cpHand(sc);
    QCOMPARE(h.ring, 0.0);
    QVERIFY(h.ulysses > 0);
    ResolvedScenario ulysses = sc;
    ulysses.parallel.cpComm = CpCommType::A2A;
    const Estimate er = estimateChecked(sc), eu = estimateChecked(ulysses);
    QCOMPARE(er.time.cpExposed, 0.0);
    QVERIFY(near(eu.time.cpExposed, stepCp(sc, h.ulysses), 1e-9));
    // The a2a bytes include the 8-fold K/V replication: per token 1024 (Q) + 8 x 512 (K, V)
    // + 1024 (output), 7/8 of the local 16384 tokens, forward and backward, 32 layers.
    const double expected = 32.0 * 2.0 * 7.0 / 8.0 * 16384.0 * (1024.0 + 8.0 * 512.0 + 1024.0);
    QVERIFY2(near(eu.commBytesPerGpu.cp, expected, 1e-12),
             qPrintable(pair(eu.commBytesPerGpu.cp, expected)));
}

void TestSharding::epOverlapHidesAllToAlls() {
    // Mixtral-like, tp 1, pp 1, ep 8 inside a node: the all-to-alls of a pass are shorter
    // than its compute, so overlapped each leaves max(f c, c - t) = f c exposed plus the
    // interference on the hidden rest: (f + i (1 - f)) c with f = 0.15, i = 0.10 (OverlapModel).
    ResolvedScenario sc = scenario();
    sc.model = mixtral8x7b();
    sc.parallel.ep = 8;
    ResolvedScenario ov = sc;
    ov.parallel.overlap.ep = true;
    const Estimate e = estimateChecked(sc), eo = estimateChecked(ov);
    QVERIFY(e.time.epExposed > 0);
    QVERIFY2(e.time.epExposed < 0.3 * e.time.compute,
             qPrintable(pair(e.time.epExposed, e.time.compute)));
    const OverlapModel model;
    const double kept =
        model.epExposedFraction + model.interference * (1 - model.epExposedFraction);
    QVERIFY2(near(eo.time.epExposed, kept * e.time.epExposed, 1e-9),
             qPrintable(pair(eo.time.epExposed, kept * e.time.epExposed)));
    QVERIFY(eo.stepSeconds < e.stepSeconds);
    // The bytes do not change, only their exposure.
    QCOMPARE(eo.commBytesPerGpu.ep, e.commBytesPerGpu.ep);
    QCOMPARE(eo.time.compute, e.time.compute);

    // ep 16 over two nodes with one slow NIC: the all-to-alls outgrow the compute and stay
    // partly exposed. Never below the compute-only bound: the same plan with all-to-alls for
    // free (an unbounded, latency-free scale-up and scale-out network).
    ResolvedScenario slow = sc;
    slow.parallel.ep = 16;
    slow.cluster.scaleOut.nicGbitPerS = 100;
    slow.cluster.scaleOut.nicsPerNode = 1;
    ResolvedScenario slowOv = slow;
    slowOv.parallel.overlap.ep = true;
    ResolvedScenario free = slowOv;
    free.cluster.scaleUp.bandwidthGBps = 1e12;
    free.cluster.scaleUp.latencyUs = 0;
    free.cluster.scaleOut.nicGbitPerS = 1e12;
    free.cluster.scaleOut.latencyUs = 0;
    const Estimate es = estimateChecked(slow), eso = estimateChecked(slowOv),
                   ef = estimateChecked(free);
    QVERIFY2(es.time.epExposed > es.time.compute,
             qPrintable(pair(es.time.epExposed, es.time.compute)));
    QVERIFY(eso.time.epExposed < es.time.epExposed);
    QVERIFY(eso.time.epExposed > kept * es.time.epExposed);
    QVERIFY(eso.stepSeconds < es.stepSeconds);
    QVERIFY(ef.time.epExposed < 1e-3 * eso.time.epExposed);
    QVERIFY2(eso.stepSeconds >= ef.stepSeconds, qPrintable(pair(eso.stepSeconds, ef.stepSeconds)));
    QVERIFY(eso.stepSeconds >= eso.time.compute + eso.time.recompute);
}

void TestSharding::epOverlapWarnings() {
    ResolvedScenario sc = scenario();
    sc.model = mixtral8x7b();
    sc.parallel.ep = 8;
    sc.parallel.pp = 2;
    sc.parallel.dp = sc.parallel.dpShard = 32;
    sc.parallel.pipelineLayers = {16, 16};
    const Estimate e = estimateChecked(sc);
    QVERIFY(hasWarning(e, "counted as exposed: set parallelism.overlap.ep"));
    QVERIFY(!hasWarning(e, "DualPipe's bidirectional"));
    sc.parallel.overlap.ep = true;
    const Estimate eo = estimateChecked(sc);
    QVERIFY(!hasWarning(eo, "counted as exposed"));
    QVERIFY(hasWarning(eo, "only the all-to-all overlap is modelled"));
    QVERIFY(eo.stepSeconds < e.stepSeconds);
    sc.parallel.pp = 1;
    sc.parallel.dp = sc.parallel.dpShard = 64;
    sc.parallel.pipelineLayers = {32};
    QVERIFY(!hasWarning(estimateChecked(sc), "only the all-to-all overlap is modelled"));
}

void TestSharding::defaultSettingsSumToStep() {
    // Every option together on the graph-costed collectives: the breakdown still sums to the
    // step (checkBreakdown in estimateOrFail).
    ResolvedScenario sc = scenario();
    sc.model = mixtral8x7b();
    sc.training.seqLen = 16384;
    sc.training.globalBatch = 64;
    sc.parallel.ep = 8;
    sc.parallel.cp = 2;
    sc.parallel.pp = 2;
    sc.parallel.dp = 16;
    sc.parallel.pipelineLayers = {16, 16};
    sc.parallel.overlap.ep = true;
    for (int zero : {1, 2, 3})
        for (std::int64_t shard : {std::int64_t(16), std::int64_t(4), std::int64_t(1)})
            for (CpCommType comm : {CpCommType::P2P, CpCommType::AllGather, CpCommType::A2A}) {
                ResolvedScenario v = sc;
                v.parallel.zero = zero;
                v.parallel.dpShard = shard;
                v.parallel.cpComm = comm;
                estimateChecked(v, false);
                estimateChecked(v, true);
            }
}

QTEST_GUILESS_MAIN(TestSharding)
#include "tst_sharding.moc"
