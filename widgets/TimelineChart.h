#pragma once
// The pipeline schedule as a Gantt chart: one row per pipeline rank, one box per forward,
// backward, communication and optimizer operation of the schedule simulation.

#include "EstimateChart.h"

namespace ts::gui {

class TimelineChart : public EstimateChart {
    Q_OBJECT
public:
    using EstimateChart::EstimateChart;

    // The schedule operations the estimator should simulate before its steady-state
    // shortcut (EstimatorSettings::maxScheduleEvents), so that the chart shows every
    // micro-batch of most plans; and above how many the chart draws the first ones only
    // (the simulation may overrun its budget by one round of the schedule).
    static constexpr int kScheduleEvents = 12000;
    static constexpr int kMaxDrawnEvents = 16000;

protected:
    void draw(const Estimate& estimate, const ResolvedScenario& scenario) override;
    QString chartTitle() const override;

private:
    QString opName(TimelineOp op) const;
};

} // namespace ts::gui
