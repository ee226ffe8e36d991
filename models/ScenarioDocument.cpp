#include "ScenarioDocument.h"

#include "CoreMessages.h"
#include "ResolvedScenarioJson.h"
#include "ScenarioHeadline.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioPaths.h"
#include "scenario/ScenarioResolver.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>

namespace ts::gui {

namespace {

using Json = nlohmann::ordered_json;

std::optional<Json> valueAtPointer(const Json& doc, const std::string& pointer) {
    try {
        const Json::json_pointer ptr(pointer);
        if (doc.contains(ptr))
            return doc.at(ptr);
    } catch (const Json::exception&) {
        // An ill-formed pointer names nothing.
    }
    return std::nullopt;
}

// Sets or removes one key; false when the pointer cannot be applied to this document.
bool applyToJson(Json& doc, const ScenarioValueChange& change) {
    try {
        const Json::json_pointer ptr(change.pointer);
        if (change.value) {
            doc[ptr] = *change.value;
        } else if (doc.contains(ptr)) {
            Json& parent = doc.at(ptr.parent_pointer());
            if (parent.is_object())
                parent.erase(ptr.back());
        }
        return true;
    } catch (const Json::exception&) {
        return false;
    }
}

} // namespace

ScenarioDocument::ScenarioDocument(QObject* parent)
    : QObject(parent), undoStack_(new QUndoStack(this)) {
    connect(undoStack_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    refresh();
}

ScenarioDocument::~ScenarioDocument() = default;

void ScenarioDocument::reset(const Scenario& scenario, const QString& filePath) {
    reset(scenario, filePath, filePath.isEmpty());
}

void ScenarioDocument::reset(const Scenario& scenario, const QString& filePath, bool unsaved) {
    const bool wasModified = isModified();
    undoStack_->clear();
    scenario_ = scenario;
    lastResolved_.reset();
    resolvedJson_ = Json::object(); // nothing of the previous document shows through
    suggestedStem_.clear();
    if (filePath_ != filePath) {
        filePath_ = filePath;
        emit filePathChanged(filePath_);
    }
    if (unsaved)
        undoStack_->resetClean();
    refresh();
    nameAtReset_ = scenario_.name;
    headlineAtReset_ = resolved_ ? ScenarioHeadline::of(*resolved_) : QString();
    if (wasModified != isModified())
        emit modifiedChanged(isModified());
    emit changed();
}

bool ScenarioDocument::load(const QString& path, Diagnostics& diags) {
    std::optional<Scenario> scenario =
        loadScenarioFile(QFile::encodeName(path).toStdString(), diags);
    if (!scenario)
        return false;
    reset(*scenario, path);
    return true;
}

bool ScenarioDocument::save(const QString& path, QString* error) {
    std::string message;
    if (!saveScenarioFile(QFile::encodeName(path).toStdString(), scenario_, message)) {
        if (error)
            *error = QString::fromStdString(message);
        return false;
    }
    if (filePath_ != path) {
        filePath_ = path;
        emit filePathChanged(filePath_);
        refresh(); // relative paths inside the scenario now start from the new folder
    }
    undoStack_->setClean();
    emit changed(); // the title and the name shown may follow the file name
    return true;
}

bool ScenarioDocument::isModified() const {
    return !undoStack_->isClean();
}

QString ScenarioDocument::displayName() const {
    const QString headline = resolved_ ? ScenarioHeadline::of(*resolved_) : QString();
    if (scenario_.name && !scenario_.name->empty()) {
        const bool renamed = scenario_.name != nameAtReset_;
        if (renamed || headline.isEmpty() || headline == headlineAtReset_)
            return QString::fromStdString(*scenario_.name);
        return headline; // the file's name described the scenario before the edits
    }
    if (!headline.isEmpty())
        return headline;
    if (!filePath_.isEmpty())
        return QFileInfo(filePath_).completeBaseName();
    return QCoreApplication::translate("ts::gui::ScenarioDocument", "Untitled");
}

QString ScenarioDocument::suggestedFileName() const {
    if (!filePath_.isEmpty())
        return QFileInfo(filePath_).fileName();
    if (!suggestedStem_.isEmpty())
        return suggestedStem_ + QStringLiteral(".json");
    if (lastResolved_)
        return ScenarioHeadline::fileStem(*lastResolved_) + QStringLiteral(".json");
    return QStringLiteral("scenario.json");
}

QString ScenarioDocument::errorAt(const std::string& pointer) const {
    auto within = [](const std::string& path, const std::string& prefix) {
        return path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
               path[prefix.size()] == '/';
    };
    for (const Diagnostics* diags : {&diagnostics_, &estimateDiagnostics_}) {
        for (const Diagnostic& d : diags->all()) {
            if (d.severity != Severity::Error || d.path.empty())
                continue;
            const bool isSection = d.path.find('/', 1) == std::string::npos;
            if (d.path == pointer || within(d.path, pointer) ||
                (!isSection && within(pointer, d.path)))
                return diagnosticText(d);
        }
    }
    return {};
}

void ScenarioDocument::setEstimateDiagnostics(const Diagnostics& diags) {
    estimateDiagnostics_ = diags;
    emit validityChanged();
}

bool ScenarioDocument::setValue(const std::string& pointer,
                                std::optional<nlohmann::ordered_json> value, const QString& text) {
    return setValues({{pointer, std::move(value)}}, text);
}

bool ScenarioDocument::setValues(std::vector<ScenarioValueChange> changes, const QString& text,
                                 bool mergeable) {
    // Nothing to do when every value is already as asked.
    bool different = false;
    for (const ScenarioValueChange& change : changes)
        different = different || explicitValue(change.pointer) != change.value;
    if (!different)
        return true;

    // The reader decides whether the edited document is still a scenario.
    Diagnostics diags;
    if (!withChanges(changes, diags) || diags.hasErrors()) {
        const std::vector<Diagnostic> errors = diags.errors();
        const Diagnostic first = errors.empty() ? Diagnostic{} : errors.front();
        emit editRefused(
            QString::fromStdString(first.path.empty() ? changes.front().pointer : first.path),
            diagnosticText(first));
        return false;
    }
    undoStack_->push(new ChangeScenarioValue(this, std::move(changes), text, mergeable));
    return true;
}

std::optional<Scenario>
ScenarioDocument::withChanges(const std::vector<ScenarioValueChange>& changes,
                              Diagnostics& diags) const {
    Json doc = scenarioToJson(scenario_);
    for (const ScenarioValueChange& change : changes) {
        if (!applyToJson(doc, change)) {
            diags.error(change.pointer, "not a field of the scenario");
            return std::nullopt;
        }
    }
    return scenarioFromJson(doc, diags);
}

std::optional<nlohmann::ordered_json>
ScenarioDocument::explicitValue(const std::string& pointer) const {
    return valueAtPointer(scenarioToJson(scenario_), pointer);
}

std::optional<nlohmann::ordered_json>
ScenarioDocument::effectiveValue(const std::string& pointer) const {
    if (std::optional<Json> value = explicitValue(pointer))
        return value;
    return valueAtPointer(resolvedJson_, pointer);
}

std::optional<nlohmann::ordered_json>
ScenarioDocument::resolvedValue(const std::string& pointer) const {
    return valueAtPointer(resolvedJson_, pointer);
}

void ScenarioDocument::applyValue(const ScenarioValueChange& change) {
    Json doc = scenarioToJson(scenario_);
    if (!applyToJson(doc, change))
        return;
    Diagnostics diags;
    if (std::optional<Scenario> scenario = scenarioFromJson(doc, diags))
        scenario_ = std::move(*scenario);
}

void ScenarioDocument::notifyChanged() {
    refresh();
    emit changed();
}

void ScenarioDocument::refresh() {
    diagnostics_ = Diagnostics();
    estimateDiagnostics_ = Diagnostics();
    // Paths inside the scenario (costs.carbon_csv) are relative to its file, as in the CLI.
    resolved_ =
        resolveScenario(withPathsBesideFile(scenario_, QFile::encodeName(filePath_).toStdString()),
                        Catalog::builtIn(), diagnostics_);
    if (diagnostics_.hasErrors())
        resolved_.reset();
    if (resolved_) {
        lastResolved_ = resolved_;
        resolvedJson_ = resolvedScenarioJson(*resolved_);
    }
}

} // namespace ts::gui
