#pragma once
// One open scenario, as written (ts::Scenario, so that saving loses nothing), with its undo
// stack. Views never change the scenario themselves: they ask the document for an edit,
// which becomes an undo command (ChangeScenarioValue); every change ends in one `changed()`
// signal, after which scenario(), resolved() and diagnostics() are current.

#include "common/Diagnostics.h"
#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

#include "ChangeScenarioValue.h"

#include <nlohmann/json.hpp>

#include <QObject>
#include <QString>

#include <optional>
#include <string>
#include <vector>

class QUndoStack;

namespace ts::gui {

class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);
    ~ScenarioDocument() override;

    // Replaces the whole scenario (a new document from an example, or after reading a file)
    // and clears the undo stack. A document with no file counts as unsaved work unless
    // `unsaved` says otherwise (an empty placeholder).
    void reset(const Scenario& scenario, const QString& filePath = {});
    void reset(const Scenario& scenario, const QString& filePath, bool unsaved);
    // Reads `path`; on failure the document is unchanged and `diags` says why.
    bool load(const QString& path, Diagnostics& diags);
    // Writes atomically (temporary file, then rename); marks the document clean.
    bool save(const QString& path, QString* error);

    const Scenario& scenario() const { return scenario_; }
    const std::optional<ResolvedScenario>& resolved() const { return resolved_; }
    // The last scenario that resolved, for showing inherited values while an edit is invalid.
    const std::optional<ResolvedScenario>& lastResolved() const { return lastResolved_; }
    // The reader's and the resolver's messages for the current scenario.
    const Diagnostics& diagnostics() const { return diagnostics_; }
    // The first error at `pointer` or below it, or on the object holding it when that is
    // not a whole section ("/model/moe" marks "/model/moe/experts"; "/parallelism" marks
    // nothing); empty when there is none. Looks at the resolver's and the estimator's.
    QString errorAt(const std::string& pointer) const;
    // The estimator's messages for the current scenario (cleared by every change).
    void setEstimateDiagnostics(const Diagnostics& diags);

    QUndoStack* undoStack() const { return undoStack_; }
    QString filePath() const { return filePath_; }
    bool isModified() const;
    // The scenario's name while it still describes the scenario: a name from the file gives
    // way to the headline derived from the scenario (ScenarioHeadline) once the model, the
    // GPUs or the plan change; a name the user gave stays. Without a name: the headline,
    // else the file's name, else "Untitled".
    QString displayName() const;
    // A short file name for Save As: the file's, else `suggestedStem` (an example's), else
    // one made from the model and cluster ("llama3-70b-64xh100.json").
    QString suggestedFileName() const;
    void setSuggestedStem(const QString& stem) { suggestedStem_ = stem; }

    // Asks for an edit. Returns false, and emits editRefused(), when the result would not
    // be a readable scenario (a value of the wrong type or out of range); then nothing
    // changes. Values equal to the current ones push nothing.
    bool setValue(const std::string& pointer, std::optional<nlohmann::ordered_json> value,
                  const QString& text);
    bool setValues(std::vector<ScenarioValueChange> changes, const QString& text,
                   bool mergeable = true);

    // The key as written (nullopt: absent), and as in effect (written, else resolved).
    std::optional<nlohmann::ordered_json> explicitValue(const std::string& pointer) const;
    std::optional<nlohmann::ordered_json> effectiveValue(const std::string& pointer) const;
    // The value in effect in the last scenario that resolved.
    std::optional<nlohmann::ordered_json> resolvedValue(const std::string& pointer) const;

    // The scenario as it would be after `changes` (nullopt, with the reader's errors in
    // `diags`, when it would not be readable). Changes nothing.
    std::optional<Scenario> withChanges(const std::vector<ScenarioValueChange>& changes,
                                        Diagnostics& diags) const;

    // For the undo commands only.
    void applyValue(const ScenarioValueChange& change);
    void notifyChanged();

signals:
    void changed();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void editRefused(const QString& pointer, const QString& message);
    void validityChanged(); // errorAt() answers differently (the estimator has spoken)

private:
    void refresh();

    Scenario scenario_;
    std::optional<ResolvedScenario> resolved_;
    std::optional<ResolvedScenario> lastResolved_;
    nlohmann::ordered_json resolvedJson_;
    Diagnostics diagnostics_;
    Diagnostics estimateDiagnostics_;
    QString filePath_;
    QString suggestedStem_;
    // As read: the file's name and the headline of the scenario it described.
    std::optional<std::string> nameAtReset_;
    QString headlineAtReset_;
    QUndoStack* undoStack_;
};

} // namespace ts::gui
