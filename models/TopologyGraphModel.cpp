#include "TopologyGraphModel.h"

#include "ScenarioDocument.h"
#include "TopologyCommands.h"

#include "hetero/PoolsGraph.h"

#include "scenario/ClusterGraphJson.h"
#include "topology/GraphLayout.h"
#include "topology/GraphTemplates.h"
#include "topology/TopologyBuilder.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <algorithm>

namespace ts::gui {

namespace {

bool isSwitchKind(GraphNodeKind k) {
    return k == GraphNodeKind::Switch || k == GraphNodeKind::ScaleUpSwitch ||
           k == GraphNodeKind::Router;
}

// The cluster without its graph: what the builder's graph depends on.
ClusterConfig withoutGraph(ClusterConfig c) {
    c.graph = {};
    return c;
}

} // namespace

TopologyGraphModel::TopologyGraphModel(ScenarioDocument* document, QObject* parent)
    : QObject(parent), document_(document) {
    connect(document_, &ScenarioDocument::changed, this, &TopologyGraphModel::syncFromDocument);
    syncFromDocument();
}

TopologyGraphModel::~TopologyGraphModel() = default;

int TopologyGraphModel::nodeIndex(const std::string& id) const {
    const auto it = index_.find(id);
    return it == index_.end() ? -1 : it->second;
}

const GraphNode* TopologyGraphModel::node(const std::string& id) const {
    const int i = nodeIndex(id);
    return i < 0 ? nullptr : &graph_.nodes[i];
}

int TopologyGraphModel::gpusPerNode() const {
    const auto& r = document_->lastResolved();
    return r ? r->cluster.gpusPerNode : 8;
}

int TopologyGraphModel::gpuCount() const {
    return static_cast<int>(
        std::count_if(graph_.nodes.begin(), graph_.nodes.end(),
                      [](const GraphNode& n) { return n.kind == GraphNodeKind::Gpu; }));
}

const Topology& TopologyGraphModel::topology() const {
    if (!topology_)
        topology_ = topologyOfGraph(graph_);
    return *topology_;
}

int TopologyGraphModel::hostLinkCount() const {
    const Topology& t = topology();
    return static_cast<int>(t.links.size() - graph_.links.size());
}

ClusterConfig TopologyGraphModel::cluster() const {
    const auto& r = document_->lastResolved();
    return r ? withoutGraph(r->cluster) : ClusterConfig{};
}

std::shared_ptr<const TopologyModel> TopologyGraphModel::routeModel() const {
    if (!routeModel_ && !graph_.nodes.empty())
        routeModel_ = std::make_shared<const TopologyModel>(topology(), cluster());
    return routeModel_;
}

ConnectionCheck TopologyGraphModel::connectionPossible(const std::string& from,
                                                       const std::string& to) const {
    ConnectionCheck c;
    const GraphNode* a = node(from);
    const GraphNode* b = node(to);
    if (!a || !b) {
        c.reason = tr("unknown node");
        return c;
    }
    if (from == to) {
        c.reason = tr("a link must join two different nodes");
        return c;
    }
    using K = GraphNodeKind;
    const auto is = [&](K k) { return a->kind == k || b->kind == k; };
    const auto both = [&](K k1, K k2) {
        return (a->kind == k1 && b->kind == k2) || (a->kind == k2 && b->kind == k1);
    };
    if (both(K::Gpu, K::Nic)) {
        const GraphNode& nic = a->kind == K::Nic ? *a : *b;
        const std::string& gpu = a->kind == K::Gpu ? a->id : b->id;
        if (std::find(nic.gpus.begin(), nic.gpus.end(), gpu) != nic.gpus.end()) {
            c.reason = tr("the NIC already serves this GPU");
            return c;
        }
        c.possible = c.host = true;
        return c;
    }
    if (is(K::Gpu) || is(K::ScaleUpSwitch)) {
        if (!((a->kind == K::Gpu || a->kind == K::ScaleUpSwitch) &&
              (b->kind == K::Gpu || b->kind == K::ScaleUpSwitch))) {
            c.reason = tr("GPUs reach the network through NICs; scale-up links join GPUs and "
                          "scale-up switches");
            return c;
        }
        c.linkClass = LinkClass::ScaleUp;
    } else {
        c.linkClass = is(K::Router) ? LinkClass::Wan : LinkClass::ScaleOut;
    }
    // A switch with all its ports in use takes no more links.
    for (const GraphNode* n : {a, b}) {
        if (!n->radix || !isSwitchKind(n->kind))
            continue;
        const int used = static_cast<int>(
            std::count_if(graph_.links.begin(), graph_.links.end(),
                          [&](const GraphLink& l) { return l.from == n->id || l.to == n->id; }));
        if (used >= *n->radix) {
            c.reason = tr("%1 has all its %2 ports in use: raise its radix")
                           .arg(QString::fromStdString(n->id))
                           .arg(*n->radix);
            return c;
        }
    }
    c.possible = true;
    return c;
}

std::string TopologyGraphModel::uniqueId(GraphNodeKind kind) const {
    const std::string prefix = kind == GraphNodeKind::Gpu             ? "gpu"
                               : kind == GraphNodeKind::Nic           ? "nic"
                               : kind == GraphNodeKind::ScaleUpSwitch ? "nvswitch"
                               : kind == GraphNodeKind::Router        ? "wan-router"
                                                                      : "switch";
    for (std::size_t i = graph_.nodes.size();; ++i) {
        std::string id = prefix + std::to_string(i);
        if (!index_.count(id))
            return id;
    }
}

bool TopologyGraphModel::pushCommand(QUndoCommand* command) {
    document_->undoStack()->push(command);
    return true;
}

bool TopologyGraphModel::addNode(GraphNode node, QString* reason) {
    if (node.id.empty())
        node.id = uniqueId(node.kind);
    if (index_.count(node.id)) {
        if (reason)
            *reason = tr("a node \"%1\" exists already").arg(QString::fromStdString(node.id));
        return false;
    }
    return pushCommand(new AddNodeCommand(this, std::move(node)));
}

bool TopologyGraphModel::connectNodes(const std::string& from, const std::string& to, double gbPerS,
                                      QString* reason) {
    const ConnectionCheck check = connectionPossible(from, to);
    if (!check.possible) {
        if (reason)
            *reason = check.reason;
        return false;
    }
    if (check.host) {
        GraphNode nic = *node(from);
        std::string gpu = to;
        if (nic.kind != GraphNodeKind::Nic) {
            nic = *node(to);
            gpu = from;
        }
        nic.gpus.push_back(gpu);
        const int index = nodeIndex(nic.id);
        return pushCommand(new ChangeNodeCommand(this, index, std::move(nic)));
    }
    GraphLink link;
    link.from = from;
    link.to = to;
    link.linkClass = check.linkClass;
    link.gbPerS = gbPerS;
    return pushCommand(new AddLinkCommand(this, std::move(link)));
}

bool TopologyGraphModel::removeItems(
    const std::vector<std::string>& nodes, std::vector<int> links,
    const std::vector<std::pair<std::string, std::string>>& attachments) {
    std::vector<int> nodeIdx;
    for (const std::string& id : nodes)
        if (const int i = nodeIndex(id); i >= 0)
            nodeIdx.push_back(i);
    std::sort(nodeIdx.begin(), nodeIdx.end());
    nodeIdx.erase(std::unique(nodeIdx.begin(), nodeIdx.end()), nodeIdx.end());
    std::unordered_map<std::string, bool> gone;
    for (int i : nodeIdx)
        gone[graph_.nodes[i].id] = true;
    for (std::size_t i = 0; i < graph_.links.size(); ++i)
        if (gone.count(graph_.links[i].from) || gone.count(graph_.links[i].to))
            links.push_back(static_cast<int>(i));
    links.erase(
        std::remove_if(links.begin(), links.end(),
                       [&](int i) { return i < 0 || i >= static_cast<int>(graph_.links.size()); }),
        links.end());
    // NICs that stay lose the removed GPUs and the detached ones.
    std::vector<std::pair<int, GraphNode>> nics;
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
        const GraphNode& n = graph_.nodes[i];
        if (n.kind != GraphNodeKind::Nic || gone.count(n.id))
            continue;
        GraphNode after = n;
        std::erase_if(after.gpus, [&](const std::string& gpu) {
            return gone.count(gpu) || std::find(attachments.begin(), attachments.end(),
                                                std::pair{n.id, gpu}) != attachments.end();
        });
        if (after.gpus != n.gpus)
            nics.push_back({static_cast<int>(i), std::move(after)});
    }
    if (nodeIdx.empty() && links.empty() && nics.empty())
        return false;
    return pushCommand(
        new RemoveItemsCommand(this, std::move(nodeIdx), std::move(links), std::move(nics)));
}

bool TopologyGraphModel::moveNodes(const std::vector<std::string>& ids,
                                   const std::vector<QPointF>& positions, int dragId) {
    if (ids.empty() || ids.size() != positions.size())
        return false;
    return pushCommand(new MoveNodesCommand(this, ids, positions, dragId));
}

bool TopologyGraphModel::setNode(const GraphNode& after, QString* reason) {
    const int i = nodeIndex(after.id);
    if (i < 0) {
        if (reason)
            *reason = tr("unknown node");
        return false;
    }
    if (graph_.nodes[i] == after)
        return true;
    if (after.kind != graph_.nodes[i].kind) {
        if (reason)
            *reason = tr("a node keeps its kind; delete it and add another");
        return false;
    }
    return pushCommand(new ChangeNodeCommand(this, i, after));
}

bool TopologyGraphModel::setLink(int index, const GraphLink& after, QString* reason) {
    return setLinks({index}, {after}, reason);
}

bool TopologyGraphModel::setLinks(const std::vector<int>& indices,
                                  const std::vector<GraphLink>& after, QString* reason) {
    const auto refuse = [&](const QString& why) {
        if (reason)
            *reason = why;
        return false;
    };
    if (indices.empty() || indices.size() != after.size())
        return refuse(tr("unknown link"));
    bool changed = false;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const int index = indices[k];
        if (index < 0 || index >= static_cast<int>(graph_.links.size()))
            return refuse(tr("unknown link"));
        const GraphLink& before = graph_.links[index];
        const GraphLink& next = after[k];
        changed = changed || !(before == next);
        if (next.from != before.from || next.to != before.to)
            return refuse(tr("a link keeps its ends; delete it and draw another"));
        if (next.gbPerS <= 0)
            return refuse(tr("the bandwidth must be above 0 GB/s"));
        if ((next.linkClass == LinkClass::ScaleUp) != (before.linkClass == LinkClass::ScaleUp))
            return refuse(tr("scale-up links join GPUs and scale-up switches, others the network"));
    }
    if (!changed)
        return true;
    return pushCommand(new ChangeLinkCommand(this, indices, after));
}

bool TopologyGraphModel::applyGraph(ClusterGraph graph,
                                    const std::vector<ScenarioValueChange>& clusterKeys,
                                    const QString& text) {
    return pushCommand(new ReplaceGraphCommand(this, std::move(graph), clusterKeys, text));
}

void TopologyGraphModel::invalidate() {
    topology_.reset();
    routeModel_.reset();
}

void TopologyGraphModel::reindex() {
    index_.clear();
    index_.reserve(graph_.nodes.size());
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
        index_[graph_.nodes[i].id] = static_cast<int>(i);
}

void TopologyGraphModel::insertNodeAt(int index, GraphNode node) {
    const QString id = QString::fromStdString(node.id);
    graph_.nodes.insert(graph_.nodes.begin() + index, std::move(node));
    reindex();
    invalidate();
    emit nodeAdded(id);
}

void TopologyGraphModel::eraseNodeAt(int index) {
    const QString id = QString::fromStdString(graph_.nodes[index].id);
    graph_.nodes.erase(graph_.nodes.begin() + index);
    reindex();
    invalidate();
    emit nodeRemoved(id);
}

void TopologyGraphModel::insertLinkAt(int index, GraphLink link) {
    graph_.links.insert(graph_.links.begin() + index, std::move(link));
    invalidate();
    emit linkAdded(index);
}

void TopologyGraphModel::eraseLinkAt(int index) {
    graph_.links.erase(graph_.links.begin() + index);
    invalidate();
    emit linkRemoved(index);
}

void TopologyGraphModel::assignNode(int index, GraphNode node) {
    graph_.nodes[index] = std::move(node);
    invalidate();
    emit nodeChanged(QString::fromStdString(graph_.nodes[index].id));
}

void TopologyGraphModel::assignLink(int index, GraphLink link) {
    graph_.links[index] = std::move(link);
    invalidate();
    emit linkChanged(index);
}

void TopologyGraphModel::setPositions(const std::vector<std::string>& ids,
                                      const std::vector<QPointF>& positions) {
    QStringList moved;
    for (std::size_t i = 0; i < ids.size() && i < positions.size(); ++i) {
        const int n = nodeIndex(ids[i]);
        if (n < 0)
            continue;
        graph_.nodes[n].x = positions[i].x();
        graph_.nodes[n].y = positions[i].y();
        moved << QString::fromStdString(ids[i]);
    }
    emit nodesMoved(moved); // positions do not change the topology
}

void TopologyGraphModel::replaceGraph(ClusterGraph graph) {
    graph_ = std::move(graph);
    reindex();
    invalidate();
    emit graphReset();
}

void TopologyGraphModel::writeToDocument(const std::vector<ScenarioValueChange>& extra,
                                         bool derivedAfter) {
    writing_ = true;
    std::optional<nlohmann::ordered_json> json;
    if (!derivedAfter)
        json = clusterGraphToJson(graph_);
    document_->applyValue({"/cluster/graph", json});
    for (const ScenarioValueChange& change : extra)
        document_->applyValue(change);
    derived_ = derivedAfter;
    syncedJson_ = std::move(json);
    if (derived_)
        derivedFrom_ = cluster();
    document_->notifyChanged();
    writing_ = false;
    if (derived_)
        derivedFrom_ = cluster(); // resolved again by notifyChanged
    emit structureChanged();
}

void TopologyGraphModel::syncFromDocument() {
    if (writing_)
        return;
    const std::optional<nlohmann::ordered_json>& json = document_->scenario().cluster.graph;
    if (json && json->is_object()) {
        if (!derived_ && syncedJson_ == json)
            return;
        Diagnostics diags;
        std::optional<ClusterGraph> g = readClusterGraph(*json, "/cluster/graph", diags);
        derived_ = false;
        syncedJson_ = json;
        derivedFrom_.reset();
        graph_ = g ? std::move(*g) : ClusterGraph{};
        layoutGraph(graph_, topologyOfGraph(graph_));
    } else {
        const auto& resolved = document_->resolved();
        if (!resolved) // an invalid edit elsewhere: keep drawing what was drawn
            return;
        const ClusterConfig c = withoutGraph(resolved->cluster);
        // Pools: each pool's network as a group (hetero/PoolsGraph.h).
        const std::optional<std::vector<ResolvedPool>> pools =
            resolved->hetero ? std::optional(resolved->hetero->pools) : std::nullopt;
        if (derived_ && derivedFrom_ == c && derivedPools_ == pools)
            return;
        Diagnostics diags;
        std::optional<ClusterGraph> g;
        if (c.numGpus <= kMaxEstimateGraphGpus)
            g = resolved->hetero ? poolsGraph(*resolved->hetero, diags)
                                 : buildTemplateGraph(c, diags);
        derivedPools_ = pools;
        derived_ = true;
        syncedJson_.reset();
        derivedFrom_ = c;
        graph_ = g ? std::move(*g) : ClusterGraph{};
    }
    reindex();
    invalidate();
    emit graphReset();
    emit structureChanged();
}

} // namespace ts::gui
