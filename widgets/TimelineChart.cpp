#include "TimelineChart.h"

#include "QuantityText.h"

#include <qcustomplot.h>

namespace ts::gui {

QString TimelineChart::chartTitle() const {
    return tr("Pipeline schedule (one step)");
}

QString TimelineChart::opName(TimelineOp op) const {
    switch (op) {
    case TimelineOp::Forward:
        return tr("forward");
    case TimelineOp::Backward:
        return tr("backward");
    case TimelineOp::BackwardInput:
        return tr("backward (input gradients)");
    case TimelineOp::BackwardWeight:
        return tr("backward (weight gradients)");
    case TimelineOp::Communication:
        return tr("gradient reduction");
    case TimelineOp::Optimizer:
        return tr("optimizer step");
    }
    return {};
}

void TimelineChart::draw(const Estimate& estimate, const ResolvedScenario& scenario) {
    QCustomPlot* p = plot();
    const int ranks = std::max(1, scenario.parallel.pp);
    const double rowHeight = 0.7;
    double end = estimate.stepSeconds;
    const int drawn = std::min<int>(int(estimate.timeline.size()), kMaxDrawnEvents);
    for (int i = 0; i < drawn; ++i) {
        const TimelineEvent& e = estimate.timeline[std::size_t(i)];
        end = std::max(end, e.endS);
        // Rank 0 at the top, as pipeline diagrams are drawn.
        const double row = ranks - 1 - e.stage;
        auto* box = new QCPItemRect(p);
        box->topLeft->setCoords(e.startS, row + rowHeight / 2);
        box->bottomRight->setCoords(e.endS, row - rowHeight / 2);
        QColor color = seriesColor(int(e.op));
        // Later virtual chunks a shade darker, so that interleaving is visible.
        color = color.darker(100 + 18 * (e.chunk % 4));
        box->setBrush(color);
        box->setPen(QPen(palette().color(QPalette::Base), 0.5));
        box->setSelectable(false);
        QString what = opName(e.op);
        if (e.microbatch >= 0)
            what = tr("%1 of micro-batch %2").arg(what).arg(e.microbatch);
        if (scenario.parallel.vpp > 1)
            what = tr("%1, chunk %2").arg(what).arg(e.chunk);
        addHover(QRectF(e.startS, row - rowHeight / 2, e.endS - e.startS, rowHeight),
                 tr("Stage %1 · %2\n%3 → %4 (%5)")
                     .arg(e.stage)
                     .arg(what, secondsText(e.startS), secondsText(e.endS),
                          secondsText(e.endS - e.startS)));
    }

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int step = ranks > 24 ? 4 : ranks > 8 ? 2 : 1;
    for (int r = 0; r < ranks; r += step)
        ticker->addTick(ranks - 1 - r, tr("stage %1").arg(r));
    p->yAxis->setTicker(ticker);
    p->yAxis->setRange(-0.6, ranks - 0.4);
    p->yAxis->grid()->setVisible(false);
    p->xAxis->setRange(0, end * 1.01);
    QString label = tr("Seconds");
    if (estimate.timelineMicrobatches > 0 && estimate.timelineMicrobatches < estimate.microbatches)
        label = tr("Seconds (the first %1 of %2 micro-batches are simulated; the rest repeat "
                   "the steady state)")
                    .arg(estimate.timelineMicrobatches)
                    .arg(estimate.microbatches);
    if (drawn < int(estimate.timeline.size()))
        label += tr(" · first %1 of %2 operations drawn").arg(drawn).arg(estimate.timeline.size());
    p->xAxis->setLabel(label);

    // The legend: one entry per kind of operation present.
    std::vector<bool> present(6, false);
    for (int i = 0; i < drawn; ++i)
        present[std::size_t(estimate.timeline[std::size_t(i)].op)] = true;
    for (int op = 0; op < 6; ++op) {
        if (!present[std::size_t(op)])
            continue;
        auto* swatch = new QCPBars(p->xAxis, p->yAxis); // legend entry only: no data
        swatch->setName(opName(TimelineOp(op)));
        swatch->setBrush(seriesColor(op));
        swatch->setPen(Qt::NoPen);
    }
    placeLegendBelow(6);
    p->setNotAntialiasedElements(QCP::aeItems);
    // Hundreds of micro-batches make thin boxes: the time axis zooms (wheel) and pans (drag).
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeDrag(Qt::Horizontal);
    p->axisRect()->setRangeZoom(Qt::Horizontal);
}

} // namespace ts::gui
