#include "CommunicationChart.h"

#include "QuantityText.h"

#include <qcustomplot.h>

namespace ts::gui {

namespace {
constexpr double kGB = 1e9;
}

CommunicationChart::CommunicationChart(View view, QWidget* parent)
    : EstimateChart(parent), view_(view) {}

QString CommunicationChart::chartTitle() const {
    return view_ == View::ByDimension ? tr("Communication per GPU by dimension")
                                      : tr("Traffic per link class (whole cluster)");
}

void CommunicationChart::draw(const Estimate& estimate, const ResolvedScenario& scenario) {
    QCustomPlot* p = plot();
    std::vector<std::pair<QString, double>> parts;
    QString unit;
    double divisor = kGB;
    if (view_ == View::ByDimension) {
        const CommBytesByDimension& c = estimate.commBytesPerGpu;
        parts = {{tr("TP"), c.tp},
                 {tr("CP"), c.cp},
                 {tr("EP"), c.ep},
                 {tr("PP"), c.pp},
                 {tr("DP"), c.dp}};
        unit = tr("GB per GPU per step");
    } else {
        const CommBytesByLink& c = estimate.commBytesByLink;
        parts = {{tr("Scale-up (NVLink)"), c.scaleUp}, {tr("Scale-out network"), c.scaleOut}};
        divisor = 1e12;
        unit = tr("TB per step, all GPUs");
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    auto* bars = new QCPBars(p->xAxis, p->yAxis);
    bars->setWidth(0.6);
    bars->setPen(Qt::NoPen);
    bars->setBrush(seriesColor(view_ == View::ByDimension ? 4 : 2));
    double top = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const double value = parts[i].second / divisor;
        ticker->addTick(double(i), parts[i].first);
        bars->addData(double(i), value);
        top = std::max(top, value);
        QString text = tr("%1: %2 per step").arg(parts[i].first, bytesText(parts[i].second));
        if (view_ == View::ByDimension && estimate.stepSeconds > 0)
            text += tr("\n%1 GB/s per GPU averaged over the step")
                        .arg(numberText(parts[i].second / kGB / estimate.stepSeconds));
        else if (view_ == View::ByLinkClass && scenario.cluster.numGpus > 0)
            text += tr("\n%1 per GPU")
                        .arg(bytesText(parts[i].second / double(scenario.cluster.numGpus)));
        addHover(QRectF(double(i) - 0.3, 0, 0.6, std::max(value, top * 0.02 + 1e-12)), text);
    }
    p->xAxis->setTicker(ticker);
    p->xAxis->setRange(-0.6, double(parts.size()) - 0.4);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->setLabel(unit);
    p->yAxis->setRange(0, std::max(top, 1e-9) * 1.15);
    p->legend->setVisible(false);
}

} // namespace ts::gui
