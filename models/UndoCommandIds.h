#pragma once
// Merge ids of the undo commands (QUndoCommand::id()), in one place so that no two
// commands share one by accident. Commands with no id (-1) never merge.

namespace ts::gui {

enum UndoCommandId {
    ChangeScenarioValueId = 1, // repeated edits of the same fields merge into one step
};

} // namespace ts::gui
