#pragma once
// The topology canvas's graph model (as QtNodes separates its graph model from the scene):
// the scenario's cluster graph with add/remove of nodes and links, connectionPossible, and
// one signal per change. Every edit is an undo command on the document's stack
// (TopologyCommands.h) that writes `cluster.graph` (with num_gpus and topology "graph")
// back into the scenario. A scenario without a graph shows its builder's graph (rail-
// optimized, rail-only, ...); the first edit writes that graph into the file.

#include "scenario/ClusterConfig.h"
#include "scenario/ClusterGraph.h"
#include "scenario/PoolConfig.h"
#include "topology/Topology.h"
#include "topology/TopologyModel.h"

#include <nlohmann/json.hpp>

#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>

class QUndoCommand;

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ts::gui {

class ScenarioDocument;
struct ScenarioValueChange;

struct ConnectionCheck {
    bool possible = false;
    bool host = false; // a GPU attached to a NIC (the NIC's "gpus"), not a link
    LinkClass linkClass = LinkClass::ScaleOut;
    QString reason; // why not, when not possible
};

class TopologyGraphModel : public QObject {
    Q_OBJECT
public:
    explicit TopologyGraphModel(ScenarioDocument* document, QObject* parent = nullptr);
    ~TopologyGraphModel() override;

    ScenarioDocument* document() const { return document_; }
    const ClusterGraph& graph() const { return graph_; }
    // Drawn from the scenario's builder; not in the file until the first edit.
    bool isDerived() const { return derived_; }
    int nodeIndex(const std::string& id) const;
    const GraphNode* node(const std::string& id) const;
    int gpusPerNode() const;
    int gpuCount() const;
    // The graph as core sees it (node i is graph node i; link i >= hostLinkCount() is graph
    // link i - hostLinkCount()), built on demand after each change.
    const Topology& topology() const;
    int hostLinkCount() const;
    std::shared_ptr<const TopologyModel> routeModel() const;
    // The cluster the graph belongs to (latencies, GPU), for the route model.
    ClusterConfig cluster() const;

    ConnectionCheck connectionPossible(const std::string& from, const std::string& to) const;
    std::string uniqueId(GraphNodeKind kind) const;

    // Edits, each one undo step; false (with `reason`) when refused.
    bool addNode(GraphNode node, QString* reason = nullptr);
    bool connectNodes(const std::string& from, const std::string& to, double gbPerS,
                      QString* reason = nullptr);
    // Removes nodes (with their links and NIC attachments), links by index and host
    // attachments (NIC id, GPU id).
    bool removeItems(const std::vector<std::string>& nodes, std::vector<int> links,
                     const std::vector<std::pair<std::string, std::string>>& attachments = {});
    // Consecutive moves with the same `dragId` and nodes merge into one undo step.
    bool moveNodes(const std::vector<std::string>& ids, const std::vector<QPointF>& positions,
                   int dragId);
    bool setNode(const GraphNode& after, QString* reason = nullptr); // by id; the id stays
    bool setLink(int index, const GraphLink& after, QString* reason = nullptr);
    bool setLinks(const std::vector<int>& indices, const std::vector<GraphLink>& after,
                  QString* reason = nullptr);
    // Replaces the whole graph (a template), with cluster keys set in the same step.
    bool applyGraph(ClusterGraph graph, const std::vector<ScenarioValueChange>& clusterKeys,
                    const QString& text);

    // For TopologyCommands only.
    void insertNodeAt(int index, GraphNode node);
    void eraseNodeAt(int index);
    void insertLinkAt(int index, GraphLink link);
    void eraseLinkAt(int index);
    void assignNode(int index, GraphNode node);
    void assignLink(int index, GraphLink link);
    void setPositions(const std::vector<std::string>& ids, const std::vector<QPointF>& positions);
    void replaceGraph(ClusterGraph graph);
    // Writes the graph and `extra` into the scenario (derivedAfter: remove cluster.graph).
    void writeToDocument(const std::vector<ScenarioValueChange>& extra, bool derivedAfter);

signals:
    void nodeAdded(const QString& id);
    void nodeRemoved(const QString& id);
    void linkAdded(int index);
    void linkRemoved(int index);
    void nodeChanged(const QString& id);
    void linkChanged(int index);
    void nodesMoved(const QStringList& ids);
    void graphReset();
    // After any change but moves: the canvas redraws its structure.
    void structureChanged();

private:
    void syncFromDocument();
    void invalidate();
    void reindex();
    bool pushCommand(QUndoCommand* command);

    ScenarioDocument* document_;
    ClusterGraph graph_;
    bool derived_ = true;
    bool writing_ = false;
    std::optional<nlohmann::ordered_json> syncedJson_;
    std::optional<ClusterConfig> derivedFrom_;
    std::optional<std::vector<ResolvedPool>> derivedPools_; // the pools it was drawn from
    std::unordered_map<std::string, int> index_;
    mutable std::optional<Topology> topology_;
    mutable std::shared_ptr<const TopologyModel> routeModel_;
};

} // namespace ts::gui
