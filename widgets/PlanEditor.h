#pragma once
// The Parallel plan dock: degrees (only valid ones are enabled; a disabled one says why),
// CP communication and hybrid sharding, sequence parallelism, ZeRO, recomputation,
// offload, the pipeline schedule and overlap.

#include <QWidget>

namespace ts::gui {

class ScenarioDocument;
class ScenarioForm;

class PlanEditor : public QWidget {
    Q_OBJECT
public:
    explicit PlanEditor(ScenarioDocument* document, QWidget* parent = nullptr);
    ScenarioForm* form() const { return form_; }

private:
    ScenarioForm* form_;
};

} // namespace ts::gui
