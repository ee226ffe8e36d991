#pragma once
// The generic property edit (Tiled's ChangeValue): sets one or more values of the scenario,
// each named by its JSON pointer ("/parallelism/tp"). An absent value removes the key, so
// that "back to the preset's value" is an edit like any other. Edits of the same set of
// fields merge into one undo step only when they follow each other within kMergeWindowMs
// (a spin box's arrow held down, a value typed in one go); two deliberate edits of one
// field are two steps.

#include <nlohmann/json.hpp>

#include <QUndoCommand>

#include <optional>
#include <string>
#include <vector>

namespace ts::gui {

class ScenarioDocument;

struct ScenarioValueChange {
    std::string pointer;
    std::optional<nlohmann::ordered_json> value; // nullopt: remove the key
};

class ChangeScenarioValue : public QUndoCommand {
public:
    static constexpr qint64 kMergeWindowMs = 500;

    // `mergeable`: false for edits that must stay their own step (an import, a preset).
    ChangeScenarioValue(ScenarioDocument* document, std::vector<ScenarioValueChange> changes,
                        const QString& text, bool mergeable = true);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    ScenarioDocument* document_;
    std::vector<ScenarioValueChange> before_;
    std::vector<ScenarioValueChange> after_;
    bool mergeable_;
    qint64 lastEditMs_; // when the latest edit merged into this step was made
};

} // namespace ts::gui
