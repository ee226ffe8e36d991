#pragma once
// Bytes moved per step: per GPU by parallel dimension (TP, CP, EP, PP, DP), or over the
// whole cluster by link class (scale-up domain, scale-out network).

#include "EstimateChart.h"

namespace ts::gui {

class CommunicationChart : public EstimateChart {
    Q_OBJECT
public:
    enum class View { ByDimension, ByLinkClass };
    explicit CommunicationChart(View view, QWidget* parent = nullptr);

protected:
    void draw(const Estimate& estimate, const ResolvedScenario& scenario) override;
    QString chartTitle() const override;

private:
    View view_;
};

} // namespace ts::gui
