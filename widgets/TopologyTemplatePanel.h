#pragma once
// Templates of the topology canvas: a builder (NVSwitch domain, NVL72, rail-optimized and
// plain fat-tree, rail-only, torus, multi-datacenter) with its parameters; Apply draws its
// graph as one undo step and sets the cluster keys it implies (GraphTemplates.h).

#include "topology/GraphTemplates.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace ts::gui {

class TopologyGraphModel;

class TopologyTemplatePanel : public QWidget {
    Q_OBJECT
public:
    explicit TopologyTemplatePanel(TopologyGraphModel* model, QWidget* parent = nullptr);
    GraphTemplateParams params() const;
    void setParams(const GraphTemplateParams& params);
    // Builds the template and applies it; false (the reason shown) when the builder refuses.
    bool apply();
    QString lastError() const;

private:
    void kindChanged();
    void loadFromCluster();

    TopologyGraphModel* model_;
    QComboBox* kind_;
    QSpinBox *gpus_, *domainGpus_, *gpusPerNode_, *nicsPerNode_, *radix_, *tiers_, *pods_;
    QDoubleSpinBox *nicGbit_, *oversubscription_, *wanGbit_, *wanLatency_;
    QLabel* error_;
    QPushButton* apply_;
};

} // namespace ts::gui
