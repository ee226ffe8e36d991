#pragma once
// Merge ids of the undo commands (QUndoCommand::id()), in one place so that no two
// commands share one by accident. Commands with no id (-1) never merge.

namespace ts::gui {

enum UndoCommandId {
    ChangeScenarioValueId = 1, // repeated edits of the same fields merge into one step
    MoveTopologyNodesId = 2,   // the moves of one drag on the topology canvas
    ChangeTopologyNodeId = 3,  // repeated edits of one node's properties
    ChangeTopologyLinkId = 4,  // repeated edits of one link's properties
};

} // namespace ts::gui
