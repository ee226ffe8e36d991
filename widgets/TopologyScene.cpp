#include "TopologyScene.h"

#include "QuantityText.h"
#include "TopologyGraphModel.h"
#include "TopologyItems.h"

#include "traffic/PlanTraffic.h"

#include <QTimer>

#include <algorithm>

namespace ts::gui {

namespace {

EdgeItem::Style styleOf(LinkKind kind) {
    switch (kind) {
    case LinkKind::ScaleUp:
        return EdgeItem::Style::ScaleUp;
    case LinkKind::ScaleOut:
        return EdgeItem::Style::ScaleOut;
    case LinkKind::Wan:
        return EdgeItem::Style::Wan;
    case LinkKind::Host:
        break;
    }
    return EdgeItem::Style::Host;
}

QString groupDetail(const GraphGroup& g) {
    QStringList parts;
    if (g.gpus)
        parts << TopologyScene::tr("%n GPU(s)", nullptr, int(g.gpus));
    if (g.nics)
        parts << TopologyScene::tr("%n NIC(s)", nullptr, int(g.nics));
    if (g.switches)
        parts << TopologyScene::tr("%n switch(es)", nullptr, int(g.switches));
    return parts.join(QStringLiteral(" · "));
}

QString groupTitle(const GraphGroup& g) {
    const QString n = QString::fromStdString(g.label).section(' ', -1);
    switch (g.level) {
    case GroupLevel::Pod:
        return TopologyScene::tr("Pod %1").arg(n);
    case GroupLevel::Unit:
        return TopologyScene::tr("Scalable unit %1").arg(n);
    case GroupLevel::Domain:
        return TopologyScene::tr("Scale-up domain %1").arg(n);
    case GroupLevel::Node:
        return TopologyScene::tr("Node %1").arg(n);
    case GroupLevel::SwitchBlock:
        break;
    }
    return TopologyScene::tr("Tier %1 switches")
        .arg(QString::fromStdString(g.label).section(' ', 1, 1));
}

// What an endpoint item stands for, stable across rebuilds: a node id or a group key.
QString descriptor(const EndpointItem* item) {
    if (item->type() == NodeItemType)
        return QStringLiteral("n:") +
               QString::fromStdString(static_cast<const NodeItem*>(item)->id());
    return QStringLiteral("g:") + static_cast<const GroupItem*>(item)->key();
}

QString edgeDescriptor(const EdgeItem* e) {
    const QString a = descriptor(e->endA()), b = descriptor(e->endB());
    return a < b ? a + '|' + b : b + '|' + a;
}

} // namespace

TopologyScene::TopologyScene(TopologyGraphModel* model, QObject* parent)
    : QGraphicsScene(parent), model_(model) {
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(model_, &TopologyGraphModel::graphReset, this, [this] {
        defaultNeeded_ = true;
        heatBytes_.clear();
        litNodes_.clear();
        litLinks_.clear();
        scheduleRebuild();
    });
    connect(model_, &TopologyGraphModel::structureChanged, this, [this] {
        // Indices moved: the overlays belong to the graph before the change.
        heatBytes_.clear();
        litNodes_.clear();
        litLinks_.clear();
        scheduleRebuild();
    });
    rebuild();
}

void TopologyScene::scheduleRebuild() {
    if (rebuildPending_)
        return;
    rebuildPending_ = true;
    QTimer::singleShot(0, this, [this] {
        if (rebuildPending_)
            rebuild();
    });
}

std::vector<char> TopologyScene::expansionFromKeys() const {
    std::vector<char> open(hierarchy_.groups.size(), 0);
    for (std::size_t i = 0; i < open.size(); ++i)
        open[i] = expandedKeys_.contains(QString::fromStdString(hierarchy_.groups[i].key));
    return open;
}

void TopologyScene::rebuild() {
    rebuildPending_ = false;
    const Topology& t = model_->topology();
    const ClusterGraph& g = model_->graph();
    hierarchy_ = buildHierarchy(g, t, model_->gpusPerNode());
    if (defaultNeeded_) {
        defaultNeeded_ = false;
        expandedKeys_.clear();
        knownKeys_.clear();
        const std::vector<char> open = defaultExpansion(hierarchy_, kOpenBudget);
        for (std::size_t i = 0; i < open.size(); ++i)
            if (open[i])
                expandedKeys_.insert(QString::fromStdString(hierarchy_.groups[i].key));
        for (const GraphGroup& group : hierarchy_.groups)
            knownKeys_.insert(QString::fromStdString(group.key));
    }
    // A group that appeared with an edit (a GPU added: its own domain) opens where its
    // parent is open, so that what was added shows.
    for (const GraphGroup& group : hierarchy_.groups) {
        const QString key = QString::fromStdString(group.key);
        if (knownKeys_.contains(key))
            continue;
        knownKeys_.insert(key);
        const bool parentOpen =
            group.parent < 0 ||
            expandedKeys_.contains(QString::fromStdString(hierarchy_.groups[group.parent].key));
        if (parentOpen && group.gpus + group.nics + group.switches <= 64)
            expandedKeys_.insert(key);
    }
    visible_ = visibleGraph(hierarchy_, t, expansionFromKeys());
    // The selection survives the rebuild (an edit of the selected item's properties).
    QSet<QString> selected;
    for (QGraphicsItem* item : selectedItems()) {
        if (item->type() == EdgeItemType)
            selected.insert(edgeDescriptor(static_cast<EdgeItem*>(item)));
        else if (item->type() == NodeItemType || item->type() == GroupItemType)
            selected.insert(descriptor(static_cast<EndpointItem*>(item)));
    }
    const QSignalBlocker block(this);
    clear();
    nodeItems_.assign(t.nodes.size(), nullptr);
    groupItems_.assign(hierarchy_.groups.size(), nullptr);
    edgeItems_.clear();
    for (int gr : visible_.groups) {
        const GraphGroup& group = hierarchy_.groups[gr];
        // The box of its members, with room for the nodes' own size.
        const QRectF rect = QRectF(QPointF(group.x0, group.y0), QPointF(group.x1, group.y1))
                                .normalized()
                                .adjusted(-20, -16, 20, 16);
        auto* item = new GroupItem(gr, QString::fromStdString(group.key), groupTitle(group),
                                   groupDetail(group), rect);
        addItem(item);
        groupItems_[gr] = item;
    }
    for (int v : visible_.nodes) {
        auto* item = new NodeItem(v, g.nodes[v]);
        addItem(item);
        nodeItems_[v] = item;
    }
    edgeItems_.reserve(visible_.edges.size());
    for (std::size_t e = 0; e < visible_.edges.size(); ++e) {
        const VisibleEdge& edge = visible_.edges[e];
        auto end = [&](int code) -> EndpointItem* {
            return code >= 0 ? nodeItems_[code] : groupItems_[-code - 1];
        };
        auto* item = new EdgeItem(static_cast<int>(e), end(edge.a), end(edge.b),
                                  edge.mixed ? EdgeItem::Style::ScaleOut : styleOf(edge.kind),
                                  static_cast<int>(edge.links.size()));
        addItem(item);
        edgeItems_.push_back(item);
    }
    QRectF bounds = itemsBoundingRect();
    setSceneRect(bounds.adjusted(-200, -200, 200, 200));
    if (!selected.isEmpty()) {
        for (EndpointItem* item : nodeItems_)
            if (item && selected.contains(descriptor(item)))
                item->setSelected(true);
        for (EndpointItem* item : groupItems_)
            if (item && selected.contains(descriptor(item)))
                item->setSelected(true);
        for (EdgeItem* item : edgeItems_)
            if (selected.contains(edgeDescriptor(item)))
                item->setSelected(true);
    }
    applyMarks();
    emit rebuilt();
    emit selectionChanged();
}

bool TopologyScene::isExpanded(int group) const {
    return group >= 0 && group < static_cast<int>(hierarchy_.groups.size()) &&
           expandedKeys_.contains(QString::fromStdString(hierarchy_.groups[group].key));
}

void TopologyScene::setExpanded(int group, bool expanded) {
    if (group < 0 || group >= static_cast<int>(hierarchy_.groups.size()))
        return;
    const QString key = QString::fromStdString(hierarchy_.groups[group].key);
    if (expanded == expandedKeys_.contains(key))
        return;
    if (expanded) {
        // Its parents open too, so that it shows.
        for (int p = group; p >= 0; p = hierarchy_.groups[p].parent)
            expandedKeys_.insert(QString::fromStdString(hierarchy_.groups[p].key));
    } else {
        expandedKeys_.remove(key);
    }
    rebuild();
}

void TopologyScene::expandAll() {
    for (const GraphGroup& g : hierarchy_.groups)
        expandedKeys_.insert(QString::fromStdString(g.key));
    rebuild();
}

void TopologyScene::collapseToDefault() {
    defaultNeeded_ = true;
    rebuild();
}

void TopologyScene::setHeat(std::vector<double> bytesPerLink, double stepSeconds, bool sampled) {
    heatBytes_ = std::move(bytesPerLink);
    stepSeconds_ = stepSeconds;
    heatSampled_ = sampled;
    applyMarks();
}

double TopologyScene::edgeBytes(int edge) const {
    double bytes = 0;
    if (heatBytes_.empty())
        return 0;
    for (int li : visible_.edges[edge].links)
        if (li < static_cast<int>(heatBytes_.size()))
            bytes += heatBytes_[li];
    return bytes;
}

double TopologyScene::edgeUtilisation(int edge) const {
    return linkUtilisation(edgeBytes(edge), visible_.edges[edge].gbPerS, stepSeconds_);
}

void TopologyScene::setLit(const std::vector<int>& ranks, const std::vector<int>& links) {
    const Topology& t = model_->topology();
    litNodes_.assign(ranks.empty() && links.empty() ? 0 : t.nodes.size(), 0);
    litLinks_.assign(ranks.empty() && links.empty() ? 0 : t.links.size(), 0);
    for (int r : ranks)
        if (r >= 0 && r < static_cast<int>(t.gpuNodes.size()))
            litNodes_[t.gpuNodes[r]] = 1;
    for (int li : links)
        if (li >= 0 && li < static_cast<int>(litLinks_.size()))
            litLinks_[li] = 1;
    applyMarks();
}

void TopologyScene::setMessages(QHash<int, QString> nodes, QHash<int, QString> links) {
    nodeMessages_ = std::move(nodes);
    linkMessages_ = std::move(links);
    applyMarks();
}

void TopologyScene::applyMarks() {
    const Topology& t = model_->topology();
    if (rebuildPending_ || nodeItems_.size() != t.nodes.size())
        return; // the items are of the graph before the change: the rebuild marks them
    std::vector<ItemMarks> marks(t.nodes.size() + hierarchy_.groups.size());
    const auto markOf = [&](int code) -> ItemMarks& {
        return code >= 0 ? marks[code] : marks[t.nodes.size() + (-code - 1)];
    };
    for (std::size_t v = 0; v < t.nodes.size() && v < visible_.endpointOf.size(); ++v) {
        ItemMarks& m = markOf(visible_.endpointOf[v]);
        if (v < litNodes_.size() && litNodes_[v])
            m.lit = true;
        if (auto it = nodeMessages_.find(static_cast<int>(v)); it != nodeMessages_.end())
            if (m.error.isEmpty())
                m.error = it.value();
    }
    for (std::size_t v = 0; v < t.nodes.size(); ++v)
        if (nodeItems_[v])
            nodeItems_[v]->setMarks(marks[v]);
    for (std::size_t gr = 0; gr < groupItems_.size(); ++gr)
        if (groupItems_[gr])
            groupItems_[gr]->setMarks(marks[t.nodes.size() + gr]);
    for (EdgeItem* item : edgeItems_) {
        const VisibleEdge& e = visible_.edges[item->edge()];
        bool lit = false;
        for (int li : e.links)
            lit = lit || (li < static_cast<int>(litLinks_.size()) && litLinks_[li]);
        item->setLit(lit);
        item->setHeat(heatBytes_.empty() ? -1.0 : edgeUtilisation(item->edge()));
        QString tip = edgeToolTip(item->edge());
        for (int li : e.links)
            if (auto it = linkMessages_.find(li); it != linkMessages_.end()) {
                tip += "\n" + it.value();
                break;
            }
        item->setToolTip(tip);
    }
}

QString TopologyScene::edgeToolTip(int edge) const {
    const VisibleEdge& e = visible_.edges[edge];
    const Topology& t = model_->topology();
    const auto name = [&](int code) {
        return code >= 0 ? QString::fromStdString(t.nodeName(code))
                         : groupTitle(hierarchy_.groups[-code - 1]);
    };
    QString tip = name(e.a) + QStringLiteral(" – ") + name(e.b);
    const char* kinds[] = {"host (PCIe)", "scale-up", "scale-out", "WAN"};
    tip += "\n" + tr("%n link(s), %1", nullptr, int(e.links.size()))
                      .arg(e.mixed ? tr("mixed classes") : QString::fromLatin1(kinds[int(e.kind)]));
    tip += "\n" + tr("%1 GB/s per direction").arg(numberText(e.gbPerS, 4));
    if (!heatBytes_.empty()) {
        tip += "\n" + tr("%1 per step, utilisation %2%")
                          .arg(bytesText(edgeBytes(edge)))
                          .arg(numberText(100 * edgeUtilisation(edge), 3));
        if (heatSampled_)
            tip += "\n" + tr("(routed for a sample of ranks, scaled to all)");
    }
    return tip;
}

std::vector<int> TopologyScene::nodesOf(const EndpointItem* item) const {
    if (item->type() == NodeItemType)
        return {static_cast<const NodeItem*>(item)->node()};
    std::vector<int> out;
    std::vector<int> stack{static_cast<const GroupItem*>(item)->group()};
    while (!stack.empty()) {
        const GraphGroup& g = hierarchy_.groups[stack.back()];
        stack.pop_back();
        out.insert(out.end(), g.nodes.begin(), g.nodes.end());
        stack.insert(stack.end(), g.children.begin(), g.children.end());
    }
    return out;
}

const std::vector<int>& TopologyScene::linksOf(const EdgeItem* edge) const {
    return visible_.edges[edge->edge()].links;
}

EndpointItem* TopologyScene::itemOfNode(int node) const {
    if (node < 0 || node >= static_cast<int>(visible_.endpointOf.size()))
        return nullptr;
    const int code = visible_.endpointOf[node];
    return code >= 0 ? nodeItems_[code] : groupItems_[-code - 1];
}

} // namespace ts::gui
