#pragma once
// The results dashboard: the run's totals (RunCostCards) over the charts of one estimate —
// memory per stage against capacity, the step-time breakdown, communication by dimension
// and by link class, the pipeline schedule as a Gantt chart, and the facility's power over
// the step with the step's energy by consumer; and "why": what bounds the step and which
// edits would change it most (ExplainCard).

#include "estimate/Estimate.h"
#include "estimate/Explain.h"
#include "scenario/ResolvedScenario.h"

#include <QWidget>

#include <vector>

namespace ts::gui {

class CommunicationChart;
class EstimateChart;
class ExplainCard;
class MemoryChart;
class PowerChart;
class RunCostCards;
class StepTimeChart;
class TimelineChart;

class ResultsDashboard : public QWidget {
    Q_OBJECT
public:
    explicit ResultsDashboard(QWidget* parent = nullptr);

    // nullptr: no estimate, for `reason`.
    void setEstimate(const Estimate* estimate, const ResolvedScenario* scenario,
                     const QString& reason = {});

    // Why the step is what it is; nullptr while there is none (for `reason`).
    void setExplanation(const Explanation* explanation, const QString& reason = {});

    RunCostCards* runCostCards() const { return runCostCards_; }
    ExplainCard* explainCard() const { return explain_; }
    MemoryChart* memoryChart() const { return memory_; }
    StepTimeChart* stepTimeChart() const { return stepTime_; }
    TimelineChart* timelineChart() const { return timeline_; }
    CommunicationChart* dimensionChart() const { return byDimension_; }
    CommunicationChart* linkChart() const { return byLink_; }
    PowerChart* powerChart() const { return power_; }
    std::vector<EstimateChart*> charts() const;

private:
    RunCostCards* runCostCards_;
    ExplainCard* explain_;
    MemoryChart* memory_;
    StepTimeChart* stepTime_;
    TimelineChart* timeline_;
    CommunicationChart* byDimension_;
    CommunicationChart* byLink_;
    PowerChart* power_;
};

} // namespace ts::gui
