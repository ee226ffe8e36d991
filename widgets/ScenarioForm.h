#pragma once
// A form of scenario fields bound to the document: each row shows the value in effect (in
// italics when it comes from a preset or a default rather than the file), sends every
// edit to the document as an undo command, and turns red, with core's message as its
// tooltip, when the resolver reports an error at the row's JSON pointer or below it.
// Every optional key can be set (a field with no value in effect stays editable when its
// spec says so) and reset: a reset button beside a key the file sets removes it again.

#include "FieldSpec.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QAbstractButton;
class QFormLayout;
class QLabel;

namespace ts::gui {

class ScenarioDocument;

class ScenarioForm : public QWidget {
    Q_OBJECT
public:
    using SpecList = std::function<std::vector<FieldSpec>()>;
    ScenarioForm(ScenarioDocument* document, SpecList specs, QWidget* parent = nullptr);

    QWidget* field(const std::string& pointer) const;
    bool isFieldInvalid(const std::string& pointer) const;
    QString fieldError(const std::string& pointer) const;
    bool isFieldInherited(const std::string& pointer) const;
    // The button that removes the key from the file (hidden while the file leaves it out).
    QAbstractButton* resetButton(const std::string& pointer) const;
    // The text one value has in this form ("8", "Selective", "1.5 B"); "default" for none.
    QString valueText(const std::string& pointer,
                      const std::optional<nlohmann::ordered_json>& value) const;

    // Shows every value in effect and its validity again.
    void refresh();

    // A field in error: `base` mixed towards red (reads as red on light and dark themes).
    static QPalette invalidPalette(const QPalette& base);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row {
        FieldSpec spec;
        QLabel* label = nullptr;
        QWidget* editor = nullptr;
        QAbstractButton* reset = nullptr;
        QString refusal; // the reader's refusal of the last edit, until the next change
    };

    void rebuild();
    void retranslate();
    QWidget* createEditor(Row& row);
    QWidget* createLineEditor(Row& row);
    QWidget* withResetButton(Row& row);
    void commit(const std::string& pointer, const std::optional<nlohmann::ordered_json>& value);
    void commitText(const std::string& pointer, const QString& text);
    void showLineValue(Row& row, const std::optional<nlohmann::ordered_json>& value);
    void showValue(Row& row);
    void showValidity(Row& row);
    Row* rowFor(const std::string& pointer);
    const Row* rowFor(const std::string& pointer) const;

    ScenarioDocument* document_;
    SpecList specs_;
    QFormLayout* layout_;
    std::vector<Row> rows_;
};

} // namespace ts::gui
