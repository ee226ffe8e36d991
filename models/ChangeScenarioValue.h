#pragma once
// The generic property edit (Tiled's ChangeValue): sets one or more values of the scenario,
// each named by its JSON pointer ("/parallelism/tp"). An absent value removes the key, so
// that "back to the preset's value" is an edit like any other. Consecutive edits of the
// same set of fields merge into one undo step (a spin box stepped five times is one edit).

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
};

} // namespace ts::gui
