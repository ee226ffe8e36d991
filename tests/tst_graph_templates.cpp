// The topology canvas's core: every template (the builders written as cluster.graph) reads
// back as the builder's graph, JSON round trips it, and estimates exactly as the builder's
// cluster does; the level-of-detail hierarchy bundles every link once and opens a
// 1,024-GPU cluster GPU by GPU and a 32,768-GPU one by its scalable units; the per-link
// heat map and the group overlay follow the plan.

#include "TestSupport.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ClusterGraphJson.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"
#include "topology/GraphHierarchy.h"
#include "topology/GraphTemplates.h"
#include "topology/TopologyBuilder.h"
#include "traffic/PlanTraffic.h"

#include <QtTest>

#include <algorithm>
#include <memory>

using namespace ts;
using Json = nlohmann::ordered_json;

namespace {

std::optional<ResolvedScenario> resolveText(const std::string& text, Diagnostics& diags) {
    auto scenario = parseScenarioText(text, diags);
    if (!scenario)
        return std::nullopt;
    return resolveScenario(*scenario, Catalog::builtIn(), diags);
}

// Llama 3 8B on `gpus` DGX H100 GPUs with TP tp, PP pp and the rest data parallel.
ResolvedScenario llamaOn(std::int64_t gpus, int tp, int pp) {
    const std::string text = R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": )" +
                             std::to_string(gpus) + R"(},
      "training": {"seq_len": 8192, "global_batch": )" +
                             std::to_string(gpus / (tp * pp) * 4) +
                             R"(, "precision": "bf16"},
      "parallelism": {"tp": )" +
                             std::to_string(tp) + R"(, "pp": )" + std::to_string(pp) +
                             R"(, "dp": )" + std::to_string(gpus / (tp * pp)) + R"(}})";
    Diagnostics diags;
    auto sc = resolveText(text, diags);
    if (!sc)
        qWarning("%s", diags.all().empty() ? "?" : diags.all().front().toString().c_str());
    return *sc;
}

struct Case {
    GraphTemplateKind kind;
    std::int64_t gpus;
};

} // namespace

class TestGraphTemplates : public QObject {
    Q_OBJECT
private slots:
    void templatesEstimateAsTheirBuilder_data();
    void templatesEstimateAsTheirBuilder();
    void savedGraphReadsBack();
    void hierarchyBundlesEveryLinkOnce();
    void largeClusterOpensCollapsed();
    void heatMapAndGroupOverlay();
    void heatMapRoutesExpertAllToAll();
};

void TestGraphTemplates::templatesEstimateAsTheirBuilder_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<qint64>("gpus");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("pp");
    QTest::newRow("nvswitch-domain")
        << int(GraphTemplateKind::NvSwitchDomain) << qint64(8) << 8 << 1;
    QTest::newRow("nvl72") << int(GraphTemplateKind::Nvl72) << qint64(144) << 8 << 1;
    QTest::newRow("rail-optimized")
        << int(GraphTemplateKind::RailOptimized) << qint64(256) << 8 << 2;
    QTest::newRow("fat-tree") << int(GraphTemplateKind::FatTree) << qint64(256) << 8 << 2;
    QTest::newRow("rail-only") << int(GraphTemplateKind::RailOnly) << qint64(256) << 4 << 2;
    QTest::newRow("torus") << int(GraphTemplateKind::Torus) << qint64(64) << 8 << 1;
    QTest::newRow("multi-datacenter")
        << int(GraphTemplateKind::MultiDatacenter) << qint64(128) << 8 << 2;
}

void TestGraphTemplates::templatesEstimateAsTheirBuilder() {
    QFETCH(int, kind);
    QFETCH(qint64, gpus);
    QFETCH(int, tp);
    QFETCH(int, pp);
    ResolvedScenario sc = llamaOn(gpus, tp, pp);
    GraphTemplateParams params = templateParamsOf(sc.cluster, GraphTemplateKind(kind));
    params.gpus = gpus;
    sc.cluster = templateCluster(sc.cluster, params);
    Diagnostics diags;
    const std::optional<Topology> built = buildTopology(sc.cluster, diags);
    QVERIFY(built);
    const std::optional<ClusterGraph> graph = buildTemplateGraph(sc.cluster, diags);
    QVERIFY(graph);

    // The graph reads back as the builder's graph: same nodes, links and rates (a drawn
    // GPU-NIC attachment never limits: the NIC's own link does, in both).
    const Topology drawn = topologyOfGraph(*graph);
    QCOMPARE(drawn.nodes.size(), built->nodes.size());
    QCOMPARE(drawn.links.size(), built->links.size());
    QCOMPARE(drawn.gpuNodes, built->gpuNodes);
    QCOMPARE(drawn.scaleUpDomains, built->scaleUpDomains);
    auto linkKey = [](const Topology& t) {
        std::vector<std::tuple<int, int, int, double>> keys;
        for (const TopoLink& l : t.links)
            keys.emplace_back(std::min(l.a, l.b), std::max(l.a, l.b), int(l.kind),
                              l.kind == LinkKind::Host ? 0.0 : l.gbPerS);
        std::sort(keys.begin(), keys.end());
        return keys;
    };
    QVERIFY(linkKey(drawn) == linkKey(*built));
    QVERIFY(validateTopology(drawn, "/cluster/graph", diags));
    for (const GraphNode& n : graph->nodes)
        QVERIFY2(n.x && n.y, n.id.c_str());

    // JSON and back: the same graph.
    const std::optional<ClusterGraph> read =
        readClusterGraph(clusterGraphToJson(*graph), "/cluster/graph", diags);
    QVERIFY(read);
    QVERIFY(*read == *graph);

    // The estimate on the drawn graph is the builder's.
    const std::optional<Estimate> a = estimatePlan(sc, diags);
    ResolvedScenario drawnScenario = sc;
    drawnScenario.cluster.graph.graph = std::make_shared<const ClusterGraph>(*graph);
    const std::optional<Estimate> b = estimatePlan(drawnScenario, diags);
    QVERIFY2(a && b, diags.all().empty() ? "" : diags.all().back().toString().c_str());
    QCOMPARE(b->stepSeconds, a->stepSeconds);
    QCOMPARE(b->commBytesByLink.scaleOut, a->commBytesByLink.scaleOut);
    QCOMPARE(b->time.dpExposed, a->time.dpExposed);
}

void TestGraphTemplates::savedGraphReadsBack() {
    // A scenario file with the template's graph (as the canvas saves it) resolves to the same
    // graph and estimate as the builder's scenario.
    ResolvedScenario sc = llamaOn(256, 8, 2);
    Diagnostics diags;
    const std::optional<ClusterGraph> graph = buildTemplateGraph(sc.cluster, diags);
    QVERIFY(graph);
    Json doc = Json::parse(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 256,
                  "scale_out": {"topology": "graph"}},
      "training": {"seq_len": 8192, "global_batch": 64, "precision": "bf16"},
      "parallelism": {"tp": 8, "pp": 2, "dp": 16}})");
    doc["cluster"]["graph"] = clusterGraphToJson(*graph);
    auto scenario = parseScenarioText(doc.dump(), diags);
    QVERIFY(scenario);
    auto resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    QVERIFY2(resolved, diags.all().empty() ? "" : diags.all().front().toString().c_str());
    QVERIFY(resolved->cluster.graph);
    QVERIFY(*resolved->cluster.graph == *graph);
    const auto a = estimatePlan(sc, diags);
    const auto b = estimatePlan(*resolved, diags);
    QVERIFY(a && b);
    QCOMPARE(b->stepSeconds, a->stepSeconds);
}

void TestGraphTemplates::hierarchyBundlesEveryLinkOnce() {
    ResolvedScenario sc = llamaOn(1024, 8, 2);
    Diagnostics diags;
    const auto graph = buildTemplateGraph(sc.cluster, diags);
    QVERIFY(graph);
    const Topology t = topologyOfGraph(*graph);
    const GraphHierarchy h = buildHierarchy(*graph, t, 8);
    // 128 DGX domains in 4 scalable units of one pod.
    const auto count = [&](GroupLevel level) {
        return std::count_if(h.groups.begin(), h.groups.end(),
                             [&](const GraphGroup& g) { return g.level == level; });
    };
    QCOMPARE(count(GroupLevel::Pod), 1);
    QCOMPARE(count(GroupLevel::Unit), 4);
    QCOMPARE(count(GroupLevel::Domain), 128);
    QCOMPARE(h.groups[h.roots[0]].gpus, std::int64_t(1024));
    // Every node belongs to exactly one innermost group here (no WAN routers).
    QVERIFY(h.rootNodes.empty());
    // Whatever is collapsed, every link is drawn once or is inside one box.
    for (int budget : {1, 200, 3000, 100000}) {
        const std::vector<char> open = defaultExpansion(h, budget);
        const VisibleGraph v = visibleGraph(h, t, open);
        std::size_t bundled = 0;
        for (const VisibleEdge& e : v.edges)
            bundled += e.links.size();
        std::size_t inside = 0;
        for (const TopoLink& l : t.links)
            inside += v.endpointOf[l.a] == v.endpointOf[l.b];
        QCOMPARE(bundled + inside, t.links.size());
    }
    // The default budget opens every GPU of 1,024.
    const VisibleGraph v = visibleGraph(h, t, defaultExpansion(h, 3000));
    const auto gpus = std::count_if(v.nodes.begin(), v.nodes.end(),
                                    [&](int n) { return t.nodes[n].kind == NodeKind::Gpu; });
    QCOMPARE(gpus, 1024);
}

void TestGraphTemplates::largeClusterOpensCollapsed() {
    ResolvedScenario sc = llamaOn(32768, 8, 8);
    GraphTemplateParams p = templateParamsOf(sc.cluster, GraphTemplateKind::RailOnly);
    const ClusterConfig c = templateCluster(sc.cluster, p);
    Diagnostics diags;
    const auto graph = buildTemplateGraph(c, diags);
    QVERIFY(graph);
    const Topology t = topologyOfGraph(*graph);
    const GraphHierarchy h = buildHierarchy(*graph, t, 8);
    std::vector<char> open = defaultExpansion(h, 3000);
    VisibleGraph v = visibleGraph(h, t, open);
    QVERIFY(v.nodes.size() + v.groups.size() <= 3000);
    QVERIFY(!v.groups.empty());
    // One unit expanded on demand: its 32 domains appear.
    const auto unit = std::find_if(h.groups.begin(), h.groups.end(),
                                   [](const GraphGroup& g) { return g.level == GroupLevel::Unit; });
    QVERIFY(unit != h.groups.end());
    const std::size_t before = v.groups.size();
    open[unit - h.groups.begin()] = 1;
    v = visibleGraph(h, t, open);
    QCOMPARE(v.groups.size(), before - 1 + kUnitDomains);
}

void TestGraphTemplates::heatMapRoutesExpertAllToAll() {
    // Qwen3-30B-A3B with EP 16 over two DGX domains: the dispatch and combine put bytes on NVLink
    // and on the network, on top of the plan's other traffic.
    Diagnostics diags;
    const auto sc = resolveText(R"({"format": "trainscape.scenario/1",
      "model": {"preset": "qwen3-30b-a3b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": 64},
      "training": {"seq_len": 4096, "global_batch": 256, "precision": "bf16"},
      "parallelism": {"tp": 1, "pp": 1, "ep": 16, "dp": 64, "zero": 1}})",
                                diags);
    QVERIFY2(sc, diags.all().empty() ? "?" : diags.all().front().toString().c_str());
    const auto graph = buildTemplateGraph(sc->cluster, diags);
    const auto est = estimatePlan(*sc, diags);
    QVERIFY(graph && est);
    QVERIFY(est->commBytesPerGpu.ep > 0);
    auto model = std::make_shared<const TopologyModel>(topologyOfGraph(*graph), sc->cluster);
    Estimate noEp = *est;
    noEp.commBytesPerGpu.ep = 0;
    const LinkHeat with = planLinkHeat(model, *sc, *est);
    const LinkHeat without = planLinkHeat(model, *sc, noEp);
    const Topology& t = model->topology();
    double scaleUp = 0, scaleOut = 0;
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const double d = with.bytesPerLink[i] - without.bytesPerLink[i];
        QVERIFY(d >= -1e-6 * std::max(1.0, with.bytesPerLink[i]));
        scaleUp += t.links[i].kind == LinkKind::ScaleUp ? d : 0;
        scaleOut += t.links[i].kind == LinkKind::ScaleOut ? d : 0;
    }
    QVERIFY(scaleUp > 0);
    QVERIFY(scaleOut > 0);
    // At least each GPU's bytes once on each class's first link: half its peers in each domain.
    QVERIFY(scaleUp + scaleOut >= 64 * est->commBytesPerGpu.ep * (1 - 1e-9));
}

void TestGraphTemplates::heatMapAndGroupOverlay() {
    ResolvedScenario sc = llamaOn(256, 8, 2);
    Diagnostics diags;
    const auto graph = buildTemplateGraph(sc.cluster, diags);
    const auto est = estimatePlan(sc, diags);
    QVERIFY(graph && est);
    auto model = std::make_shared<const TopologyModel>(topologyOfGraph(*graph), sc.cluster);
    const LinkHeat heat = planLinkHeat(model, sc, *est);
    const Topology& t = model->topology();
    QCOMPARE(heat.bytesPerLink.size(), t.links.size());
    double scaleUp = 0, scaleOut = 0;
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        scaleUp += t.links[i].kind == LinkKind::ScaleUp ? heat.bytesPerLink[i] : 0;
        scaleOut += t.links[i].kind == LinkKind::ScaleOut ? heat.bytesPerLink[i] : 0;
        QVERIFY(linkUtilisation(heat.bytesPerLink[i], t.links[i].gbPerS, heat.stepSeconds) < 1.5);
    }
    QVERIFY(scaleUp > 0);  // TP inside the DGX
    QVERIFY(scaleOut > 0); // DP and PP across the rails
    // TP group 3 is ranks 24..31: one domain, its NVSwitch links only.
    const auto g = defaultPlacements(sc.parallel, diags);
    QVERIFY(g);
    QCOMPARE(groupCount(g->tp, 256), 32);
    const std::vector<int> ranks = groupRanks(g->tp, 3);
    QCOMPARE(ranks.front(), 24);
    QCOMPARE(ranks.back(), 31);
    const std::vector<int> links = groupRingLinks(*model, ranks);
    QCOMPARE(links.size(), std::size_t(8));
    for (int li : links)
        QCOMPARE(int(t.links[li].kind), int(LinkKind::ScaleUp));
    // A DP group crosses the network.
    const std::vector<int> dp = groupRingLinks(*model, groupRanks(g->dp, 0));
    QVERIFY(std::any_of(dp.begin(), dp.end(),
                        [&](int li) { return t.links[li].kind == LinkKind::ScaleOut; }));
}

QTEST_APPLESS_MAIN(TestGraphTemplates)
#include "tst_graph_templates.moc"
