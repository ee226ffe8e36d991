#pragma once
// Undo commands of the topology canvas (TopologyGraphModel.h): each changes the graph model
// by a small delta (a 32,768-GPU graph is not copied per step) and writes cluster.graph back
// into the scenario. The first edit of a builder's graph makes it explicit; undoing that
// edit removes cluster.graph again. Moves of one drag merge into one step.

#include "ChangeScenarioValue.h"

#include "scenario/ClusterGraph.h"

#include <QPointF>
#include <QUndoCommand>

#include <optional>
#include <string>
#include <vector>

namespace ts::gui {

class TopologyGraphModel;

class TopologyCommand : public QUndoCommand {
public:
    TopologyCommand(TopologyGraphModel* model, const QString& text,
                    std::vector<ScenarioValueChange> extraAfter = {});
    void redo() final;
    void undo() final;

protected:
    virtual void apply() = 0;
    virtual void revert() = 0;
    TopologyGraphModel* model_;

private:
    bool wasDerived_;
    std::vector<ScenarioValueChange> before_, after_; // cluster keys beside the graph
};

class AddNodeCommand : public TopologyCommand {
public:
    AddNodeCommand(TopologyGraphModel* model, GraphNode node);

private:
    void apply() override;
    void revert() override;
    GraphNode node_;
    int index_;
};

class AddLinkCommand : public TopologyCommand {
public:
    AddLinkCommand(TopologyGraphModel* model, GraphLink link);

private:
    void apply() override;
    void revert() override;
    GraphLink link_;
    int index_;
};

// Nodes (with every link and NIC attachment they have), links, and NIC attachments.
class RemoveItemsCommand : public TopologyCommand {
public:
    RemoveItemsCommand(TopologyGraphModel* model, std::vector<int> nodes, std::vector<int> links,
                       std::vector<std::pair<int, GraphNode>> nicsAfter);

private:
    void apply() override;
    void revert() override;
    std::vector<std::pair<int, GraphNode>> nodes_; // ascending index
    std::vector<std::pair<int, GraphLink>> links_; // ascending index
    std::vector<std::pair<int, GraphNode>> nicsBefore_, nicsAfter_;
};

class MoveNodesCommand : public TopologyCommand {
public:
    MoveNodesCommand(TopologyGraphModel* model, std::vector<std::string> ids,
                     std::vector<QPointF> positions, int dragId);
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply() override;
    void revert() override;
    std::vector<std::string> ids_;
    std::vector<QPointF> before_, after_;
    int dragId_;
};

// One node's or link's properties; consecutive edits of the same one merge (a spin box).
class ChangeNodeCommand : public TopologyCommand {
public:
    ChangeNodeCommand(TopologyGraphModel* model, int index, GraphNode after);
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply() override;
    void revert() override;
    int index_;
    GraphNode before_, after_;
};

// Links change together (a bundle of links edited at once is one step).
class ChangeLinkCommand : public TopologyCommand {
public:
    ChangeLinkCommand(TopologyGraphModel* model, std::vector<int> indices,
                      std::vector<GraphLink> after);
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void apply() override;
    void revert() override;
    std::vector<int> indices_;
    std::vector<GraphLink> before_, after_;
};

// A whole new graph (a template), with the cluster keys that go with it.
class ReplaceGraphCommand : public TopologyCommand {
public:
    ReplaceGraphCommand(TopologyGraphModel* model, ClusterGraph after,
                        std::vector<ScenarioValueChange> keys, const QString& text);

private:
    void apply() override;
    void revert() override;
    ClusterGraph before_, after_;
};

} // namespace ts::gui
