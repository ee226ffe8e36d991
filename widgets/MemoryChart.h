#pragma once
// Memory per pipeline stage: weights, gradients, optimizer states, activations,
// communication buffers and framework overhead as stacked bars, against the GPU's capacity.

#include "EstimateChart.h"

namespace ts::gui {

class MemoryChart : public EstimateChart {
    Q_OBJECT
public:
    using EstimateChart::EstimateChart;

protected:
    void draw(const Estimate& estimate, const ResolvedScenario& scenario) override;
    QString chartTitle() const override;
};

} // namespace ts::gui
