// The Topology tab offscreen: templates draw rail-only and rail-optimized clusters of 1,024
// GPUs, the heat map and the group overlay light up links and GPUs, a 32,768-GPU rail-only
// cluster opens collapsed and still shows both; the tools add, link, move (one undo step per
// drag) and delete; core's validation marks the offending switch; the drawing exports as SVG
// and PNG. Screenshots go to TRAINSCAPE_TEST_OUT/screenshots.

#include "TestSupport.h"
#include "TopologyFixtures.h"

#include "NetworkBomPanel.h"
#include "ScenarioDocument.h"
#include "TopologyCanvas.h"
#include "TopologyGraphModel.h"
#include "TopologyItems.h"
#include "TopologyScene.h"
#include "TopologyTemplatePanel.h"
#include "TopologyView.h"

#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

void screenshot(QWidget* w, const QString& name) {
    const QString dir = test::outputDir() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(dir + "/" + name + ".png"));
}

template <class T> std::vector<T*> itemsOf(TopologyScene* scene, int type) {
    std::vector<T*> out;
    for (QGraphicsItem* item : scene->items())
        if (item->type() == type)
            out.push_back(static_cast<T*>(item));
    return out;
}

int litEdges(TopologyScene* scene) {
    int n = 0;
    for (EdgeItem* e : itemsOf<EdgeItem>(scene, EdgeItemType))
        n += e->zValue() == 0.5;
    return n;
}

int litEndpoints(TopologyScene* scene) {
    int n = 0;
    for (QGraphicsItem* item : scene->items())
        if (item->type() == NodeItemType || item->type() == GroupItemType)
            n += static_cast<EndpointItem*>(item)->marks.lit;
    return n;
}

double hottest(TopologyScene* scene) {
    double u = 0;
    for (std::size_t e = 0; e < scene->visible().edges.size(); ++e)
        u = std::max(u, scene->edgeUtilisation(static_cast<int>(e)));
    return u;
}

void estimateInto(ScenarioDocument& doc, TopologyView& view) {
    QVERIFY(doc.resolved());
    Diagnostics diags;
    const auto est = estimatePlan(*doc.resolved(), diags);
    QVERIFY2(est, diags.all().empty() ? "" : diags.all().front().toString().c_str());
    view.setEstimate(&*est);
}

} // namespace

class TestGuiTopology : public QObject {
    Q_OBJECT
private slots:
    void templatesHeatMapAndOverlay_data();
    void templatesHeatMapAndOverlay();
    void largeRailOnlyCluster();
    void expertAllToAllOnTheHeatMap();
    void toolsEditWithUndo();
    void validationMarksTheSwitch();
    void exportsSvgAndPng();
};

void TestGuiTopology::templatesHeatMapAndOverlay_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("name");
    QTest::newRow("rail-only") << int(GraphTemplateKind::RailOnly) << "rail-only";
    QTest::newRow("rail-optimized") << int(GraphTemplateKind::RailOptimized) << "rail-optimized";
}

void TestGuiTopology::templatesHeatMapAndOverlay() {
    QFETCH(int, kind);
    QFETCH(QString, name);
    ScenarioDocument doc;
    doc.reset(*test::canvasScenario(1024, "fat-tree"));
    TopologyView view(&doc);
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    // From the template panel: one undo step, the scenario's graph.
    GraphTemplateParams p = view.templates()->params();
    p.kind = GraphTemplateKind(kind);
    p.gpus = 1024;
    view.templates()->setParams(p);
    QVERIFY2(view.templates()->apply(), qPrintable(view.templates()->lastError()));
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(!view.model()->isDerived());
    QCOMPARE(view.model()->gpuCount(), 1024);
    view.scene()->rebuild();
    view.canvas()->fitAll();
    // Every GPU of 1,024 is drawn.
    int gpus = 0;
    for (NodeItem* n : itemsOf<NodeItem>(view.scene(), NodeItemType))
        gpus += n->kind() == GraphNodeKind::Gpu;
    QCOMPARE(gpus, 1024);
    QVERIFY(view.bom()->totalsText().contains("switches"));

    estimateInto(doc, view);
    view.setHeatMapShown(true);
    QVERIFY(view.waitForOverlays());
    QVERIFY(view.scene()->heatShown());
    QVERIFY(hottest(view.scene()) > 0.01);
    screenshot(&view, "topology-" + name + "-1024-heat");

    view.setHeatMapShown(false);
    view.setOverlay("dp", 3);
    QVERIFY(view.waitForOverlays());
    QCOMPARE(view.overlayGroupCount(), 32);
    QCOMPARE(litEndpoints(view.scene()), 32); // the 32 GPUs of DP group 3
    QVERIFY(litEdges(view.scene()) > 32);     // and the links of its ring
    screenshot(&view, "topology-" + name + "-1024-dp-group");
    view.setOverlay("tp", 0);
    QVERIFY(view.waitForOverlays());
    QCOMPARE(litEndpoints(view.scene()), 8);
}

void TestGuiTopology::expertAllToAllOnTheHeatMap() {
    // DeepSeek-V3 on 1,024 H100 (EP 64 over 8 nodes): the dispatch and combine are routed, so
    // the heat map with EP's bytes is hotter than without, and one EP group lights 64 GPUs.
    Diagnostics diags;
    const auto sc = loadScenarioFile(
        (test::sourceDir() + "/resources/examples/deepseek-v3-1024xh100.json").toStdString(),
        diags);
    QVERIFY(sc);
    ScenarioDocument doc;
    doc.reset(*sc);
    TopologyView view(&doc);
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.canvas()->fitAll();
    QVERIFY(doc.resolved());
    auto est = estimatePlan(*doc.resolved(), diags);
    QVERIFY(est && est->commBytesPerGpu.ep > 0);
    Estimate noEp = *est;
    noEp.commBytesPerGpu.ep = 0;
    view.setEstimate(&noEp);
    view.setHeatMapShown(true);
    QVERIFY(view.waitForOverlays());
    const double without = hottest(view.scene());
    view.setEstimate(&*est);
    QVERIFY(view.waitForOverlays());
    QVERIFY(view.scene()->heatShown());
    qInfo("hottest drawn link: %.3f without EP bytes, %.3f with", without, hottest(view.scene()));
    QVERIFY2(hottest(view.scene()) > without, qPrintable(QString::number(without)));
    QVERIFY2(view.statusLine().startsWith("Heat map of one step"), qPrintable(view.statusLine()));
    screenshot(&view, "topology-deepseek-v3-1024-heat");
    view.setHeatMapShown(false);
    view.setOverlay("ep", 0);
    QVERIFY(view.waitForOverlays());
    QCOMPARE(litEndpoints(view.scene()), 64);
    QVERIFY2(view.statusLine().contains("in its all-to-all"), qPrintable(view.statusLine()));
    screenshot(&view, "topology-deepseek-v3-1024-ep-group");
}

void TestGuiTopology::largeRailOnlyCluster() {
    ScenarioDocument doc;
    doc.reset(*test::canvasScenario(32768, "rail-only"));
    QElapsedTimer timer;
    timer.start();
    TopologyView view(&doc);
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.canvas()->fitAll();
    const qint64 openMs = timer.elapsed();
    qInfo("32,768-GPU rail-only: opened in %lld ms, %d items drawn", openMs,
          view.scene()->itemCountDrawn());
    QCOMPARE(view.model()->gpuCount(), 32768);
    QVERIFY(view.model()->isDerived());
    // Collapsed: a few thousand items, not 70k nodes.
    QVERIFY(view.scene()->itemCountDrawn() < 12000);
    QVERIFY(!itemsOf<GroupItem>(view.scene(), GroupItemType).empty());

    estimateInto(doc, view);
    view.setHeatMapShown(true);
    QVERIFY(view.waitForOverlays(120000));
    QVERIFY(hottest(view.scene()) > 0.01);
    screenshot(&view, "topology-rail-only-32768-heat");
    view.setHeatMapShown(false);
    view.setOverlay("tp", 100);
    QVERIFY(view.waitForOverlays(120000));
    QVERIFY(litEndpoints(view.scene()) >= 1); // the unit holding TP group 100
    screenshot(&view, "topology-rail-only-32768-tp-group");

    // Expanding the lit unit shows its domains; zooming in keeps painting.
    GroupItem* lit = nullptr;
    for (GroupItem* g : itemsOf<GroupItem>(view.scene(), GroupItemType))
        if (g->marks.lit)
            lit = g;
    QVERIFY(lit);
    const int before = view.scene()->itemCountDrawn();
    view.scene()->setExpanded(lit->group(), true);
    QVERIFY(view.scene()->itemCountDrawn() > before);
    view.canvas()->zoomBy(20);
    QVERIFY(!view.canvas()->viewport()->grab().isNull());
}

void TestGuiTopology::toolsEditWithUndo() {
    ScenarioDocument doc;
    doc.reset(*test::canvasScenario(64, "rail-optimized"));
    TopologyView view(&doc);
    view.resize(1400, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.scene()->rebuild();
    view.canvas()->fitAll();
    TopologyCanvas* canvas = view.canvas();
    QWidget* vp = canvas->viewport();

    // Add a switch on empty canvas (below the drawing).
    QVERIFY(view.selectTool("add-switch"));
    const QPoint empty =
        canvas->mapFromScene(canvas->mapToScene(vp->rect().center()) + QPointF(0, 600));
    const int nodes = int(view.model()->graph().nodes.size());
    QTest::mouseClick(vp, Qt::LeftButton, {}, empty);
    QCOMPARE(int(view.model()->graph().nodes.size()), nodes + 1);
    QCOMPARE(int(view.model()->graph().nodes.back().kind), int(GraphNodeKind::Switch));
    QCOMPARE(doc.undoStack()->count(), 1);
    view.scene()->rebuild();

    // Link a NIC to it.
    const std::string sw = view.model()->graph().nodes.back().id;
    const std::string nic = [&] {
        for (const GraphNode& n : view.model()->graph().nodes)
            if (n.kind == GraphNodeKind::Nic)
                return n.id;
        return std::string();
    }();
    auto at = [&](const std::string& id) {
        return canvas->mapFromScene(
            view.scene()->itemOfNode(view.model()->nodeIndex(id))->sceneBoundingRect().center());
    };
    QVERIFY(view.selectTool("link"));
    QSignalSpy messages(canvas, &TopologyCanvas::message);
    const std::size_t links = view.model()->graph().links.size();
    QTest::mousePress(vp, Qt::LeftButton, {}, at(nic));
    QTest::mouseMove(vp, at(sw));
    QTest::mouseRelease(vp, Qt::LeftButton, {}, at(sw));
    QVERIFY2(messages.isEmpty(),
             messages.isEmpty() ? "" : qPrintable(messages.front().front().toString()));
    QCOMPARE(view.model()->graph().links.size(), links + 1);
    QCOMPARE(view.model()->graph().links.back().from, nic);
    QCOMPARE(int(view.model()->graph().links.back().linkClass), int(LinkClass::ScaleOut));
    QCOMPARE(doc.undoStack()->count(), 2);
    view.scene()->rebuild();

    // Drag the switch: one undo step.
    QVERIFY(view.selectTool("select"));
    const QPoint from = at(sw);
    const double x0 = view.model()->node(sw)->x.value();
    QTest::mousePress(vp, Qt::LeftButton, {}, from);
    for (int i = 1; i <= 5; ++i)
        QTest::mouseMove(vp, from + QPoint(10 * i, 4 * i));
    QTest::mouseRelease(vp, Qt::LeftButton, {}, from + QPoint(50, 20));
    QCOMPARE(doc.undoStack()->count(), 3);
    const GraphNode* moved = view.model()->node(sw);
    QVERIFY(moved->x.value() > x0 + 10);
    doc.undoStack()->undo();
    view.scene()->rebuild();

    // Delete it with the delete tool: its link goes too; undo brings both back.
    QVERIFY(view.selectTool("delete"));
    QTest::mouseClick(vp, Qt::LeftButton, {}, at(sw));
    QVERIFY(!view.model()->node(sw));
    QCOMPARE(view.model()->graph().links.size(), links);
    doc.undoStack()->undo();
    QVERIFY(view.model()->node(sw));
    QCOMPARE(view.model()->graph().links.size(), links + 1);
    // Back to the builder's graph, and the scenario without cluster.graph.
    while (doc.undoStack()->canUndo())
        doc.undoStack()->undo();
    QVERIFY(view.model()->isDerived());
    QVERIFY(!doc.scenario().cluster.graph);
    screenshot(&view, "topology-rail-optimized-64");
}

void TestGuiTopology::validationMarksTheSwitch() {
    ScenarioDocument doc;
    doc.reset(*test::canvasScenario(64, "rail-optimized"));
    TopologyView view(&doc);
    view.scene()->rebuild();
    GraphNode leaf;
    for (const GraphNode& n : view.model()->graph().nodes)
        if (n.kind == GraphNodeKind::Switch) {
            leaf = n;
            break;
        }
    leaf.radix = 2; // fewer ports than it has links
    QVERIFY(view.model()->setNode(leaf));
    view.scene()->rebuild();
    auto* item = view.scene()->itemOfNode(view.model()->nodeIndex(leaf.id));
    QVERIFY(item);
    QVERIFY2(item->marks.error.contains("radix"), qPrintable(item->marks.error));
    QVERIFY(item->toolTip().contains("radix"));
}

void TestGuiTopology::exportsSvgAndPng() {
    ScenarioDocument doc;
    doc.reset(*test::canvasScenario(64, "rail-only"));
    TopologyView view(&doc);
    view.scene()->rebuild();
    QTemporaryDir dir;
    QVERIFY(view.canvas()->exportSvg(dir.filePath("t.svg")));
    QVERIFY(view.canvas()->exportPng(dir.filePath("t.png")));
    QFile svg(dir.filePath("t.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.size() > 10000);
    QImage png(dir.filePath("t.png"));
    QVERIFY(!png.isNull());
    QVERIFY(png.width() > 500);
}

QTEST_MAIN(TestGuiTopology)
#include "tst_gui_topology.moc"
