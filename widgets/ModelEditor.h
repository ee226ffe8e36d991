#pragma once
// The Model dock: a preset from the catalog, the architecture fields, and the import of a
// Hugging Face config.json (one undoable step).

#include <QWidget>

class QPushButton;

namespace ts::gui {

class ScenarioDocument;
class ScenarioForm;

class ModelEditor : public QWidget {
    Q_OBJECT
public:
    explicit ModelEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    ScenarioForm* form() const { return form_; }

    // Replaces the model by the architecture of a config.json. Returns false, with the
    // reason in `error`, when the file cannot be read as one.
    bool importHuggingFaceConfig(const QString& path, QString* error = nullptr);
    // Asks for a config.json and imports it (Model ▸ Import Hugging Face config.json…).
    void importFromDialog();

protected:
    void changeEvent(QEvent* event) override;

private:
    ScenarioDocument* document_;
    ScenarioForm* form_;
    QPushButton* importButton_;
};

} // namespace ts::gui
