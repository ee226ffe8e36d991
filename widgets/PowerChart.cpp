#include "PowerChart.h"

#include "QuantityText.h"

#include <qcustomplot.h>

#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>

namespace ts::gui {

namespace {
constexpr double kJoulesPerKwh = 3.6e6;
constexpr int kEnergyBarHeight = 18;
} // namespace

PowerChart::PowerChart(QWidget* parent) : EstimateChart(parent) {
    // After the base class's hover handler, so that the energy bar's tooltip wins there.
    connect(plot(), &QCustomPlot::mouseMove, this, &PowerChart::showEnergyHover);
}

QString PowerChart::chartTitle() const {
    return tr("Facility power over one step");
}

QString PowerChart::captionText() const {
    return caption_ ? caption_->text() : QString();
}

QString PowerChart::energyText() const {
    return energyText_;
}

QString PowerChart::energyHoverTextAt(double joules) const {
    for (const Segment& s : segments_)
        if (joules >= s.from && joules <= s.to)
            return s.text;
    return {};
}

void PowerChart::ensureLayout() {
    if (energyRect_)
        return;
    QCustomPlot* p = plot();
    QCPLayoutGrid* layout = p->plotLayout();
    // Under the trace: the energy bar, then its legend (and between the trace and the bar,
    // the caption when there is one: setCaption()).
    energyRect_ = new QCPAxisRect(p);
    energyRect_->setMinimumSize(0, kEnergyBarHeight);
    energyRect_->setMaximumSize(QWIDGETSIZE_MAX, kEnergyBarHeight);
    energyRect_->setAutoMargins(QCP::msLeft | QCP::msRight);
    energyRect_->setMargins(QMargins(0, 4, 0, 0));
    for (QCPAxis* axis : energyRect_->axes())
        axis->setVisible(false);
    layout->addElement(1, 0, energyRect_);
    auto* group = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    energyRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    QCPLegend* legend = p->legend;
    if (legend->layout() == p->axisRect()->insetLayout())
        p->axisRect()->insetLayout()->take(legend);
    layout->addElement(2, 0, legend);
    legend->setMargins(QMargins(4, 2, 4, 2));
    layout->setRowSpacing(0);
    layout->setRowStretchFactor(0, 1);
    for (int row = 1; row < 3; ++row)
        layout->setRowStretchFactor(row, 0.001);
}

void PowerChart::setCaption(const QString& text) {
    QCustomPlot* p = plot();
    QCPLayoutGrid* layout = p->plotLayout();
    if (text.isEmpty()) {
        // Removed rather than left empty, where it would still take a line.
        if (caption_) {
            layout->remove(caption_);
            caption_ = nullptr;
            layout->simplify();
        }
        return;
    }
    if (!caption_) {
        int row = 0;
        int column = 0;
        for (int i = 0; i < layout->elementCount(); ++i)
            if (layout->elementAt(i) == p->axisRect())
                layout->indexToRowCol(i, row, column);
        layout->insertRow(row + 1);
        caption_ = new QCPTextElement(p);
        caption_->setMargins(QMargins(4, 4, 4, 0));
        layout->addElement(row + 1, 0, caption_);
        layout->setRowStretchFactor(row + 1, 0.001);
    }
    QColor muted = textColor();
    muted.setAlphaF(0.75f);
    caption_->setTextColor(muted);
    caption_->setFont(font());
    caption_->setText(text);
}

void PowerChart::draw(const Estimate& estimate, const ResolvedScenario&) {
    ensureLayout();
    QCustomPlot* p = plot();
    segments_.clear();
    energyText_.clear();
    const QColor text = textColor();
    QColor muted = text;
    muted.setAlphaF(0.7f);
    setCaption({});
    QCPLegend* legend = p->legend;
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setTextColor(text);
    legend->setFont(font());
    p->xAxis->setLabel(tr("Seconds into the step"));
    p->yAxis->setLabel(tr("Facility power (kW)"));

    if (!estimate.energyReport || estimate.energyReport->powerTrace.empty()) {
        legend->setVisible(false);
        auto* none = new QCPItemText(p);
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setCoords(0.5, 0.5);
        none->setText(tr("No power estimate for this plan"));
        none->setColor(muted);
        none->setFont(font());
        p->xAxis->setRange(0, std::max(estimate.stepSeconds, 1.0));
        p->yAxis->setRange(0, 1);
        return;
    }
    const EnergyReport& r = *estimate.energyReport;

    // The trace: each sample holds until the next one, the last until traceEndS.
    const double end = std::max(r.traceEndS, r.powerTrace.back().timeS);
    auto* graph = new QCPGraph(p->xAxis, p->yAxis);
    graph->removeFromLegend();
    graph->setLineStyle(QCPGraph::lsStepLeft);
    const QColor traceColor = seriesColor(5);
    graph->setPen(QPen(traceColor, 1.5));
    QColor fill = traceColor;
    fill.setAlphaF(0.25f);
    graph->setBrush(fill);
    double peakKw = 0;
    for (std::size_t i = 0; i < r.powerTrace.size(); ++i) {
        const PowerSample& s = r.powerTrace[i];
        const double next = i + 1 < r.powerTrace.size() ? r.powerTrace[i + 1].timeS : end;
        const double kw = s.watts / 1000.0;
        graph->addData(s.timeS, kw);
        peakKw = std::max(peakKw, kw);
        if (next > s.timeS)
            addHover(QRectF(s.timeS, 0, next - s.timeS, kw),
                     tr("%1 to %2: %3 kW facility power")
                         .arg(secondsText(s.timeS), secondsText(next), numberText(kw)));
    }
    graph->addData(end, r.powerTrace.back().watts / 1000.0);

    // The step's average, dashed across the trace, named with the peak in the top right
    // corner (over the trace it would hide the peaks).
    const double top = std::max(peakKw, 1e-9) * 1.3;
    QString summary = tr("peak %1 kW").arg(numberText(peakKw));
    if (estimate.avgPowerW) {
        const double avgKw = *estimate.avgPowerW / 1000.0;
        auto* line = new QCPItemStraightLine(p);
        line->point1->setCoords(0, avgKw);
        line->point2->setCoords(1, avgKw);
        line->setPen(QPen(text, 1, Qt::DashLine));
        addHover(QRectF(0, avgKw - top * 0.01, end, top * 0.02),
                 tr("Average over the step: %1 kW").arg(numberText(avgKw)));
        summary =
            tr("average %1 kW (dashed) · peak %2 kW").arg(numberText(avgKw), numberText(peakKw));
    }
    auto* label = new QCPItemText(p);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(1, 0);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    label->setPadding(QMargins(2, 2, 4, 2));
    label->setText(summary);
    label->setColor(text);
    label->setFont(font());
    if (!r.traceCoversStep)
        setCaption(tr("Covers only the simulated part of the step: the first %1 of %2")
                       .arg(secondsText(end), secondsText(estimate.stepSeconds)));
    p->xAxis->setRange(0, end > 0 ? end : 1);
    p->yAxis->setRange(0, top);

    // The step's energy by consumer, stacked left to right.
    const EnergyBreakdown& j = r.stepJoules;
    const double total = j.total();
    const std::pair<QString, double> parts[] = {{tr("GPUs"), j.gpus},
                                                {tr("Hosts"), j.hosts},
                                                {tr("Network"), j.network},
                                                {tr("Cooling"), j.cooling}};
    const int colors[] = {0, 1, 2, 4};
    QCPAxis* keyAxis = energyRect_->axis(QCPAxis::atLeft);
    QCPAxis* valueAxis = energyRect_->axis(QCPAxis::atBottom);
    QCPBars* below = nullptr;
    QStringList entries;
    double from = 0;
    for (int i = 0; i < 4; ++i) {
        const auto& [name, joules] = parts[i];
        const double share = total > 0 ? joules / total : 0;
        const QString kwh = tr("%1 kWh").arg(numberText(joules / kJoulesPerKwh));
        const QString entry = tr("%1: %2 (%3)").arg(name, kwh, percentText(share));
        entries << entry;
        auto* bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(entry);
        bars->setWidth(1);
        bars->setStackingGap(0);
        bars->setPen(Qt::NoPen);
        bars->setBrush(seriesColor(colors[i]));
        if (below)
            bars->moveAbove(below);
        below = bars;
        bars->addData(0, joules);
        segments_.push_back({from, from + joules,
                             tr("%1: %2 per step, %3 of the facility's energy")
                                 .arg(name, kwh, percentText(share))});
        from += joules;
    }
    energyText_ = tr("Energy per step: %1").arg(entries.join(QStringLiteral(" · ")));
    keyAxis->setRange(-0.5, 0.5);
    valueAxis->setRange(0, total > 0 ? total : 1);
    legend->setVisible(true);
    // The wrap first: setFillOrder() rearranges the entries with the wrap then in force.
    legend->setWrap(2);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true);
}

void PowerChart::showEnergyHover(QMouseEvent* event) {
    if (!energyRect_ || segments_.empty())
        return;
    const QPointF pos = event->position();
    if (!energyRect_->rect().contains(pos.toPoint()))
        return;
    const QString text =
        energyHoverTextAt(energyRect_->axis(QCPAxis::atBottom)->pixelToCoord(pos.x()));
    if (!text.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), text, plot());
}

} // namespace ts::gui
