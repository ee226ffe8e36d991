#include "MemoryChart.h"

#include "QuantityText.h"

#include <qcustomplot.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace ts::gui {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}

QString MemoryChart::chartTitle() const {
    return tr("Memory per GPU by pipeline stage");
}

void MemoryChart::draw(const Estimate& estimate, const ResolvedScenario& scenario) {
    QCustomPlot* p = plot();
    const std::vector<StageMemory>& stages = estimate.stages;
    struct Part {
        QString name;
        std::function<double(const MemoryBreakdown&)> bytes;
    };
    auto field = [](double MemoryBreakdown::*f) {
        return [f](const MemoryBreakdown& b) { return b.*f; };
    };
    // LoRA / QLoRA: the weights split into the frozen base and the adapters, whose gradients
    // and optimizer states are all that train.
    const bool adapters = std::any_of(stages.begin(), stages.end(), [](const StageMemory& s) {
        return s.bytes.frozenWeights > 0;
    });
    std::vector<Part> parts;
    if (adapters) {
        parts.push_back({tr("Frozen base"), field(&MemoryBreakdown::frozenWeights)});
        parts.push_back(
            {tr("Adapters"), [](const MemoryBreakdown& b) { return b.weights - b.frozenWeights; }});
        parts.push_back({tr("Adapter gradients"), field(&MemoryBreakdown::gradients)});
        parts.push_back({tr("Adapter optimizer states"), field(&MemoryBreakdown::optimizer)});
    } else {
        parts.push_back({tr("Weights"), field(&MemoryBreakdown::weights)});
        parts.push_back({tr("Gradients"), field(&MemoryBreakdown::gradients)});
        parts.push_back({tr("Optimizer states"), field(&MemoryBreakdown::optimizer)});
    }
    parts.push_back({tr("Activations"), field(&MemoryBreakdown::activations)});
    parts.push_back({tr("Communication buffers"), field(&MemoryBreakdown::commBuffers)});
    parts.push_back({tr("Framework and allocator"), field(&MemoryBreakdown::framework)});
    const double width = 0.65;
    QCPBars* below = nullptr;
    std::vector<double> base(stages.size(), 0.0);
    double top = estimate.capacityBytes / kGiB;
    int index = 0;
    for (const Part& part : parts) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(part.name);
        bars->setWidth(width);
        bars->setStackingGap(0);
        const QColor color = seriesColor(index++);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(115)));
        if (below)
            bars->moveAbove(below);
        below = bars;
        for (std::size_t s = 0; s < stages.size(); ++s) {
            const double gib = part.bytes(stages[s].bytes) / kGiB;
            bars->addData(stages[s].stage, gib);
            if (gib > 0)
                addHover(
                    QRectF(stages[s].stage - width / 2, base[s], width, gib),
                    tr("Stage %1 · %2: %3 (stage total %4)")
                        .arg(stages[s].stage)
                        .arg(part.name, bytesText(gib * kGiB), bytesText(stages[s].bytes.total())));
            base[s] += gib;
            top = std::max(top, base[s]);
        }
    }

    if (estimate.hetero && scenario.hetero && !scenario.hetero->pipelines.empty()) {
        // Pools of unlike GPUs: each stage against its own pool's capacity (the first
        // pipeline's placement), the stage's pool under its number.
        const HeteroConfig& h = *scenario.hetero;
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (std::size_t s = 0; s < stages.size() && s < h.pipelines[0].stages.size(); ++s) {
            const ResolvedPool& pool = h.pools[std::size_t(h.pipelines[0].stages[s].pool)];
            const double cap = pool.cluster.gpu.memoryGiB;
            auto* seg = new QCPItemLine(p);
            seg->start->setCoords(double(s) - 0.45, cap);
            seg->end->setCoords(double(s) + 0.45, cap);
            seg->setPen(QPen(QColor(220, 50, 47), 2, Qt::DashLine));
            addHover(QRectF(double(s) - 0.45, cap - top * 0.01, 0.9, top * 0.02),
                     tr("Pool %1 capacity: %2")
                         .arg(QString::fromStdString(pool.id), bytesText(cap * kGiB)));
            top = std::max(top, cap);
            ticker->addTick(double(s),
                            QStringLiteral("%1\n%2").arg(s).arg(QString::fromStdString(pool.id)));
        }
        p->xAxis->setTicker(ticker);
        p->xAxis->setLabel(tr("Pipeline stage and pool"));
        p->xAxis->setRange(-0.6, double(stages.size()) - 0.4);
        p->xAxis->grid()->setVisible(false);
        p->yAxis->setLabel(tr("GiB per GPU"));
        p->yAxis->setRange(0, top * 1.12);
        return;
    }

    // The capacity line, labelled with its value.
    const double capacity = estimate.capacityBytes / kGiB;
    auto* line = new QCPItemStraightLine(p);
    line->point1->setCoords(-1, capacity);
    line->point2->setCoords(1, capacity);
    line->setPen(QPen(QColor(220, 50, 47), 2, Qt::DashLine));
    auto* label = new QCPItemText(p);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(double(stages.size()) - 0.5, capacity);
    label->setText(tr("capacity %1").arg(bytesText(estimate.capacityBytes)));
    label->setColor(QColor(220, 50, 47));
    label->setFont(font());
    const double span = std::max<double>(1, double(stages.size()));
    addHover(QRectF(-0.5, capacity - top * 0.01, span, top * 0.02),
             tr("GPU capacity: %1").arg(bytesText(estimate.capacityBytes)));

    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(stages.size() > 24 ? 4 : stages.size() > 12 ? 2 : 1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    p->xAxis->setTicker(ticker);
    p->xAxis->setLabel(tr("Pipeline stage"));
    p->xAxis->setRange(-0.6, double(stages.size()) - 0.4);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->setLabel(tr("GiB per GPU"));
    p->yAxis->setRange(0, top * 1.12);
    placeLegendBelow(3);
}

} // namespace ts::gui
