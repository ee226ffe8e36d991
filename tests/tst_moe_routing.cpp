// Where a token's expert dispatch goes (model/MoeArithmetic.h, estimate/MoeLayerCost.h):
// the expected distinct destination ranks and scale-up domains per token, with and without
// group-limited routing (DeepSeek-V3 arXiv 2412.19437 sec. 2.1.2), against exact enumeration
// and a seeded Monte-Carlo count; the two-hop all-to-all (network once per destination
// domain, then scale-up forwarding, as DeepEP's internode kernels do); FP8 dispatch
// (DeepSeek-V3 sec. 3.3.2); and the estimate's step time and breakdown.

#include "EstimateChecks.h"
#include "EstimatorFixtures.h"
#include "TestSupport.h"

#include "estimate/Estimator.h"
#include "estimate/MoeLayerCost.h"
#include "model/MoeArithmetic.h"
#include "parallel/CollectiveCost.h"
#include "topology/GraphCollectiveCost.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <vector>

using namespace ts;

namespace {

using test::estimateOrFail;
using test::near;
using test::pair;

// Distinct bins (blocks of binExperts consecutive experts) of one token's experts.
int distinctBins(const std::vector<int>& experts, int binExperts) {
    std::set<int> bins;
    for (int e : experts)
        bins.insert(e / binExperts);
    return static_cast<int>(bins.size());
}

// Exact: every choice of groups, then every top_k-tuple of their experts (each drawn
// independently), each choice weighted 1 / C(G, g) x 1 / N^k.
double enumerateDistinctBins(const ExpertRouting& r, int binExperts) {
    const bool grouped = r.groups > 0;
    const int groups = grouped ? r.groups : 1;
    const int chosen = grouped ? r.groupsPerToken : 1;
    const int groupSize = r.experts / groups;
    std::vector<bool> pickGroups(static_cast<std::size_t>(groups), false);
    std::fill(pickGroups.begin(), pickGroups.begin() + chosen, true);
    double sum = 0;
    long long groupChoices = 0;
    do {
        std::vector<int> pool;
        for (int g = 0; g < groups; ++g)
            if (pickGroups[static_cast<std::size_t>(g)])
                for (int e = 0; e < groupSize; ++e)
                    pool.push_back(g * groupSize + e);
        std::vector<std::size_t> digits(static_cast<std::size_t>(r.topK), 0);
        double inner = 0;
        long long tuples = 0;
        for (;;) {
            std::vector<int> experts;
            for (std::size_t d : digits)
                experts.push_back(pool[d]);
            inner += distinctBins(experts, binExperts);
            ++tuples;
            std::size_t i = 0; // the next tuple, counting in base N
            while (i < digits.size() && ++digits[i] == pool.size())
                digits[i++] = 0;
            if (i == digits.size())
                break;
        }
        sum += inner / double(tuples);
        ++groupChoices;
    } while (std::prev_permutation(pickGroups.begin(), pickGroups.end()));
    return sum / double(groupChoices);
}

// Monte Carlo with a fixed seed: groups drawn uniformly without replacement, then each of
// the top_k experts uniformly from their experts.
double sampleDistinctBins(const ExpertRouting& r, int binExperts, int samples) {
    std::mt19937_64 rng(20241227);
    const bool grouped = r.groups > 0;
    const int groups = grouped ? r.groups : 1;
    const int chosen = grouped ? r.groupsPerToken : 1;
    const int groupSize = r.experts / groups;
    std::vector<int> groupOrder(static_cast<std::size_t>(groups));
    std::iota(groupOrder.begin(), groupOrder.end(), 0);
    std::vector<int> pool;
    double sum = 0;
    for (int s = 0; s < samples; ++s) {
        std::shuffle(groupOrder.begin(), groupOrder.end(), rng);
        pool.clear();
        for (int g = 0; g < chosen; ++g)
            for (int e = 0; e < groupSize; ++e)
                pool.push_back(groupOrder[static_cast<std::size_t>(g)] * groupSize + e);
        std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
        std::vector<int> experts;
        for (int i = 0; i < r.topK; ++i)
            experts.push_back(pool[pick(rng)]);
        sum += distinctBins(experts, binExperts);
    }
    return sum / samples;
}

// DeepSeek-V3's deployment shape on 64 H100 (8 nodes): EP 64 spans all 8 nodes, an expert
// group of 32 experts per node. tp 1, pp 1, dp 64 (the model does not fit; only time counts).
ResolvedScenario deepseekOn64(bool grouped, bool fp8Dispatch = false) {
    ResolvedScenario sc =
        test::h100Scenario("deepseek-v3 ep 64", test::deepseekV3(grouped), {.globalBatch = 512});
    sc.training.precision = Precision::Fp8;
    sc.parallel.ep = 64;
    sc.parallel.recompute = RecomputeMode::Full;
    sc.parallel.moeDispatchFp8 = fp8Dispatch;
    // DeepEP's deduplicating two-hop dispatch (the default alltoall dispatcher sends one copy
    // per selected expert in one NCCL all-to-all: estimate/RoutedExperts.h).
    sc.execution.moeDispatcher = MoeDispatcher::DeepEp;
    return sc;
}

} // namespace

class TestMoeRouting : public QObject {
    Q_OBJECT
private slots:
    void distinctBinsExact_data();
    void distinctBinsExact();
    void distinctBinsMonteCarlo_data();
    void distinctBinsMonteCarlo();
    void groupLimitBoundsDestinations();
    void twoHopAllToAll();
    void railOnlyNeedsNoForwardingBeforeTheNetwork();
    void groupLimitReducesScaleOutBytes();
    void fp8DispatchHalvesDispatchBytes();
    void breakdownSumsToStep();
};

// Shapes small enough to enumerate every choice.
void TestMoeRouting::distinctBinsExact_data() {
    QTest::addColumn<int>("experts");
    QTest::addColumn<int>("topK");
    QTest::addColumn<int>("groups"); // 0: none
    QTest::addColumn<int>("perToken");
    QTest::addColumn<int>("binExperts");
    QTest::newRow("mixtral, one expert per rank") << 8 << 2 << 0 << 0 << 1;
    QTest::newRow("16 of 4, ranks of 2") << 16 << 4 << 0 << 0 << 2;
    QTest::newRow("16 of 4, uneven last bin") << 16 << 4 << 0 << 0 << 6;
    QTest::newRow("grouped 4 of 2, ranks of 2") << 16 << 4 << 4 << 2 << 2;
    QTest::newRow("grouped, bins across groups") << 24 << 3 << 4 << 2 << 8;
    QTest::newRow("grouped, bins inside groups") << 24 << 4 << 2 << 1 << 4;
    QTest::newRow("grouped, uneven last bin") << 24 << 4 << 6 << 3 << 10;
    QTest::newRow("one group per token") << 20 << 2 << 5 << 1 << 3;
}

void TestMoeRouting::distinctBinsExact() {
    QFETCH(int, experts);
    QFETCH(int, topK);
    QFETCH(int, groups);
    QFETCH(int, perToken);
    QFETCH(int, binExperts);
    const ExpertRouting r{experts, topK, groups, perToken};
    const double formula = expectedDistinctBins(r, binExperts);
    const double exact = enumerateDistinctBins(r, binExperts);
    QVERIFY2(std::abs(formula - exact) < 1e-12, qPrintable(pair(formula, exact)));
}

// DeepSeek-size shapes, sampled: 200,000 tokens give a standard error below 0.005.
void TestMoeRouting::distinctBinsMonteCarlo_data() {
    QTest::addColumn<int>("experts");
    QTest::addColumn<int>("topK");
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("perToken");
    QTest::addColumn<int>("ep");
    QTest::addColumn<int>("membersPerDomain");
    // DeepSeek-V3: EP 64 over 8 nodes, 8 groups of 32 experts (one per node), 4 per token.
    QTest::newRow("deepseek-v3 grouped") << 256 << 8 << 8 << 4 << 64 << 8;
    QTest::newRow("deepseek-v3 ungrouped") << 256 << 8 << 0 << 0 << 64 << 8;
    // DeepSeek-V2 (arXiv 2405.04434): 160 experts, top 6, device-limited to 3 of 8 groups;
    // EP 32 over 4 nodes: a group of 20 experts spans 4 ranks, a node holds 2 groups.
    QTest::newRow("deepseek-v2 grouped") << 160 << 6 << 8 << 3 << 32 << 8;
    // Groups that do not align with nodes: 16 groups over 4 nodes of EP 32.
    QTest::newRow("16 groups, 4 nodes") << 256 << 8 << 16 << 4 << 32 << 8;
    // Nodes unevenly filled (EP 12 in domains of 5: 5, 5, 2) and groups across nodes.
    QTest::newRow("uneven domains") << 96 << 6 << 4 << 2 << 12 << 5;
    QTest::newRow("qwen3-235b, one node") << 128 << 8 << 0 << 0 << 32 << 32;
}

void TestMoeRouting::distinctBinsMonteCarlo() {
    QFETCH(int, experts);
    QFETCH(int, topK);
    QFETCH(int, groups);
    QFETCH(int, perToken);
    QFETCH(int, ep);
    QFETCH(int, membersPerDomain);
    const ExpertRouting r{experts, topK, groups, perToken};
    const int perRank = experts / ep;
    for (int bin : {perRank, perRank * membersPerDomain}) {
        const double formula = expectedDistinctBins(r, bin);
        const double sampled = sampleDistinctBins(r, bin, 200'000);
        QVERIFY2(std::abs(formula - sampled) < 0.02,
                 qPrintable(QString("bins of %1: ").arg(bin) + pair(formula, sampled)));
    }
}

void TestMoeRouting::groupLimitBoundsDestinations() {
    // DeepSeek-V3 (EP 64, 8 nodes of 8 ranks, 4 experts per rank): without the group limit a
    // token reaches 8 (1 - (7/8)^8) = 5.25 of the 8 nodes; with it at most 4 (the report:
    // "each token will be sent to at most 4 nodes"): 8 (1 - (1/2 + 1/2 (3/4)^8)) = 3.60.
    const ExpertRouting free{256, 8, 0, 0}, limited{256, 8, 8, 4};
    const double nodesFree = expectedDistinctBins(free, 32);
    const double nodesLimited = expectedDistinctBins(limited, 32);
    QVERIFY2(near(nodesFree, 8.0 * (1.0 - std::pow(7.0 / 8.0, 8)), 1e-12),
             qPrintable(pair(nodesFree, 5.25)));
    QVERIFY2(near(nodesLimited, 8.0 * (0.5 - 0.5 * std::pow(0.75, 8)), 1e-12),
             qPrintable(pair(nodesLimited, 3.60)));
    QVERIFY(nodesLimited <= 4.0 && nodesLimited < nodesFree);
    // Ranks: without groups the estimator's ep (1 - (1 - 1/ep)^k) as before; fewer with the
    // limit (the experts bunch in fewer groups).
    const double ranksFree = expectedDistinctBins(free, 4);
    const double ranksLimited = expectedDistinctBins(limited, 4);
    QVERIFY(near(ranksFree, 64.0 * (1.0 - std::pow(63.0 / 64.0, 8)), 1e-12));
    QVERIFY(ranksLimited < ranksFree && ranksFree < 8.0);
    // A limit that leaves every group, or a single group, changes nothing.
    QCOMPARE(expectedDistinctBins({256, 8, 8, 8}, 32), nodesFree);
    QCOMPARE(expectedDistinctBins({256, 8, 1, 1}, 32), nodesFree);
    QVERIFY(near(expectedDistinctBins(free, 256), 1.0, 1e-12));
    QVERIFY(near(expectedDistinctBins({256, 8, 8, 1}, 32), 1.0, 1e-12)); // one group, one node
}

void TestMoeRouting::twoHopAllToAll() {
    const ResolvedScenario sc = deepseekOn64(true);
    const AlphaBetaCollectiveCost cost(sc.cluster);
    const ExpertDispatchShape d = expertDispatchShape(sc, cost.membersPerDomain({64, 1}));
    QCOMPARE(d.membersPerDomain, 8);
    QCOMPARE(d.domains, 8);
    QVERIFY(near(d.domainsPerToken, expectedDistinctBins({256, 8, 8, 4}, 32), 1e-12));
    QVERIFY(near(d.ranksPerToken, expectedDistinctBins({256, 8, 8, 4}, 4), 1e-12));
    // Scale-out: one copy per destination node, (D-1)/D of them leave the node, over the
    // rank's own NIC to its rail peers; scale-up: one copy per destination rank, (k-1)/k of
    // them forwarded (or sent, in the token's own node) to another GPU of the node.
    const double perCopy = 4096.0 * 1.1 * 7168.0 * 2.0;
    const ExpertAllToAll a = expertAllToAll(cost, sc, 1.1, 2.0);
    QVERIFY2(near(a.scaleOut.scaleOutBytes, perCopy * d.domainsPerToken * 7.0 / 8.0, 1e-12),
             qPrintable(pair(a.scaleOut.scaleOutBytes, perCopy * d.domainsPerToken * 7 / 8)));
    QCOMPARE(a.scaleOut.scaleUpBytes, 0.0);
    QVERIFY(near(a.scaleUp.scaleUpBytes, perCopy * d.ranksPerToken * 7.0 / 8.0, 1e-12));
    QCOMPARE(a.scaleUp.scaleOutBytes, 0.0);
    QCOMPARE(a.total.seconds, std::max(a.scaleOut.seconds, a.scaleUp.seconds));
    QCOMPARE(a.total.scaleOutBytes, a.scaleOut.scaleOutBytes);
    QCOMPARE(a.total.scaleUpBytes, a.scaleUp.scaleUpBytes);
    QVERIFY(a.scaleOut.seconds > a.scaleUp.seconds); // the network is the bottleneck
    // The per-rank buffer of one copy per destination rank (the intra-node case).
    QVERIFY(near(expertDispatchBytes(sc, 1.1), perCopy * d.ranksPerToken, 1e-12));

    // EP inside one node: the scale-up all-to-all alone, as one all-to-all of the EP group.
    ResolvedScenario one = sc;
    one.parallel.ep = 8;
    const ExpertAllToAll b = expertAllToAll(cost, one, 1.1, 2.0);
    QCOMPARE(b.scaleOut.seconds, 0.0);
    const CollectiveTime whole =
        cost.cost(Collective::AllToAll, expertDispatchBytes(one, 1.1), GroupPlacement{8, 1});
    QCOMPARE(b.total.seconds, whole.seconds);
    QCOMPARE(b.total.scaleUpBytes, whole.scaleUpBytes);
    // One EP rank per node (etp 8 spaces them 8 apart): the network alone, per rank.
    ResolvedScenario spread = sc;
    spread.parallel.etp = 8;
    spread.parallel.ep = 8;
    const ExpertAllToAll c = expertAllToAll(cost, spread, 1.1, 2.0);
    QCOMPARE(c.scaleUp.seconds, 0.0);
    QVERIFY(c.total.scaleOutBytes > 0);
}

void TestMoeRouting::railOnlyNeedsNoForwardingBeforeTheNetwork() {
    // The network hop goes to the GPU of the same local index (DeepSeek-V3 sec. 3.2.2), on
    // the sender's own rail: rail-only costs what rail-optimized does, with no NVLink hop
    // before the NIC; a plain all-to-all of the EP group still pays rail-only forwarding.
    // 1024 GPUs: rails of 128 NICs, each its own network (smaller rails share a switch).
    ResolvedScenario opt = deepseekOn64(true);
    opt.cluster.numGpus = 1024;
    opt.cluster.scaleOut.switchRadix = 64;
    ResolvedScenario only = opt;
    only.cluster.scaleOut.topology = ScaleOutTopology::RailOnly;
    const auto costOpt = topologyCollectiveCost(opt.cluster, {});
    const auto costOnly = topologyCollectiveCost(only.cluster, {});
    QVERIFY(costOpt && costOnly);
    const ExpertAllToAll a = expertAllToAll(*costOpt, opt, 1.1, 2.0);
    const ExpertAllToAll b = expertAllToAll(*costOnly, only, 1.1, 2.0);
    QVERIFY(a.total.seconds > 0);
    QVERIFY2(near(b.total.seconds, a.total.seconds, 1e-12),
             qPrintable(pair(b.total.seconds, a.total.seconds)));
    QCOMPARE(b.scaleOut.scaleUpBytes, 0.0);
    // The graph and the two-level model agree on a non-blocking rail-optimized cluster.
    const AlphaBetaCollectiveCost twoLevel(opt.cluster);
    const ExpertAllToAll c = expertAllToAll(twoLevel, opt, 1.1, 2.0);
    QVERIFY(near(c.total.seconds, a.total.seconds, 1e-9));
    QVERIFY(near(c.total.scaleOutBytes, a.total.scaleOutBytes, 1e-12));
    const double bytes = 1e8;
    const GroupPlacement ep{64, 1};
    QVERIFY(costOnly->cost(Collective::AllToAll, bytes, ep).seconds >
            costOpt->cost(Collective::AllToAll, bytes, ep).seconds);
}

void TestMoeRouting::groupLimitReducesScaleOutBytes() {
    for (bool topology : {false, true}) {
        const Estimate free = estimateOrFail(deepseekOn64(false), topology);
        const Estimate limited = estimateOrFail(deepseekOn64(true), topology);
        QVERIFY2(limited.commBytesByLink.scaleOut < 0.75 * free.commBytesByLink.scaleOut,
                 qPrintable(pair(limited.commBytesByLink.scaleOut, free.commBytesByLink.scaleOut)));
        QVERIFY(limited.commBytesPerGpu.ep < free.commBytesPerGpu.ep);
        QVERIFY(limited.time.epExposed < free.time.epExposed);
        QVERIFY(limited.stepSeconds <= free.stepSeconds);
        // Nothing else moves.
        QCOMPARE(limited.time.compute, free.time.compute);
        QCOMPARE(limited.commBytesPerGpu.dp, free.commBytesPerGpu.dp);
        QCOMPARE(limited.peakBytes, free.peakBytes);
    }
    // Inside one node the limit changes no scale-out byte.
    ResolvedScenario a = deepseekOn64(false), b = deepseekOn64(true);
    a.parallel.ep = b.parallel.ep = 8;
    const Estimate ea = estimateOrFail(a), eb = estimateOrFail(b);
    QVERIFY(eb.stepSeconds <= ea.stepSeconds);
    QVERIFY(eb.commBytesPerGpu.ep <= ea.commBytesPerGpu.ep);
}

void TestMoeRouting::fp8DispatchHalvesDispatchBytes() {
    const ResolvedScenario bf16 = deepseekOn64(true);
    const ResolvedScenario fp8 = deepseekOn64(true, true);
    const AlphaBetaCollectiveCost cost(bf16.cluster);
    // 1 byte per element and one FP32 scale per 128: 1.03125 of the BF16's 2 bytes.
    QCOMPARE(kFp8DispatchElementBytes, 1.03125);
    const ExpertAllToAll d16 = expertAllToAll(cost, bf16, 1.1, 2.0);
    const ExpertAllToAll d8 = expertAllToAll(cost, fp8, 1.1, kFp8DispatchElementBytes);
    QVERIFY(near(d8.total.scaleOutBytes, d16.total.scaleOutBytes * 1.03125 / 2.0, 1e-12));
    QVERIFY(near(d8.total.scaleUpBytes, d16.total.scaleUpBytes * 1.03125 / 2.0, 1e-12));
    QVERIFY(d8.total.seconds < 0.6 * d16.total.seconds);
    // Per MoE layer: forward dispatch (FP8) + combine (BF16); backward the same pair (the
    // activation gradient before the down-projection dispatched in FP8, combines in BF16).
    const Estimate e16 = estimateOrFail(bf16, false), e8 = estimateOrFail(fp8, false);
    const double ratio = e8.commBytesPerGpu.ep / e16.commBytesPerGpu.ep;
    QVERIFY2(near(ratio, (1.03125 + 2.0) / 4.0, 1e-9), qPrintable(QString::number(ratio)));
    QVERIFY(e8.time.epExposed < e16.time.epExposed);
    QVERIFY(e8.stepSeconds <= e16.stepSeconds);
    QCOMPARE(e8.time.compute, e16.time.compute);
    QCOMPARE(e8.peakBytes, e16.peakBytes);
}

void TestMoeRouting::breakdownSumsToStep() {
    for (bool grouped : {false, true})
        for (bool fp8 : {false, true})
            for (bool topology : {false, true}) {
                ResolvedScenario sc = deepseekOn64(grouped, fp8);
                for (bool overlap : {false, true}) {
                    sc.parallel.overlap.ep = overlap;
                    const Estimate e = estimateOrFail(sc, topology);
                    QVERIFY2(near(e.time.sum(), e.stepSeconds, 1e-9),
                             qPrintable(pair(e.time.sum(), e.stepSeconds)));
                    QVERIFY(e.time.epExposed >= 0);
                    QVERIFY(e.commBytesByLink.scaleOut > 0 && e.commBytesByLink.scaleUp > 0);
                }
            }
}

QTEST_GUILESS_MAIN(TestMoeRouting)
#include "tst_moe_routing.moc"
