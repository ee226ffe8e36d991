#include "StepTimeChart.h"

#include "QuantityText.h"

#include <qcustomplot.h>

namespace ts::gui {

QString StepTimeChart::chartTitle() const {
    return tr("Step time breakdown");
}

void StepTimeChart::draw(const Estimate& estimate, const ResolvedScenario&) {
    QCustomPlot* p = plot();
    const TimeBreakdown& t = estimate.time;
    const std::pair<QString, double> parts[] = {{tr("Compute"), t.compute},
                                                {tr("Recompute"), t.recompute},
                                                {tr("TP exposed"), t.tpExposed},
                                                {tr("CP exposed"), t.cpExposed},
                                                {tr("EP exposed"), t.epExposed},
                                                {tr("PP exposed"), t.ppExposed},
                                                {tr("Pipeline bubble"), t.pipelineBubble},
                                                {tr("DP exposed"), t.dpExposed},
                                                {tr("Optimizer"), t.optimizer},
                                                {tr("Offload exposed"), t.offloadExposed}};
    // Top to bottom in the order above: keys count down.
    const int n = int(std::size(parts));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    auto* bars = new QCPBars(p->yAxis, p->xAxis);
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    double longest = 0;
    for (int i = 0; i < n; ++i) {
        const double key = n - 1 - i;
        ticker->addTick(key, parts[i].first);
        bars->addData(key, parts[i].second);
        longest = std::max(longest, parts[i].second);
        const double share = estimate.stepSeconds > 0 ? parts[i].second / estimate.stepSeconds : 0;
        addHover(QRectF(key - 0.35, 0, 0.7, std::max(parts[i].second, 1e-12)),
                 tr("%1: %2 (%3 of the step)")
                     .arg(parts[i].first, secondsText(parts[i].second), percentText(share)));
    }
    bars->setBrush(seriesColor(0));
    p->yAxis->setTicker(ticker);
    p->yAxis->setRange(-0.6, n - 0.4);
    p->yAxis->grid()->setVisible(false);
    p->xAxis->setLabel(tr("Seconds per step (total %1)").arg(secondsText(estimate.stepSeconds)));
    p->xAxis->setRange(0, std::max(longest, 1e-9) * 1.1);
    p->legend->setVisible(false);
}

} // namespace ts::gui
