#include "TopologyCommands.h"

#include "ScenarioDocument.h"
#include "TopologyGraphModel.h"
#include "UndoCommandIds.h"

#include <QCoreApplication>

#include <algorithm>

namespace ts::gui {

namespace {

// Keys a drawn graph sets beside cluster.graph: the GPU count must match it, and the
// topology names the graph.
const char* const kNumGpus = "/cluster/num_gpus";
const char* const kTopology = "/cluster/scale_out/topology";

} // namespace

TopologyCommand::TopologyCommand(TopologyGraphModel* model, const QString& text,
                                 std::vector<ScenarioValueChange> extraAfter)
    : QUndoCommand(text), model_(model), wasDerived_(model->isDerived()),
      after_(std::move(extraAfter)) {
    ScenarioDocument* doc = model->document();
    for (const char* key : {kNumGpus, kTopology})
        if (std::none_of(after_.begin(), after_.end(),
                         [&](const ScenarioValueChange& c) { return c.pointer == key; }))
            after_.push_back({key, std::nullopt}); // filled in at redo
    for (const ScenarioValueChange& c : after_)
        before_.push_back({c.pointer, doc->explicitValue(c.pointer)});
}

void TopologyCommand::redo() {
    apply();
    std::vector<ScenarioValueChange> after = after_;
    for (ScenarioValueChange& c : after) {
        if (c.pointer == kNumGpus && !c.value)
            c.value = model_->gpuCount();
        else if (c.pointer == kTopology && !c.value)
            c.value = "graph";
    }
    model_->writeToDocument(after, false);
}

void TopologyCommand::undo() {
    revert();
    model_->writeToDocument(before_, wasDerived_);
}

AddNodeCommand::AddNodeCommand(TopologyGraphModel* model, GraphNode node)
    : TopologyCommand(model, QCoreApplication::translate("ts::gui::TopologyCommand", "Add %1")
                                 .arg(QString::fromStdString(node.id))),
      node_(std::move(node)), index_(static_cast<int>(model->graph().nodes.size())) {}

void AddNodeCommand::apply() {
    model_->insertNodeAt(index_, node_);
}

void AddNodeCommand::revert() {
    model_->eraseNodeAt(index_);
}

AddLinkCommand::AddLinkCommand(TopologyGraphModel* model, GraphLink link)
    : TopologyCommand(model,
                      QCoreApplication::translate("ts::gui::TopologyCommand", "Link %1 to %2")
                          .arg(QString::fromStdString(link.from), QString::fromStdString(link.to))),
      link_(std::move(link)), index_(static_cast<int>(model->graph().links.size())) {}

void AddLinkCommand::apply() {
    model_->insertLinkAt(index_, link_);
}

void AddLinkCommand::revert() {
    model_->eraseLinkAt(index_);
}

RemoveItemsCommand::RemoveItemsCommand(TopologyGraphModel* model, std::vector<int> nodes,
                                       std::vector<int> links,
                                       std::vector<std::pair<int, GraphNode>> nicsAfter)
    : TopologyCommand(model, QCoreApplication::translate(
                                 "ts::gui::TopologyCommand", "Delete %n item(s)", nullptr,
                                 int(nodes.size() + links.size() + nicsAfter.size()))),
      nicsAfter_(std::move(nicsAfter)) {
    const ClusterGraph& g = model->graph();
    std::sort(nodes.begin(), nodes.end());
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    for (int i : nodes)
        nodes_.push_back({i, g.nodes[i]});
    for (int i : links)
        links_.push_back({i, g.links[i]});
    for (const auto& [i, after] : nicsAfter_)
        nicsBefore_.push_back({i, g.nodes[i]});
}

void RemoveItemsCommand::apply() {
    for (const auto& [i, nic] : nicsAfter_)
        model_->assignNode(i, nic);
    for (auto it = links_.rbegin(); it != links_.rend(); ++it)
        model_->eraseLinkAt(it->first);
    for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it)
        model_->eraseNodeAt(it->first);
}

void RemoveItemsCommand::revert() {
    for (const auto& [i, node] : nodes_)
        model_->insertNodeAt(i, node);
    for (const auto& [i, link] : links_)
        model_->insertLinkAt(i, link);
    for (const auto& [i, nic] : nicsBefore_)
        model_->assignNode(i, nic);
}

MoveNodesCommand::MoveNodesCommand(TopologyGraphModel* model, std::vector<std::string> ids,
                                   std::vector<QPointF> positions, int dragId)
    : TopologyCommand(model,
                      QCoreApplication::translate("ts::gui::TopologyCommand", "Move %n node(s)",
                                                  nullptr, int(ids.size()))),
      ids_(std::move(ids)), after_(std::move(positions)), dragId_(dragId) {
    for (const std::string& id : ids_) {
        const GraphNode* n = model->node(id);
        before_.push_back(n ? QPointF(n->x.value_or(0), n->y.value_or(0)) : QPointF());
    }
}

int MoveNodesCommand::id() const {
    return MoveTopologyNodesId;
}

bool MoveNodesCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const MoveNodesCommand*>(other);
    if (next->model_ != model_ || next->dragId_ != dragId_ || next->ids_ != ids_)
        return false;
    after_ = next->after_;
    return true;
}

void MoveNodesCommand::apply() {
    model_->setPositions(ids_, after_);
}

void MoveNodesCommand::revert() {
    model_->setPositions(ids_, before_);
}

ChangeNodeCommand::ChangeNodeCommand(TopologyGraphModel* model, int index, GraphNode after)
    : TopologyCommand(model, QCoreApplication::translate("ts::gui::TopologyCommand", "Change %1")
                                 .arg(QString::fromStdString(after.id))),
      index_(index), before_(model->graph().nodes[index]), after_(std::move(after)) {}

int ChangeNodeCommand::id() const {
    return ChangeTopologyNodeId;
}

bool ChangeNodeCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const ChangeNodeCommand*>(other);
    if (next->model_ != model_ || next->index_ != index_)
        return false;
    after_ = next->after_;
    setObsolete(after_ == before_);
    return true;
}

void ChangeNodeCommand::apply() {
    model_->assignNode(index_, after_);
}

void ChangeNodeCommand::revert() {
    model_->assignNode(index_, before_);
}

ChangeLinkCommand::ChangeLinkCommand(TopologyGraphModel* model, std::vector<int> indices,
                                     std::vector<GraphLink> after)
    : TopologyCommand(model,
                      QCoreApplication::translate("ts::gui::TopologyCommand", "Change %n link(s)",
                                                  nullptr, int(indices.size()))),
      indices_(std::move(indices)), after_(std::move(after)) {
    for (int i : indices_)
        before_.push_back(model->graph().links[i]);
}

int ChangeLinkCommand::id() const {
    return ChangeTopologyLinkId;
}

bool ChangeLinkCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const ChangeLinkCommand*>(other);
    if (next->model_ != model_ || next->indices_ != indices_)
        return false;
    after_ = next->after_;
    setObsolete(after_ == before_);
    return true;
}

void ChangeLinkCommand::apply() {
    for (std::size_t i = 0; i < indices_.size(); ++i)
        model_->assignLink(indices_[i], after_[i]);
}

void ChangeLinkCommand::revert() {
    for (std::size_t i = 0; i < indices_.size(); ++i)
        model_->assignLink(indices_[i], before_[i]);
}

ReplaceGraphCommand::ReplaceGraphCommand(TopologyGraphModel* model, ClusterGraph after,
                                         std::vector<ScenarioValueChange> keys, const QString& text)
    : TopologyCommand(model, text, std::move(keys)), before_(model->graph()),
      after_(std::move(after)) {}

void ReplaceGraphCommand::apply() {
    model_->replaceGraph(after_);
}

void ReplaceGraphCommand::revert() {
    model_->replaceGraph(before_);
}

} // namespace ts::gui
