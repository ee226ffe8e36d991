#pragma once
// Where a step's time goes: compute, recomputation, exposed communication per parallel
// dimension, the pipeline bubble, the optimizer and offload, as horizontal bars in seconds.

#include "EstimateChart.h"

namespace ts::gui {

class StepTimeChart : public EstimateChart {
    Q_OBJECT
public:
    using EstimateChart::EstimateChart;

protected:
    void draw(const Estimate& estimate, const ResolvedScenario& scenario) override;
    QString chartTitle() const override;
};

} // namespace ts::gui
