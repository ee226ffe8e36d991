#pragma once
// One row of a scenario editor: which key it edits (a JSON pointer), its label, and how the
// value is entered. Editors (ModelEditor, ClusterEditor, ...) are lists of these.

#include "ChangeScenarioValue.h"
#include "ScenarioDocument.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <functional>
#include <optional>
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
        Number,  // QLineEdit: empty = the key is not in the file (its default shows as
                 // placeholder); shown divided by `scale`
        Text,    // QLineEdit: a string; empty = the key is not in the file
    };
    Kind kind = Kind::Integer;
    std::string pointer;
    QString label;
    QString shortLabel; // in the undo history ("TP 8 → 4"); empty: `label`
    QString toolTip;
    double minimum = 0;
    double maximum = 1e9;
    int decimals = 0;
    double scale = 1; // Real: the value shown is value / scale (tokens in billions)
    QString suffix;
    bool readOnly = false; // computed by the resolver (dp), shown but not edited
    // A reset button while the file sets the key: removing it brings back the preset's or
    // the format's default. False for the keys the format requires.
    bool resettable = true;
    // Integer/Real/Flag: editable while no value is in effect (the key is written with the
    // objects around it). False where the key cannot be written alone (a dense model's
    // MoE keys); such a field is disabled and shows no value. Number and Text always are.
    bool settable = false;
    // Number/Text: shown while the file leaves the key out; null: the value in effect, else
    // "not set".
    std::function<QString()> placeholder;
    std::vector<FieldChoice> choices;
    // Computed again on every change (valid degrees depend on the model and cluster).
    std::function<std::vector<FieldChoice>()> dynamicChoices;
    // The edit for a new value; default: set `pointer` to it.
    std::function<std::vector<ScenarioValueChange>(const nlohmann::ordered_json&)> changes;
    // The value shown, when it is not the key's value in effect (dp: derived from the GPU
    // count and the degrees as they now stand, even while the scenario has errors).
    std::function<std::optional<nlohmann::ordered_json>()> shownValue;
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

// The edit that removes `pointer` from the file, together with the objects around it that
// would be left empty (the inverse of changeCreatingObjects), so that setting a key and
// resetting it leaves the file as it was. A required section ("/model") always stays.
inline std::vector<ScenarioValueChange> changeRemovingKey(const ScenarioDocument& document,
                                                          const std::string& pointer) {
    using Json = nlohmann::ordered_json;
    if (!document.explicitValue(pointer))
        return {};
    Json::json_pointer at(pointer);
    while (!at.parent_pointer().empty()) {
        const Json::json_pointer parent = at.parent_pointer();
        const std::string name = parent.to_string();
        const bool required = name == "/model" || name == "/cluster" || name == "/training";
        const std::optional<Json> object = document.explicitValue(name);
        if (required || !object || !object->is_object() || object->size() != 1)
            break;
        at = parent;
    }
    return {{at.to_string(), std::nullopt}};
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

// A number the file may leave out (tokens, prices): typed, it is written; cleared, it goes.
inline FieldSpec numberField(std::string pointer, QString label, double minimum, double maximum,
                             QString toolTip = {}, double scale = 1) {
    FieldSpec f = integerField(std::move(pointer), std::move(label), minimum, maximum, {},
                               std::move(toolTip));
    f.kind = FieldSpec::Kind::Number;
    f.scale = scale;
    f.settable = true;
    return f;
}

inline FieldSpec textField(std::string pointer, QString label, QString toolTip = {}) {
    FieldSpec f;
    f.kind = FieldSpec::Kind::Text;
    f.pointer = std::move(pointer);
    f.label = std::move(label);
    f.toolTip = std::move(toolTip);
    f.settable = true;
    return f;
}

// A key the format requires: no reset.
inline FieldSpec required(FieldSpec f) {
    f.resettable = false;
    return f;
}

// A key that can be set while nothing is in effect (no preset value, no default).
inline FieldSpec settable(FieldSpec f) {
    f.settable = true;
    return f;
}

} // namespace ts::gui
