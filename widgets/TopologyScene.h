#pragma once
// The scene of the topology canvas: what TopologyGraphModel holds, drawn at the level of
// detail the user chose (GraphHierarchy.h: groups expand on demand), with the estimate on
// it: a per-link heat map of one step's bytes and the GPUs and links of one parallel group.
// It rebuilds its items when the model's structure changes and keeps what was expanded.

#include "topology/GraphHierarchy.h"

#include <QGraphicsScene>
#include <QHash>
#include <QSet>
#include <QString>

#include <optional>
#include <vector>

namespace ts::gui {

class EndpointItem;
class EdgeItem;
class GroupItem;
class NodeItem;
class TopologyGraphModel;

class TopologyScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit TopologyScene(TopologyGraphModel* model, QObject* parent = nullptr);

    TopologyGraphModel* model() const { return model_; }
    const GraphHierarchy& hierarchy() const { return hierarchy_; }
    const VisibleGraph& visible() const { return visible_; }
    // Builds the items now (otherwise after the model's change, once per event loop turn).
    void rebuild();
    int itemCountDrawn() const { return static_cast<int>(items().size()); }

    void setExpanded(int group, bool expanded);
    void expandAll(); // every group (small clusters)
    void collapseToDefault();
    bool isExpanded(int group) const;

    // Heat map: bytes per topology link and the step time; empty to switch it off.
    void setHeat(std::vector<double> bytesPerLink, double stepSeconds, bool sampled);
    bool heatShown() const { return !heatBytes_.empty(); }
    double edgeBytes(int edge) const;
    double edgeUtilisation(int edge) const;
    // Group overlay: GPU ranks and topology links lit; empty to switch it off.
    void setLit(const std::vector<int>& ranks, const std::vector<int>& links);
    // Validation: messages per graph node and per topology link.
    void setMessages(QHash<int, QString> nodes, QHash<int, QString> links);

    // The graph nodes an item stands for (a group: all its members).
    std::vector<int> nodesOf(const EndpointItem* item) const;
    // Topology links of an edge item.
    const std::vector<int>& linksOf(const EdgeItem* edge) const;
    EndpointItem* itemOfNode(int node) const;

signals:
    void rebuilt();

private:
    void scheduleRebuild();
    void applyMarks();
    QString edgeToolTip(int edge) const;
    std::vector<char> expansionFromKeys() const;

    TopologyGraphModel* model_;
    GraphHierarchy hierarchy_;
    VisibleGraph visible_;
    QSet<QString> expandedKeys_;
    QSet<QString> knownKeys_; // groups seen before: a new one (an added node) opens
    bool defaultNeeded_ = true;
    bool rebuildPending_ = false;
    std::vector<EndpointItem*> nodeItems_;  // per graph node (visible ones)
    std::vector<EndpointItem*> groupItems_; // per group (collapsed visible ones)
    std::vector<EdgeItem*> edgeItems_;
    std::vector<double> heatBytes_;
    double stepSeconds_ = 0;
    bool heatSampled_ = false;
    std::vector<char> litNodes_, litLinks_;
    QHash<int, QString> nodeMessages_, linkMessages_;
};

// Budget of nodes and groups drawn when a cluster opens (defaultExpansion).
inline constexpr int kOpenBudget = 3000;

} // namespace ts::gui
