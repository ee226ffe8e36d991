#pragma once
// One row of a scenario editor: which key it edits (a JSON pointer), its label, and how the
// value is entered. Editors (ModelEditor, ClusterEditor, ...) are lists of these.

#include "ChangeScenarioValue.h"
#include "ScenarioDocument.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ts::gui {

struct FieldChoice {
    FieldChoice(QString label_, nlohmann::ordered_json value_, bool enabled_ = true,
                QString toolTip_ = {})
        : label(std::move(label_)), value(std::move(value_)), enabled(enabled_),
          toolTip(std::move(toolTip_)) {}
    QString label;
    nlohmann::ordered_json value;
    bool enabled = true;
    QString toolTip;
};

struct FieldSpec {
    enum class Kind {
        Section, // a heading; no value
        Integer, // QSpinBox
        Real,    // QDoubleSpinBox; shown divided by `scale`
        Choice,  // QComboBox of `choices`
        Flag,    // QCheckBox
    };
    Kind kind = Kind::Integer;
    std::string pointer;
    QString label;
    QString toolTip;
    double minimum = 0;
    double maximum = 1e9;
    int decimals = 0;
    double scale = 1; // Real: the value shown is value / scale (tokens in billions)
    QString suffix;
    bool readOnly = false; // computed by the resolver (dp), shown but not edited
    std::vector<FieldChoice> choices;
    // Computed again on every change (valid degrees depend on the model and cluster).
    std::function<std::vector<FieldChoice>()> dynamicChoices;
    // The edit for a new value; default: set `pointer` to it.
    std::function<std::vector<ScenarioValueChange>(const nlohmann::ordered_json&)> changes;
    // Whether the field can be edited now (cp_comm needs cp > 1); null: whenever it has a value.
    std::function<bool()> enabledWhen;
};

// The edit that sets `pointer` to `value`, written at the outermost object the file lacks
// (the whole "offload" or "host" object), so that undoing it removes that object again
// rather than leaving an empty one. Re-choosing the value in effect writes nothing.
inline std::vector<ScenarioValueChange> changeCreatingObjects(const ScenarioDocument& document,
                                                              const std::string& pointer,
                                                              const nlohmann::ordered_json& value) {
    using Json = nlohmann::ordered_json;
    if (!document.explicitValue(pointer) && document.effectiveValue(pointer) == value)
        return {};
    Json::json_pointer at(pointer);
    Json written = value;
    while (!at.parent_pointer().empty() &&
           !document.explicitValue(at.parent_pointer().to_string())) {
        Json object = Json::object();
        object[at.back()] = std::move(written);
        written = std::move(object);
        at = at.parent_pointer();
    }
    return {{at.to_string(), std::move(written)}};
}

inline FieldSpec sectionField(QString label) {
    FieldSpec f;
    f.kind = FieldSpec::Kind::Section;
    f.label = std::move(label);
    return f;
}

inline FieldSpec integerField(std::string pointer, QString label, double minimum, double maximum,
                              QString suffix = {}, QString toolTip = {}) {
    FieldSpec f;
    f.kind = FieldSpec::Kind::Integer;
    f.pointer = std::move(pointer);
    f.label = std::move(label);
    f.minimum = minimum;
    f.maximum = maximum;
    f.suffix = std::move(suffix);
    f.toolTip = std::move(toolTip);
    return f;
}

inline FieldSpec realField(std::string pointer, QString label, double minimum, double maximum,
                           int decimals, QString suffix = {}, QString toolTip = {}) {
    FieldSpec f = integerField(std::move(pointer), std::move(label), minimum, maximum,
                               std::move(suffix), std::move(toolTip));
    f.kind = FieldSpec::Kind::Real;
    f.decimals = decimals;
    return f;
}

inline FieldSpec choiceField(std::string pointer, QString label, std::vector<FieldChoice> choices,
                             QString toolTip = {}) {
    FieldSpec f;
    f.kind = FieldSpec::Kind::Choice;
    f.pointer = std::move(pointer);
    f.label = std::move(label);
    f.choices = std::move(choices);
    f.toolTip = std::move(toolTip);
    return f;
}

inline FieldSpec flagField(std::string pointer, QString label, QString toolTip = {}) {
    FieldSpec f;
    f.kind = FieldSpec::Kind::Flag;
    f.pointer = std::move(pointer);
    f.label = std::move(label);
    f.toolTip = std::move(toolTip);
    return f;
}

} // namespace ts::gui
