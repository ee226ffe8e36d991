// The cluster as a graph: builders and their validation, the network bill of materials
// against the Rail-only paper (Wang et al., arXiv 2307.12169; shared/reference/catalog.md
// A1), collectives on the graph (oversubscription, rail-only forwarding, WAN), the estimator
// on rail-only against rail-optimized, and cluster.graph round trips.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "parallel/CollectiveCost.h"
#include "scenario/ClusterGraphJson.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"
#include "topology/GraphCollectiveCost.h"
#include "topology/NetworkBom.h"
#include "topology/Placement.h"
#include "topology/TopologyBuilder.h"
#include "topology/TopologyModel.h"

#include <QProcess>
#include <QtTest>

#include <cmath>

using namespace ts;
using Json = nlohmann::ordered_json;

namespace {

ClusterConfig cluster(std::int64_t gpus, int domain, ScaleOutTopology topology, int radix,
                      double nicGbit = 400, double scaleUpGBps = 450, int gpusPerNode = 8,
                      int nicsPerNode = 8) {
    ClusterConfig c;
    c.numGpus = gpus;
    c.gpusPerNode = gpusPerNode;
    c.scaleUp = {domain, scaleUpGBps, 2.0};
    c.scaleOut.topology = topology;
    c.scaleOut.nicGbitPerS = nicGbit;
    c.scaleOut.nicsPerNode = nicsPerNode;
    c.scaleOut.switchRadix = radix;
    c.scaleOut.latencyUs = 5.0;
    return c;
}

// The paper's setting: 32,768 GPUs in high-bandwidth domains of 256 (GH200-class, one GPU
// and one 400G NIC per node), 256 rails of 128 GPUs.
ClusterConfig paperCluster(ScaleOutTopology topology, int radix) {
    return cluster(32768, 256, topology, radix, 400, 450, 1, 1);
}

Topology build(const ClusterConfig& c) {
    Diagnostics diags;
    auto t = buildTopology(c, diags);
    if (!t || !validateTopology(*t, "/cluster/scale_out", diags)) {
        for (const auto& d : diags.all())
            qWarning("%s", d.toString().c_str());
        return {};
    }
    return std::move(*t);
}

double saving(double baseline, double candidate) {
    return 1.0 - candidate / baseline;
}

std::optional<ResolvedScenario> resolveText(const std::string& text, Diagnostics& diags) {
    auto scenario = parseScenarioText(text, diags);
    if (!scenario)
        return std::nullopt;
    return resolveScenario(*scenario, Catalog::builtIn(), diags);
}

// GPT-3 175B (a dense GPT) on 1024 H100 with Megatron's TP 8, PP 8, DP 16.
std::string gptScenario(const char* topology, int domainGpus = 8, double oversubscription = 1) {
    return R"({"format": "trainscape.scenario/1",
      "model": {"preset": "gpt3-175b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 1024,
                  "scale_up": {"domain_gpus": )" +
           std::to_string(domainGpus) + R"(},
                  "scale_out": {"topology": ")" +
           topology + R"(", "oversubscription": )" + std::to_string(oversubscription) + R"(}},
      "training": {"seq_len": 2048, "global_batch": 1536, "micro_batch": 1,
                   "precision": "bf16"},
      "parallelism": {"tp": 8, "pp": 8, "dp": 16, "sequence_parallel": true, "zero": 1,
                      "recompute": "selective",
                      "overlap": {"tp": true, "dp": true, "pp": true}}})";
}

double stepSeconds(const std::string& text) {
    Diagnostics diags;
    auto sc = resolveText(text, diags);
    if (!sc)
        return -1;
    auto est = estimatePlan(*sc, diags);
    return est ? est->stepSeconds : -1;
}

const char* kGraphJson = R"({
  "nodes": [
    {"id": "g0", "kind": "gpu"}, {"id": "g1", "kind": "gpu"},
    {"id": "g2", "kind": "gpu"}, {"id": "g3", "kind": "gpu"},
    {"id": "nvs0", "kind": "scale-up-switch"}, {"id": "nvs1", "kind": "scale-up-switch"},
    {"id": "n0", "kind": "nic", "gpus": ["g0"]}, {"id": "n1", "kind": "nic", "gpus": ["g1"]},
    {"id": "n2", "kind": "nic", "gpus": ["g2"]}, {"id": "n3", "kind": "nic", "gpus": ["g3"]},
    {"id": "leaf0", "kind": "switch", "radix": 4, "label": "Leaf 0", "x": 10, "y": 20}
  ],
  "links": [
    {"from": "g0", "to": "nvs0", "class": "scale-up", "gb_s": 450},
    {"from": "g1", "to": "nvs0", "class": "scale-up", "gb_s": 450},
    {"from": "g2", "to": "nvs1", "class": "scale-up", "gb_s": 450},
    {"from": "g3", "to": "nvs1", "class": "scale-up", "gb_s": 450},
    {"from": "n0", "to": "leaf0", "class": "scale-out", "gb_s": 50},
    {"from": "n1", "to": "leaf0", "class": "scale-out", "gb_s": 50},
    {"from": "n2", "to": "leaf0", "class": "scale-out", "gb_s": 50, "latency_us": 0.5},
    {"from": "n3", "to": "leaf0", "class": "scale-out", "gb_s": 50}
  ]})";

} // namespace

class TestTopology : public QObject {
    Q_OBJECT
private slots:
    void railOnlyAgainstRailOptimizedAtPaperScale_data();
    void railOnlyAgainstRailOptimizedAtPaperScale();
    void bomUnknownsAreNullNotZero();
    void railOptimizedNonBlockingEqualsAlphaBeta();
    void denseStepTimeRailOnlyMatchesRailOptimized();
    void oversubscriptionSlowsEstimatesWhereGroupsLeaveTheLeaf();
    void inNetworkReductionOptions();
    void allToAllOnRailOnlyPaysForwarding_data();
    void allToAllOnRailOnlyPaysForwarding();
    void oversubscribedFatTreeSlowsCrossLeafDataParallel();
    void multiDatacenterCrossesWan();
    void buildersBuildAndValidate_data();
    void buildersBuildAndValidate();
    void invalidTopologiesAreRefused();
    void clusterGraphRoundTrip();
    void clusterGraphValidation_data();
    void clusterGraphValidation();
    void scaleOutKeysRoundTrip();
    void costLookupIsCheap();
    void placementFollowsRankOrder();
    void trafficPerLink();
    void trafficAllToAll();
    void cliNetworkForEveryBuilder_data();
    void cliNetworkForEveryBuilder();
};

void TestTopology::railOnlyAgainstRailOptimizedAtPaperScale_data() {
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("paperSwitches");      // rail-only, catalog.md A1 table
    QTest::addColumn<int>("paperTransceivers");  // rail-only
    QTest::addColumn<double>("paperCostSaving"); // rail-only vs rail-optimized
    QTest::addColumn<double>("paperPowerSaving");
    QTest::newRow("radix 64") << 64 << 1536 << 131072 << 0.38 << 0.37;
    QTest::newRow("radix 128") << 128 << 256 << 65536 << 0.77 << 0.75;
    QTest::newRow("radix 256") << 256 << 128 << 65536 << 0.62 << 0.60;
}

void TestTopology::railOnlyAgainstRailOptimizedAtPaperScale() {
    QFETCH(int, radix);
    QFETCH(int, paperSwitches);
    QFETCH(int, paperTransceivers);
    QFETCH(double, paperCostSaving);
    QFETCH(double, paperPowerSaving);
    const auto& net = Catalog::builtIn().network();
    const Topology railOnly = build(paperCluster(ScaleOutTopology::RailOnly, radix));
    const Topology railOpt = build(paperCluster(ScaleOutTopology::RailOptimized, radix));
    QCOMPARE(railOnly.gpuNodes.size(), std::size_t(32768));
    const NetworkBom only = networkBom(railOnly, net);
    const NetworkBom opt = networkBom(railOpt, net);
    // The rail-only counts are the paper's exactly.
    QCOMPARE(only.switches, std::int64_t(paperSwitches));
    QCOMPARE(only.transceivers, std::int64_t(paperTransceivers));
    if (radix == 128) {
        // "removes up to 1,024 switches and 131,072 transceivers" (catalog.md A1).
        QCOMPARE(opt.switches - only.switches, std::int64_t(1024));
        QCOMPARE(opt.transceivers - only.transceivers, std::int64_t(131072));
    }
    const double switchSaving = saving(double(opt.switches), double(only.switches));
    const double opticsSaving = saving(double(opt.transceivers), double(only.transceivers));
    qInfo("radix %d: rail-optimized %lld switches, %lld transceivers (%d tiers); rail-only %lld "
          "switches, %lld transceivers; savings: switches %.1f%%, transceivers %.1f%%; paper: "
          "cost %.0f%%, power %.0f%%",
          radix, static_cast<long long>(opt.switches), static_cast<long long>(opt.transceivers),
          railOpt.tiers, static_cast<long long>(only.switches),
          static_cast<long long>(only.transceivers), 100 * switchSaving, 100 * opticsSaving,
          100 * paperCostSaving, 100 * paperPowerSaving);
    // The paper's cost and power savings are a mix of switch and transceiver savings; with
    // no sourced unit prices, the counts must bracket them, and the switch saving (the
    // larger cost) must be within a few points of them.
    constexpr double kPoints = 0.05;
    QVERIFY(opticsSaving - kPoints <= paperCostSaving && paperCostSaving <= switchSaving + kPoints);
    QVERIFY(opticsSaving - kPoints <= paperPowerSaving &&
            paperPowerSaving <= switchSaving + kPoints);
    QVERIFY2(
        std::fabs(switchSaving - paperCostSaving) <= kPoints,
        qPrintable(QString("switch saving %1 vs paper %2").arg(switchSaving).arg(paperCostSaving)));
}

void TestTopology::bomUnknownsAreNullNotZero() {
    const Topology t = build(paperCluster(ScaleOutTopology::RailOptimized, 64));
    const NetworkBom bom = networkBom(t, Catalog::builtIn().network());
    const Json j = bomToJson(bom);
    // Switch power and every price lack a public source: the totals are unknown.
    QVERIFY(j["capex_usd"].is_null());
    QVERIFY(j["power_w"].is_null());
    QVERIFY(!bom.notes.empty());
    // The transceivers' power is sourced (9 W per 400G OSFP DR4, NVIDIA MMS4X00-NS400).
    QCOMPARE(bom.knownPowerW, 9.0 * double(bom.transceivers));
    for (const char* key : {"switches", "transceivers", "cables", "nics", "capex_usd", "power_w"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(bom.nics, std::int64_t(32768));
    QCOMPARE(bom.cables * 2, bom.transceivers);
}

void TestTopology::railOptimizedNonBlockingEqualsAlphaBeta() {
    // A non-blocking rail-optimized cluster costs exactly what the two-level model says.
    const ClusterConfig c = cluster(1024, 8, ScaleOutTopology::RailOptimized, 64);
    const AlphaBetaCollectiveCost ab(c);
    const auto graph = topologyCollectiveCost(c, {});
    QVERIFY(graph);
    for (const GroupPlacement g :
         {GroupPlacement{8, 1}, GroupPlacement{16, 8}, GroupPlacement{128, 8},
          GroupPlacement{64, 1}, GroupPlacement{4, 256}, GroupPlacement{2, 4}})
        for (Collective kind :
             {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
              Collective::AllToAll, Collective::SendRecv})
            for (double bytes : {1e3, 1e6, 1e9}) {
                const CollectiveTime a = ab.cost(kind, bytes, g);
                const CollectiveTime b = graph->cost(kind, bytes, g);
                QVERIFY2(std::fabs(a.seconds - b.seconds) <= 1e-12 * a.seconds,
                         qPrintable(QString("kind %1 size %2 stride %3: %4 vs %5")
                                        .arg(int(kind))
                                        .arg(g.size)
                                        .arg(g.stride)
                                        .arg(a.seconds)
                                        .arg(b.seconds)));
                QCOMPARE(a.scaleOutBytes, b.scaleOutBytes);
            }
}

void TestTopology::denseStepTimeRailOnlyMatchesRailOptimized() {
    for (int domain : {8, 256}) {
        double step[2] = {0, 0};
        int i = 0;
        for (const char* topology : {"rail-optimized", "rail-only"}) {
            Diagnostics diags;
            auto sc = resolveText(gptScenario(topology, domain), diags);
            QVERIFY2(sc, diags.all().empty() ? "" : diags.all()[0].toString().c_str());
            auto est = estimatePlan(*sc, diags);
            QVERIFY2(est, diags.all().empty() ? "" : diags.all()[0].toString().c_str());
            step[i++] = est->stepSeconds;
        }
        const double ratio = step[1] / step[0];
        qInfo("GPT-3 175B, 1024 H100, TP 8 PP 8 DP 16, domain %d: rail-optimized %.4f s, "
              "rail-only %.4f s, ratio %.4f",
              domain, step[0], step[1], ratio);
        QVERIFY(std::fabs(ratio - 1.0) <= 0.02);
    }
}

void TestTopology::oversubscriptionSlowsEstimatesWhereGroupsLeaveTheLeaf() {
    // GPT-3 175B, DP 16 at stride 8: on a rail-optimized network the 16 same-rail GPUs share
    // one leaf (32 NICs), so 4:1 leaf uplinks cost nothing; on a plain fat-tree a leaf holds 4
    // nodes and the DP ring leaves it, 4x slower on the network.
    const double railFull = stepSeconds(gptScenario("rail-optimized"));
    const double railOver = stepSeconds(gptScenario("rail-optimized", 8, 4));
    const double treeFull = stepSeconds(gptScenario("fat-tree"));
    const double treeOver = stepSeconds(gptScenario("fat-tree", 8, 4));
    qInfo("GPT-3 175B on 1024 H100, step: rail-optimized %.4f s (1:1) %.4f s (4:1); fat-tree "
          "%.4f s (1:1) %.4f s (4:1)",
          railFull, railOver, treeFull, treeOver);
    QVERIFY(railFull > 0 && treeOver > 0);
    QCOMPARE(railOver, railFull);
    QCOMPARE(treeFull, railFull);
    QVERIFY(treeOver > treeFull * 1.01);
}

void TestTopology::inNetworkReductionOptions() {
    const ClusterConfig c = cluster(1024, 8, ScaleOutTopology::RailOptimized, 64);
    const auto model = TopologyModel::forCluster(c);
    QVERIFY(model);
    const GraphCollectiveCost plain(model);
    const GraphCollectiveCost nvls(model, {}, {true, false});
    const GraphCollectiveCost sharp(model, {}, {false, true});
    const double bytes = 1e9;
    const double inDomain = plain.cost(Collective::AllReduce, bytes, {8, 1}).seconds /
                            nvls.cost(Collective::AllReduce, bytes, {8, 1}).seconds;
    const double across = plain.cost(Collective::AllReduce, bytes, {128, 8}).seconds /
                          sharp.cost(Collective::AllReduce, bytes, {128, 8}).seconds;
    qInfo("1 GB all-reduce: NVLS speeds up TP 8 by %.3fx, SHARP DP 128 by %.3fx", inDomain, across);
    QVERIFY(std::fabs(inDomain - 480.0 / 370.0) < 0.02);
    QVERIFY(across > 1.9 && across <= 2.0);
    // Neither changes other collectives.
    QCOMPARE(nvls.cost(Collective::AllGather, bytes, {8, 1}).seconds,
             plain.cost(Collective::AllGather, bytes, {8, 1}).seconds);
}

void TestTopology::allToAllOnRailOnlyPaysForwarding_data() {
    QTest::addColumn<double>("nicGbit");
    QTest::addColumn<double>("scaleUpGBps");
    // Paper: 8.2% (A100: 200G HDR, NVLink 3 at 300 GB/s) and 11.2% (H100: 400G, 450 GB/s).
    QTest::newRow("A100, HDR") << 200.0 << 300.0;
    QTest::newRow("H100, NDR") << 400.0 << 450.0;
}

void TestTopology::allToAllOnRailOnlyPaysForwarding() {
    QFETCH(double, nicGbit);
    QFETCH(double, scaleUpGBps);
    // An expert-parallel group of 64 over 8 domains of 8: 7 of the 8 destinations of each
    // other domain sit on another rail.
    const auto opt = topologyCollectiveCost(
        cluster(1024, 8, ScaleOutTopology::RailOptimized, 64, nicGbit, scaleUpGBps), {});
    const auto only = topologyCollectiveCost(
        cluster(1024, 8, ScaleOutTopology::RailOnly, 64, nicGbit, scaleUpGBps), {});
    QVERIFY(opt && only);
    const GroupPlacement ep{64, 1};
    const double bytes = 256.0 * (1 << 20);
    const double a = opt->cost(Collective::AllToAll, bytes, ep).seconds;
    const double b = only->cost(Collective::AllToAll, bytes, ep).seconds;
    const double overhead = b / a - 1.0;
    const CollectiveEfficiency eff;
    const double expected =
        (7.0 / 8.0) * (nicGbit / 8.0 * eff.scaleOut) / (scaleUpGBps * eff.scaleUp);
    qInfo("all-to-all of 256 MiB over 64 GPUs, %g G NIC, %g GB/s NVLink: rail-optimized %.3f ms, "
          "rail-only %.3f ms, overhead %.1f%% (B_NIC/B_HB x 7/8 = %.1f%%; paper 8.2-11.2%%)",
          nicGbit, scaleUpGBps, 1e3 * a, 1e3 * b, 100 * overhead, 100 * expected);
    QVERIFY(std::fabs(overhead - expected) < 0.005);
    QVERIFY(overhead >= 0.082 - 0.005 && overhead <= 0.112 + 0.005);
    // Dense traffic (a data-parallel ring on one rail) pays nothing.
    const GroupPlacement dp{16, 8};
    QCOMPARE(only->cost(Collective::AllReduce, bytes, dp).seconds,
             opt->cost(Collective::AllReduce, bytes, dp).seconds);
}

void TestTopology::oversubscribedFatTreeSlowsCrossLeafDataParallel() {
    // Radix 40 at 4:1 gives leaves of 32 NICs down and 8 up: exactly 4:1.
    ClusterConfig blocking = cluster(1024, 8, ScaleOutTopology::FatTree, 40);
    blocking.scaleOut.oversubscription = 4.0;
    const ClusterConfig full = cluster(1024, 8, ScaleOutTopology::FatTree, 40);
    const auto a = topologyCollectiveCost(full, {});
    const auto b = topologyCollectiveCost(blocking, {});
    QVERIFY(a && b);
    const double bytes = 1e9;
    // Data parallel across all 128 nodes (leaves of 4 nodes): the ring leaves its leaf.
    const GroupPlacement crossLeaf{128, 8};
    const double slow = b->cost(Collective::AllReduce, bytes, crossLeaf).seconds /
                        a->cost(Collective::AllReduce, bytes, crossLeaf).seconds;
    // Data parallel inside one leaf (4 nodes): not slowed; the two-level model slows it 4x.
    const GroupPlacement inLeaf{4, 8};
    const double same = b->cost(Collective::AllReduce, bytes, inLeaf).seconds /
                        a->cost(Collective::AllReduce, bytes, inLeaf).seconds;
    const double twoLevel =
        AlphaBetaCollectiveCost(blocking).cost(Collective::AllReduce, bytes, inLeaf).seconds /
        AlphaBetaCollectiveCost(full).cost(Collective::AllReduce, bytes, inLeaf).seconds;
    qInfo("4:1 fat-tree, 1 GB all-reduce: cross-leaf DP of 128 slowed %.3fx, DP of 4 inside a "
          "leaf %.3fx (two-level model: %.3fx)",
          slow, same, twoLevel);
    QVERIFY(std::fabs(slow - 4.0) < 0.05);
    QVERIFY(std::fabs(same - 1.0) < 1e-9);
}

void TestTopology::multiDatacenterCrossesWan() {
    // Two datacenters of 512 GPUs joined by 3.2 Tbit/s with 1 ms one way.
    ClusterConfig c = cluster(1024, 8, ScaleOutTopology::RailOptimized, 64);
    c.scaleOut.pods = 2;
    c.scaleOut.wanGbitPerS = 3200;
    c.scaleOut.wanLatencyUs = 1000;
    Diagnostics diags;
    const auto model = TopologyModel::forCluster(c, &diags);
    QVERIFY2(model, diags.all().empty() ? "" : diags.all()[0].toString().c_str());
    QCOMPARE(model->topology().pods, 2);
    const GroupProfile inside = model->profile({64, 8});  // one datacenter
    const GroupProfile across = model->profile({128, 8}); // both
    QVERIFY(!inside.crossesWan);
    QVERIFY(across.crossesWan);
    // 3.2 Tbit/s shared by 512 GPUs: 0.78 GB/s per GPU instead of 50. The graph gives the
    // share of the spine that holds the WAN port (its ~57 downlinks share one 400G port).
    const double ideal = 3200.0 / 8 / 512;
    qInfo("2 datacenters over 3.2 Tbit/s: %.3f GB/s per GPU across (aggregate share %.3f), "
          "%.1f inside",
          across.networkGBpsPerGpu, ideal, inside.networkGBpsPerGpu);
    QVERIFY(across.networkGBpsPerGpu >= ideal && across.networkGBpsPerGpu <= 1.2 * ideal);
    QCOMPARE(inside.networkGBpsPerGpu, 50.0);
    QVERIFY(across.networkLatencyUs >= 1000);
    const NetworkBom bom = networkBom(model->topology(), Catalog::builtIn().network());
    QCOMPARE(bom.wanLinks, std::int64_t(2 * 8));
    QCOMPARE(bom.wanRouters, std::int64_t(2));
}

void TestTopology::buildersBuildAndValidate_data() {
    QTest::addColumn<int>("topology");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("domain");
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("tiers");
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("expectTiers");
    const int ro = int(ScaleOutTopology::RailOptimized), ft = int(ScaleOutTopology::FatTree),
              rl = int(ScaleOutTopology::RailOnly), to = int(ScaleOutTopology::Torus);
    QTest::newRow("one domain of 8") << ro << 8 << 8 << 64 << 0 << 1 << 0;
    QTest::newRow("NVL72 domains") << ro << 576 << 72 << 64 << 0 << 1 << 2;
    QTest::newRow("rail-optimized 1 tier") << ro << 64 << 8 << 64 << 0 << 1 << 1;
    QTest::newRow("rail-optimized 2 tiers") << ro << 1024 << 8 << 64 << 0 << 1 << 2;
    QTest::newRow("rail-optimized 3 tiers") << ro << 4096 << 8 << 64 << 0 << 1 << 3;
    QTest::newRow("rail-optimized forced 3 tiers") << ro << 1024 << 8 << 64 << 3 << 1 << 3;
    QTest::newRow("fat-tree") << ft << 2048 << 8 << 64 << 0 << 1 << 2;
    QTest::newRow("rail-only") << rl << 4096 << 8 << 64 << 0 << 1 << 2;
    QTest::newRow("2D torus") << to << 512 << 8 << 64 << 0 << 1 << 0;
    QTest::newRow("multi-datacenter") << ro << 2048 << 8 << 64 << 0 << 4 << 2;
    QTest::newRow("multi-datacenter rail-only") << rl << 2048 << 8 << 64 << 0 << 2 << 2;
}

void TestTopology::buildersBuildAndValidate() {
    QFETCH(int, topology);
    QFETCH(int, gpus);
    QFETCH(int, domain);
    QFETCH(int, radix);
    QFETCH(int, tiers);
    QFETCH(int, pods);
    QFETCH(int, expectTiers);
    ClusterConfig c = cluster(gpus, domain, ScaleOutTopology(topology), radix, 400, 450,
                              domain == 72 ? 4 : 8, domain == 72 ? 4 : 8);
    if (tiers)
        c.scaleOut.tiers = tiers;
    c.scaleOut.pods = pods;
    c.scaleOut.wanGbitPerS = 1600;
    c.scaleOut.wanLatencyUs = 500;
    Diagnostics diags;
    auto t = buildTopology(c, diags);
    QVERIFY2(t, diags.all().empty() ? "" : diags.all()[0].toString().c_str());
    QVERIFY2(validateTopology(*t, "/cluster/scale_out", diags),
             diags.all().empty() ? "" : diags.all()[0].toString().c_str());
    QCOMPARE(t->tiers, expectTiers);
    QCOMPARE(int(t->gpuNodes.size()), gpus);
    // Every GPU reaches rank 0, and a collective over all of them has a finite cost.
    const auto cost = topologyCollectiveCost(c, {});
    QVERIFY(cost);
    const double s = cost->cost(Collective::AllReduce, 1e8, {gpus, 1}).seconds;
    QVERIFY(std::isfinite(s) && s > 0);
    const double a2a = cost->cost(Collective::AllToAll, 1e8, {gpus, 1}).seconds;
    QVERIFY(std::isfinite(a2a) && a2a > 0);
}

void TestTopology::invalidTopologiesAreRefused() {
    struct Case {
        const char* name;
        ClusterConfig config;
        const char* path;
    };
    ClusterConfig tooFewTiers = cluster(4096, 8, ScaleOutTopology::RailOptimized, 64);
    tooFewTiers.scaleOut.tiers = 2;
    ClusterConfig tooBig = cluster(1 << 20, 8, ScaleOutTopology::FatTree, 16);
    ClusterConfig badTorus = cluster(512, 8, ScaleOutTopology::Torus, 64);
    badTorus.scaleOut.torusDims = {4, 4, 3};
    ClusterConfig noNics = cluster(64, 8, ScaleOutTopology::RailOptimized, 64);
    noNics.scaleOut.nicsPerNode = 0;
    ClusterConfig oddNics = cluster(64, 8, ScaleOutTopology::RailOptimized, 64);
    oddNics.scaleOut.nicsPerNode = 3;
    const Case cases[] = {
        {"tiers too few", tooFewTiers, "/cluster/scale_out/tiers"},
        {"radix too small", tooBig, "/cluster/scale_out/switch_radix"},
        {"torus dims", badTorus, "/cluster/scale_out/torus_dims"},
        {"no NICs", noNics, "/cluster/scale_out/nics_per_node"},
        {"NICs per node", oddNics, "/cluster/scale_out/nics_per_node"},
    };
    for (const Case& c : cases) {
        Diagnostics diags;
        auto t = buildTopology(c.config, diags);
        QVERIFY2(!t, c.name);
        QVERIFY2(diags.hasErrorAt(c.path), c.name);
        qInfo("%s: %s", c.name, diags.errors()[0].toString().c_str());
    }
    // Validation: a switch with more links than ports, and a GPU no one can reach.
    Diagnostics diags;
    auto graph = readClusterGraph(Json::parse(kGraphJson), "/cluster/graph", diags);
    QVERIFY(graph);
    ClusterGraph overfull = *graph;
    overfull.nodes.push_back({"g4", NodeKind::Gpu, {}, {}, {}, {}, {}, {}, {}});
    overfull.nodes.push_back({"n4", NodeKind::Nic, {}, {}, {}, {}, {}, {}, {"g4"}});
    overfull.links.push_back({"n4", "leaf0", LinkClass::ScaleOut, 50, {}});
    overfull.nodes.push_back({"g5", NodeKind::Gpu, {}, {}, {}, {}, {}, {}, {}});
    ClusterConfig c;
    c.numGpus = 6;
    c.graph.graph = std::make_shared<const ClusterGraph>(overfull);
    Diagnostics v;
    auto t = buildTopology(c, v);
    QVERIFY(t);
    QVERIFY(!validateTopology(*t, "/cluster/graph", v));
    bool radixError = false, reachError = false;
    for (const auto& d : v.errors()) {
        qInfo("%s", d.toString().c_str());
        radixError = radixError || d.message.find("radix") != std::string::npos;
        reachError = reachError || d.message.find("cannot reach") != std::string::npos;
    }
    QVERIFY(radixError && reachError);
}

void TestTopology::clusterGraphRoundTrip() {
    Diagnostics diags;
    const Json in = Json::parse(kGraphJson);
    auto graph = readClusterGraph(in, "/cluster/graph", diags);
    QVERIFY(graph);
    auto again = readClusterGraph(clusterGraphToJson(*graph), "/cluster/graph", diags);
    QVERIFY(again && *again == *graph);
    // Inside a scenario: verbatim round trip, resolved into the cluster, built and costed.
    Json doc = Json::parse(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"gpu": "h100-sxm-80gb", "num_gpus": 4, "gpus_per_node": 2,
                  "scale_up": {"domain_gpus": 2, "bandwidth_gb_s": 450},
                  "scale_out": {"topology": "graph", "nic_gbit_s": 400, "nics_per_node": 2}},
      "training": {"seq_len": 4096, "global_batch": 8},
      "parallelism": {"tp": 2, "dp": 2}})");
    doc["cluster"]["graph"] = in;
    auto scenario = scenarioFromJson(doc, diags);
    QVERIFY(scenario);
    // Written back as read (the graph verbatim), and read again to the same scenario.
    QCOMPARE(scenarioToJson(*scenario)["cluster"]["graph"].dump(), in.dump());
    auto reread = scenarioFromJson(scenarioToJson(*scenario), diags);
    QVERIFY(reread && *reread == *scenario);
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY2(resolved, diags.all().empty() ? "" : diags.all()[0].toString().c_str());
    QVERIFY(resolved->cluster.graph);
    QCOMPARE(*resolved->cluster.graph, *graph);
    auto model = TopologyModel::forCluster(resolved->cluster, &diags);
    QVERIFY(model);
    const GroupProfile dp = model->profile({2, 2});
    QCOMPARE(dp.membersPerDomain, 1);
    QCOMPARE(dp.networkGBpsPerGpu, 50.0);
    QCOMPARE(dp.networkLatencyUs, 0.5); // the link's own latency (n2 -> leaf0)
    auto est = estimatePlan(*resolved, diags);
    QVERIFY(est && est->stepSeconds > 0);
}

void TestTopology::clusterGraphValidation_data() {
    QTest::addColumn<QString>("patch"); // JSON: {"path": json-pointer, "value": ...}
    QTest::addColumn<QString>("errorPath");
    QTest::newRow("unknown node") << R"({"path": "/links/1/to", "value": "nvs9"})"
                                  << "/cluster/graph/links/1/to";
    QTest::newRow("duplicate id") << R"({"path": "/nodes/1/id", "value": "g0"})"
                                  << "/cluster/graph/nodes/1/id";
    QTest::newRow("bad kind") << R"({"path": "/nodes/4/kind", "value": "hub"})"
                              << "/cluster/graph/nodes/4/kind";
    QTest::newRow("NIC serves a switch") << R"({"path": "/nodes/6/gpus", "value": ["leaf0"]})"
                                         << "/cluster/graph/nodes/6/gpus/0";
    QTest::newRow("zero bandwidth") << R"({"path": "/links/0/gb_s", "value": 0})"
                                    << "/cluster/graph/links/0/gb_s";
    QTest::newRow("self link") << R"({"path": "/links/4/to", "value": "n0"})"
                               << "/cluster/graph/links/4/to";
    QTest::newRow("GPU on the network") << R"({"path": "/links/4/from", "value": "g0"})"
                                        << "/cluster/graph/links/4/class";
    QTest::newRow("unknown key") << R"({"path": "/links/0/speed", "value": 1})"
                                 << "/cluster/graph/links/0/speed";
    QTest::newRow("GPU count") << R"({"path": "/nodes/0/kind", "value": "router"})"
                               << "/cluster/graph/nodes";
}

void TestTopology::clusterGraphValidation() {
    QFETCH(QString, patch);
    QFETCH(QString, errorPath);
    const Json p = Json::parse(patch.toStdString());
    Json graph = Json::parse(kGraphJson);
    graph[Json::json_pointer(p["path"].get<std::string>())] = p["value"];
    Json doc = Json::parse(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"gpu": "h100-sxm-80gb", "num_gpus": 4, "gpus_per_node": 2,
                  "scale_up": {"domain_gpus": 2, "bandwidth_gb_s": 450},
                  "scale_out": {"topology": "graph", "nic_gbit_s": 400, "nics_per_node": 2}},
      "training": {"seq_len": 4096, "global_batch": 8},
      "parallelism": {"tp": 2, "dp": 2}})");
    doc["cluster"]["graph"] = graph;
    Diagnostics diags;
    auto scenario = scenarioFromJson(doc, diags);
    QVERIFY(scenario);
    QVERIFY(!resolveScenario(*scenario, Catalog::builtIn(), diags));
    QVERIFY2(diags.hasErrorAt(errorPath.toStdString()),
             diags.all().empty() ? "no error" : diags.all()[0].toString().c_str());
}

void TestTopology::scaleOutKeysRoundTrip() {
    const char* text = R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 1024,
                  "scale_out": {"topology": "torus", "torus_dims": [4, 4, 8], "pods": 2,
                                "wan_gbit_s": 3200, "wan_latency_us": 800}},
      "training": {"seq_len": 4096, "global_batch": 1024},
      "parallelism": {"tp": 8, "dp": 128}})";
    Diagnostics diags;
    auto scenario = parseScenarioText(text, diags);
    QVERIFY(scenario);
    auto again = parseScenarioText(scenarioToText(*scenario), diags);
    QVERIFY(again && *again == *scenario);
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY(resolved);
    QCOMPARE(resolved->cluster.scaleOut.pods, 2);
    QCOMPARE(resolved->cluster.scaleOut.wanGbitPerS, 3200.0);
    QCOMPARE(resolved->cluster.scaleOut.torusDims, (std::vector<int>{4, 4, 8}));
    // A torus across datacenters is refused with the key that causes it.
    Diagnostics build;
    QVERIFY(!buildTopology(resolved->cluster, build));
    QVERIFY(build.hasErrorAt("/cluster/scale_out/pods"));
    // Missing WAN bandwidth for several pods, and bad torus dimensions, are errors.
    Diagnostics d2;
    auto s2 = parseScenarioText(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 1024,
                  "scale_out": {"pods": 3, "torus_dims": [0, 4]}},
      "training": {"seq_len": 4096, "global_batch": 1024},
      "parallelism": {"tp": 8}})",
                                d2);
    QVERIFY(d2.hasErrorAt("/cluster/scale_out/torus_dims/0"));
    Diagnostics d3;
    auto s3 = parseScenarioText(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 1024, "scale_out": {"pods": 3}},
      "training": {"seq_len": 4096, "global_batch": 1024},
      "parallelism": {"tp": 8}})",
                                d3);
    QVERIFY(s3);
    QVERIFY(!resolveScenario(*s3, Catalog::builtIn(), d3));
    QVERIFY(d3.hasErrorAt("/cluster/scale_out/wan_gbit_s"));
    QVERIFY(d3.hasErrorAt("/cluster/scale_out/pods"));
}

void TestTopology::costLookupIsCheap() {
    // The graph and each group shape's routes are computed once; later estimates of the same
    // cluster only look them up, and must give exactly what the first one gave. How cheap the
    // lookup is is measured by bench_estimate (BM_EstimateSearch on the graph against
    // BM_EstimateSearchTwoLevel), not here: a timed test fails on a loaded machine.
    Diagnostics diags;
    auto sc = resolveText(gptScenario("rail-only"), diags);
    QVERIFY(sc);
    EstimatorSettings graphSettings = defaultEstimatorSettings(*sc);
    graphSettings.recordTimeline = false;
    auto first = estimatePlan(*sc, graphSettings, diags); // fills the cache
    QVERIFY(first);
    for (int i = 0; i < 20; ++i) {
        auto again = estimatePlan(*sc, graphSettings, diags);
        QVERIFY(again);
        QCOMPARE(again->stepSeconds, first->stepSeconds);
        QCOMPARE(again->peakBytes, first->peakBytes);
    }
}

void TestTopology::placementFollowsRankOrder() {
    ParallelConfig plan;
    plan.tp = 8;
    plan.cp = 2;
    plan.ep = 4;
    plan.dp = 16;
    plan.pp = 4;
    Diagnostics diags;
    auto megatron = parseRankOrder("tp-cp-ep-dp-pp", "/order", diags);
    QVERIFY(megatron);
    auto g = placeGroups(plan, *megatron, diags);
    QVERIFY(g);
    QCOMPARE(g->tp.stride, 1LL);
    QCOMPARE(g->cp.stride, 8LL);
    QCOMPARE(g->ep.stride, 16LL);
    QCOMPARE(g->expertDp.stride, 64LL);
    QCOMPARE(g->dp.size, 16);
    QCOMPARE(g->dp.stride, 16LL);
    QCOMPARE(g->pp.stride, 256LL);
    QCOMPARE(groupMembers(g->cp, 9), (std::vector<int>{1, 9}));
    QCOMPARE(groupMembers(g->pp, 300), (std::vector<int>{44, 300, 556, 812}));
    auto dpFirst = parseRankOrder("dp-tp-cp-ep-pp", "/order", diags);
    QVERIFY(dpFirst);
    // dp (here dp/ep = 4) fastest, then tp, cp, ep: the dense DP group is two strides.
    QVERIFY(!placeGroups(plan, *dpFirst, diags));
    QVERIFY(diags.hasErrorAt("/parallelism"));
    Diagnostics bad;
    QVERIFY(!parseRankOrder("tp-cp-dp-pp", "/order", bad));
    QVERIFY(!parseRankOrder("tp-tp-cp-dp-pp", "/order", bad));
    QVERIFY(bad.hasErrorAt("/order"));
}

void TestTopology::trafficPerLink() {
    // 64 GPUs, one leaf: a TP ring inside each domain and a DP ring across domains.
    const auto model =
        TopologyModel::forCluster(cluster(64, 8, ScaleOutTopology::RailOptimized, 64));
    QVERIFY(model);
    const LinkTraffic t = linkTraffic(*model, {{"tp", {8, 1}, 1e9, 0}, {"dp", {8, 8}, 0, 1e9}});
    QVERIFY(!t.sampled);
    // Every GPU sends 1 GB over GPU -> NVSwitch -> GPU (2 links) and 1 GB over
    // NIC -> leaf -> NIC (2 network links).
    QCOMPARE(t.scaleUpBytes, 64 * 2e9);
    QCOMPARE(t.scaleOutBytes, 64 * 2e9);
    QCOMPARE(t.wanBytes, 0.0);
    double maxLink = 0;
    for (double b : t.bytesPerLink)
        maxLink = std::max(maxLink, b);
    QCOMPARE(maxLink, 2e9); // each link carries one GPU's bytes each way
}

void TestTopology::trafficAllToAll() {
    // EP 16 over two domains of 8, in two hops: each GPU sends 0.7 GB over NVLink, 0.1 GB to
    // each other GPU of its domain (GPU -> NVSwitch -> GPU), and 0.5 GB over the network to the
    // GPU at its place in the other domain (its rail: NIC -> leaf -> NIC).
    const auto model =
        TopologyModel::forCluster(cluster(64, 8, ScaleOutTopology::RailOptimized, 64));
    QVERIFY(model);
    GroupTraffic ep{"ep", {16, 1}, 0.7e9, 0.5e9};
    ep.allToAll = true;
    const LinkTraffic t = linkTraffic(*model, {ep});
    QVERIFY(!t.sampled);
    QCOMPARE(t.scaleUpBytes, 64 * 2 * 0.7e9);
    QCOMPARE(t.scaleOutBytes, 64 * 2 * 0.5e9);
    double maxLink = 0;
    for (double b : t.bytesPerLink)
        maxLink = std::max(maxLink, b);
    QCOMPARE(maxLink, 1.4e9); // a GPU's NVSwitch link: 0.7 GB out and 0.7 GB in
    // EP 32 over four domains: 8 of the 3 x 8 + 7 = 31 peers are not all routed, but each hop
    // is: 7 in the domain, 3 across.
    GroupTraffic ep32{"ep", {32, 1}, 0.7e9, 0.6e9};
    ep32.allToAll = true;
    const LinkTraffic t32 = linkTraffic(*model, {ep32});
    QCOMPARE(t32.scaleUpBytes, 64 * 2 * 0.7e9);
    QCOMPARE(t32.scaleOutBytes, 64 * 2 * 0.6e9);
}

void TestTopology::cliNetworkForEveryBuilder_data() {
    QTest::addColumn<QString>("cluster"); // the scenario's "cluster" object
    QTest::addColumn<int>("exitCode");
    const QString base = R"("preset": "dgx-h100", "num_gpus": 1024, )";
    QTest::newRow("rail-optimized") << base + R"("scale_out": {"topology": "rail-optimized"})" << 0;
    QTest::newRow("rail-only") << base + R"("scale_out": {"topology": "rail-only"})" << 0;
    QTest::newRow("fat-tree 4:1")
        << base + R"("scale_out": {"topology": "fat-tree", "oversubscription": 4})" << 0;
    QTest::newRow("3D torus")
        << base + R"("scale_out": {"topology": "torus", "torus_dims": [4, 4, 8]})" << 0;
    QTest::newRow("two datacenters")
        << base + R"("scale_out": {"pods": 2, "wan_gbit_s": 3200, "wan_latency_us": 1000})" << 0;
    QTest::newRow("NVL72") << R"("preset": "gb200-nvl72", "num_gpus": 1152)" << 0;
    QTest::newRow("graph") << QString(R"("gpu": "h100-sxm-80gb", "num_gpus": 4, "gpus_per_node": 2,
        "scale_up": {"domain_gpus": 2, "bandwidth_gb_s": 450},
        "scale_out": {"topology": "graph", "nic_gbit_s": 400, "nics_per_node": 2},
        "graph": )") + kGraphJson
                           << 0;
    QTest::newRow("too few tiers")
        << base + R"("scale_out": {"topology": "rail-optimized", "tiers": 1})" << 2;
}

void TestTopology::cliNetworkForEveryBuilder() {
    QFETCH(QString, cluster);
    QFETCH(int, exitCode);
    const bool small = cluster.contains("\"num_gpus\": 4");
    const QString text = QString(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"}, "cluster": {)") +
                         cluster +
                         QString(R"(}, "training": {"seq_len": 4096, "global_batch": 2304},
      "parallelism": {"tp": %1}})")
                             .arg(small ? 2 : 4);
    const QString file = test::outputDir() + "/network-" +
                         QString(QTest::currentDataTag()).replace(' ', '-') + ".json";
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    const QString cli = test::binDir() + "/trainscape-cli";
    if (!QFile::exists(cli))
        QSKIP("trainscape-cli is not built");
    QProcess p;
    p.start(cli, {"network", file, "--json"});
    QVERIFY(p.waitForFinished(60000));
    const QByteArray stdoutText = p.readAllStandardOutput();
    const QByteArray stderrText = p.readAllStandardError();
    QVERIFY2(p.exitCode() == exitCode, stderrText.constData());
    if (exitCode != 0) {
        QVERIFY(stderrText.contains("/cluster/scale_out/tiers"));
        return;
    }
    const Json j = Json::parse(stdoutText.toStdString());
    for (const char* key : {"switches", "transceivers", "cables", "nics", "capex_usd", "power_w"})
        QVERIFY2(j["bom"].contains(key), key);
    QVERIFY(j["topology"]["gpus"].get<int>() > 0);
    qInfo("%s: %s; %lld switches, %lld transceivers", QTest::currentDataTag(),
          j["topology"]["description"].get<std::string>().c_str(),
          static_cast<long long>(j["bom"]["switches"].get<std::int64_t>()),
          static_cast<long long>(j["bom"]["transceivers"].get<std::int64_t>()));
}

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
