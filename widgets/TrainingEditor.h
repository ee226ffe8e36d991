#pragma once
// The Training dock: sequence length, batch sizes, precision and FP8 scaling recipe,
// optimizer, tokens to train.

#include <QWidget>

namespace ts::gui {

class ScenarioDocument;
class ScenarioForm;

class TrainingEditor : public QWidget {
    Q_OBJECT
public:
    explicit TrainingEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    ScenarioForm* form() const { return form_; }

private:
    ScenarioForm* form_;
};

} // namespace ts::gui
