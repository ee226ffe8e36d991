// The topology canvas's graph model over a scenario document: a builder's graph until the
// first edit, then cluster.graph in the file; add, link, remove, move and property edits are
// undo steps (the moves of one drag merge); connectionPossible refuses what core refuses; a
// template saved and reopened draws the same graph and estimates the same.

#include "TestSupport.h"

#include "ScenarioDocument.h"
#include "TopologyGraphModel.h"

#include "estimate/Estimator.h"
#include "topology/GraphTemplates.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace ts;
using namespace ts::gui;

namespace {

QString example(const QString& name) {
    return test::sourceDir() + "/resources/examples/" + name;
}

const GraphNode& nodeOfKind(const TopologyGraphModel& m, GraphNodeKind kind, int nth = 0) {
    for (const GraphNode& n : m.graph().nodes)
        if (n.kind == kind && nth-- == 0)
            return n;
    static GraphNode none;
    return none;
}

} // namespace

class TestGuiTopologyModel : public QObject {
    Q_OBJECT
private slots:
    void init();
    void derivedUntilFirstEdit();
    void linksFollowCoreRules();
    void removeAndUndoRestoresTheGraph();
    void dragMergesIntoOneStep();
    void propertyEditsMerge();
    void templateSavedAndReopened();

private:
    std::unique_ptr<ScenarioDocument> doc_;
    std::unique_ptr<TopologyGraphModel> model_;
};

void TestGuiTopologyModel::init() {
    doc_ = std::make_unique<ScenarioDocument>();
    Diagnostics diags;
    QVERIFY(doc_->load(example("llama3-70b-64xh100.json"), diags));
    model_ = std::make_unique<TopologyGraphModel>(doc_.get());
}

void TestGuiTopologyModel::derivedUntilFirstEdit() {
    QVERIFY(model_->isDerived());
    QCOMPARE(model_->gpuCount(), 64);
    QVERIFY(!doc_->scenario().cluster.graph);
    const auto numGpus = doc_->explicitValue("/cluster/num_gpus");
    QSignalSpy added(model_.get(), &TopologyGraphModel::nodeAdded);

    GraphNode gpu;
    gpu.kind = GraphNodeKind::Gpu;
    QVERIFY(model_->addNode(gpu));
    QCOMPARE(added.count(), 1);
    QVERIFY(!model_->isDerived());
    QCOMPARE(model_->gpuCount(), 65);
    QCOMPARE(doc_->undoStack()->count(), 1);
    QVERIFY(doc_->scenario().cluster.graph);
    QCOMPARE(doc_->explicitValue("/cluster/num_gpus"), std::optional(nlohmann::ordered_json(65)));
    QCOMPARE(doc_->explicitValue("/cluster/scale_out/topology"),
             std::optional(nlohmann::ordered_json("graph")));
    QVERIFY(doc_->isModified());

    doc_->undoStack()->undo();
    QVERIFY(model_->isDerived());
    QCOMPARE(model_->gpuCount(), 64);
    QVERIFY(!doc_->scenario().cluster.graph);
    QCOMPARE(doc_->explicitValue("/cluster/num_gpus"), numGpus);
    QVERIFY(!doc_->explicitValue("/cluster/scale_out/topology"));
    QVERIFY(!doc_->isModified());
    doc_->undoStack()->redo();
    QCOMPARE(model_->gpuCount(), 65);
}

void TestGuiTopologyModel::linksFollowCoreRules() {
    const std::string gpu = nodeOfKind(*model_, GraphNodeKind::Gpu).id;
    const std::string nic = nodeOfKind(*model_, GraphNodeKind::Nic, 9).id;
    const std::string leaf = nodeOfKind(*model_, GraphNodeKind::Switch).id;
    const std::string nvs = nodeOfKind(*model_, GraphNodeKind::ScaleUpSwitch, 1).id;
    ConnectionCheck c = model_->connectionPossible(gpu, leaf);
    QVERIFY(!c.possible);
    QVERIFY(c.reason.contains("NIC"));
    c = model_->connectionPossible(gpu, nvs);
    QVERIFY(c.possible);
    QCOMPARE(int(c.linkClass), int(LinkClass::ScaleUp));
    // The 64-GPU cluster's one switch uses all its 64 ports: refused until its radix grows.
    c = model_->connectionPossible(nic, leaf);
    QVERIFY(!c.possible);
    QVERIFY(c.reason.contains("radix"));
    GraphNode bigger = *model_->node(leaf);
    bigger.radix = 128;
    QVERIFY(model_->setNode(bigger));
    c = model_->connectionPossible(nic, leaf);
    QVERIFY(c.possible);
    QCOMPARE(int(c.linkClass), int(LinkClass::ScaleOut));
    QVERIFY(!model_->connectionPossible(gpu, gpu).possible);

    // A GPU to a NIC: the NIC serves it.
    c = model_->connectionPossible(gpu, nic);
    QVERIFY(c.possible && c.host);
    QSignalSpy changed(model_.get(), &TopologyGraphModel::nodeChanged);
    QVERIFY(model_->connectNodes(gpu, nic, 50));
    QCOMPARE(changed.count(), 1);
    const auto& gpus = model_->node(nic)->gpus;
    QVERIFY(std::find(gpus.begin(), gpus.end(), gpu) != gpus.end());
    QVERIFY(!model_->connectionPossible(gpu, nic).possible);

    // A scale-up link to the other server's NVSwitch: the resolved scenario takes it.
    const std::size_t links = model_->graph().links.size();
    QSignalSpy linkAdded(model_.get(), &TopologyGraphModel::linkAdded);
    QVERIFY(model_->connectNodes(gpu, nvs, 450));
    QCOMPARE(linkAdded.count(), 1);
    QCOMPARE(model_->graph().links.size(), links + 1);
    QCOMPARE(int(model_->graph().links.back().linkClass), int(LinkClass::ScaleUp));
    QVERIFY(doc_->resolved());

    // A leaf with every port used refuses another link.
    GraphNode full = *model_->node(leaf);
    int used = 0;
    for (const GraphLink& l : model_->graph().links)
        used += l.from == leaf || l.to == leaf;
    full.radix = used;
    QVERIFY(model_->setNode(full));
    c = model_->connectionPossible(nic, leaf);
    QVERIFY(!c.possible);
    QVERIFY(c.reason.contains("radix"));
    QString reason;
    QVERIFY(!model_->connectNodes(nic, leaf, 50, &reason));
    QVERIFY(!reason.isEmpty());
}

void TestGuiTopologyModel::removeAndUndoRestoresTheGraph() {
    const ClusterGraph before = model_->graph();
    const std::string leaf = nodeOfKind(*model_, GraphNodeKind::Switch).id;
    const std::string gpu = nodeOfKind(*model_, GraphNodeKind::Gpu, 5).id;
    QSignalSpy removed(model_.get(), &TopologyGraphModel::nodeRemoved);
    QSignalSpy linkRemoved(model_.get(), &TopologyGraphModel::linkRemoved);
    QVERIFY(model_->removeItems({leaf, gpu}, {0}));
    QCOMPARE(removed.count(), 2);
    QVERIFY(linkRemoved.count() > 2);
    QVERIFY(!model_->node(leaf) && !model_->node(gpu));
    for (const GraphLink& l : model_->graph().links)
        QVERIFY(l.from != leaf && l.to != leaf && l.from != gpu && l.to != gpu);
    for (const GraphNode& n : model_->graph().nodes)
        QVERIFY(std::find(n.gpus.begin(), n.gpus.end(), gpu) == n.gpus.end());
    QCOMPARE(model_->gpuCount(), 63);
    QCOMPARE(doc_->undoStack()->count(), 1);
    doc_->undoStack()->undo();
    QVERIFY(model_->graph() == before);
    doc_->undoStack()->redo();
    QVERIFY(!model_->node(leaf));
}

void TestGuiTopologyModel::dragMergesIntoOneStep() {
    const std::string a = nodeOfKind(*model_, GraphNodeKind::Gpu).id;
    const std::string b = nodeOfKind(*model_, GraphNodeKind::Gpu, 1).id;
    const QPointF a0(*model_->node(a)->x, *model_->node(a)->y);
    QSignalSpy moved(model_.get(), &TopologyGraphModel::nodesMoved);
    for (int step = 1; step <= 5; ++step)
        QVERIFY(model_->moveNodes({a, b}, {a0 + QPointF(step * 10, 0), QPointF(step, step)}, 7));
    QCOMPARE(moved.count(), 5);
    QCOMPARE(doc_->undoStack()->count(), 1);
    QCOMPARE(*model_->node(a)->x, a0.x() + 50);
    // Another drag is another step.
    QVERIFY(model_->moveNodes({a, b}, {QPointF(0, 0), QPointF(1, 1)}, 8));
    QCOMPARE(doc_->undoStack()->count(), 2);
    doc_->undoStack()->undo();
    QCOMPARE(*model_->node(a)->x, a0.x() + 50);
    doc_->undoStack()->undo();
    QCOMPARE(*model_->node(a)->x, a0.x());
    QCOMPARE(*model_->node(a)->y, a0.y());
    // The position is saved in the scenario.
    doc_->undoStack()->redo();
    const auto x =
        doc_->explicitValue("/cluster/graph/nodes/" + std::to_string(model_->nodeIndex(a)) + "/x");
    QVERIFY(x);
    QCOMPARE(x->get<double>(), a0.x() + 50);
}

void TestGuiTopologyModel::propertyEditsMerge() {
    int scaleOut = 0;
    while (model_->graph().links[scaleOut].linkClass != LinkClass::ScaleOut)
        ++scaleOut;
    GraphLink l = model_->graph().links[scaleOut];
    const double gb = l.gbPerS;
    for (double v : {60.0, 70.0, 100.0}) {
        l.gbPerS = v;
        QVERIFY(model_->setLink(scaleOut, l));
    }
    QCOMPARE(doc_->undoStack()->count(), 1);
    QCOMPARE(model_->graph().links[scaleOut].gbPerS, 100.0);
    QString reason;
    l.gbPerS = 0;
    QVERIFY(!model_->setLink(scaleOut, l, &reason));
    QVERIFY(reason.contains("GB/s"));
    l.gbPerS = 100;
    l.linkClass = LinkClass::ScaleUp;
    QVERIFY(!model_->setLink(scaleOut, l, &reason));
    doc_->undoStack()->undo();
    QCOMPARE(model_->graph().links[scaleOut].gbPerS, gb);
}

void TestGuiTopologyModel::templateSavedAndReopened() {
    // Rail-only 64 GPUs from the template, with the cluster keys it implies.
    const ClusterConfig base = doc_->resolved()->cluster;
    GraphTemplateParams p = templateParamsOf(base, GraphTemplateKind::RailOnly);
    const ClusterConfig c = templateCluster(base, p);
    Diagnostics diags;
    auto graph = buildTemplateGraph(c, diags);
    QVERIFY(graph);
    QVERIFY(model_->applyGraph(*graph, {{"/cluster/num_gpus", c.numGpus}}, "Rail-only"));
    QCOMPARE(doc_->undoStack()->count(), 1);
    QVERIFY(doc_->resolved());
    // The builder's estimate for the same cluster.
    ResolvedScenario builder = *doc_->resolved();
    builder.cluster = c;
    const auto expected = estimatePlan(builder, diags);
    const auto drawn = estimatePlan(*doc_->resolved(), diags);
    QVERIFY(expected && drawn);
    QCOMPARE(drawn->stepSeconds, expected->stepSeconds);

    QTemporaryDir dir;
    const QString path = dir.filePath("rail-only.json");
    QString error;
    QVERIFY2(doc_->save(path, &error), qPrintable(error));
    ScenarioDocument reopened;
    QVERIFY(reopened.load(path, diags));
    TopologyGraphModel again(&reopened);
    QVERIFY(!again.isDerived());
    QVERIFY(again.graph() == model_->graph());
    const auto reread = estimatePlan(*reopened.resolved(), diags);
    QVERIFY(reread);
    QCOMPARE(reread->stepSeconds, expected->stepSeconds);
    doc_->undoStack()->undo();
    QVERIFY(model_->isDerived());
}

QTEST_MAIN(TestGuiTopologyModel)
#include "tst_gui_topology_model.moc"
