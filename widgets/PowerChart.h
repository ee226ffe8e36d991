#pragma once
// The energy model's view of one step: the cluster's facility power (IT x PUE) over the step
// as a step-shaped line in kW, its average, and the step's energy split by consumer (GPUs,
// hosts, network, cooling) as a stacked bar with kWh and shares. When the schedule
// simulation ran a shortened step, a caption says that the trace covers that part only.

#include "EstimateChart.h"

class QCPAxisRect;
class QCPLegend;
class QCPTextElement;

namespace ts::gui {

class PowerChart : public EstimateChart {
    Q_OBJECT
public:
    explicit PowerChart(QWidget* parent = nullptr);

    // The caption under the trace ("" when the trace covers the whole step) and the energy
    // split's text, as drawn; for tests.
    QString captionText() const;
    QString energyText() const;
    // The tooltip of the energy bar at `joules` from its left end; empty: nothing there.
    QString energyHoverTextAt(double joules) const;

protected:
    void draw(const Estimate& estimate, const ResolvedScenario& scenario) override;
    QString chartTitle() const override;

private:
    void ensureLayout();
    void setCaption(const QString& text);
    void showEnergyHover(QMouseEvent* event);

    QCPTextElement* caption_ = nullptr;
    QCPAxisRect* energyRect_ = nullptr;
    QCPLegend* energyLegend_ = nullptr;
    struct Segment {
        double from = 0;
        double to = 0;
        QString text;
    };
    std::vector<Segment> segments_;
    QString energyText_;
};

} // namespace ts::gui
