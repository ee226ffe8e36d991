#pragma once
// The Cluster dock: cluster and GPU presets, GPU counts, scale-up and scale-out networks.

#include <QWidget>

namespace ts::gui {

class ScenarioDocument;
class ScenarioForm;

class ClusterEditor : public QWidget {
    Q_OBJECT
public:
    explicit ClusterEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    ScenarioForm* form() const { return form_; }

private:
    ScenarioForm* form_;
};

} // namespace ts::gui
