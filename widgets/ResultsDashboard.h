#pragma once
// The results dashboard: the run's totals (RunCostCards) over the charts of one estimate —
// memory per stage against capacity, the step-time breakdown, communication by dimension
// and by link class, the pipeline schedule as a Gantt chart, and the facility's power over
// the step with the step's energy by consumer; and "why": what bounds the step and which
// edits would change it most (ExplainCard). Where the three bottom charts do not fit side
// by side in the width the dashboard is shown in (a 1024-pixel window), the power chart
// moves to a row of its own, so that nothing needs a sideways scroll.

#include "estimate/Estimate.h"
#include "estimate/Explain.h"
#include "scenario/ResolvedScenario.h"

#include <QPointer>
#include <QWidget>

#include <vector>

class QGridLayout;
class QHBoxLayout;

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
    // Whether the power chart shares the bottom row with the communication charts.
    bool powerBesideCommunication() const { return powerBeside_; }

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Places the power chart beside the communication charts when `width` holds all three.
    void reflow(int width);

    QGridLayout* grid_ = nullptr;
    QHBoxLayout* bottom_ = nullptr;
    QPointer<QWidget> watchedParent_; // the scroll area's viewport, whose width decides
    bool powerBeside_ = true;
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
