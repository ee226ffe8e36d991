#pragma once
// The Costs dock: the price of a GPU-hour or the capital of an owned cluster, electricity,
// PUE, grid carbon (a figure or an hourly CSV) and the power figures of the energy model
// (scenario "costs"). Every key is optional: a field the file leaves out shows the figure
// the resolver assumes, as placeholder; typed, it is written; cleared or reset, it goes.

#include <QWidget>

namespace ts::gui {

class ScenarioDocument;
class ScenarioForm;

class CostsEditor : public QWidget {
    Q_OBJECT
public:
    explicit CostsEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    ScenarioForm* form() const { return form_; }

private:
    void chooseCarbonCsv();

    ScenarioDocument* document_;
    ScenarioForm* form_;
};

} // namespace ts::gui
