// CapacityView's chart and "Apply plan" (widgets/CapacityView.h).

#include "CapacityView.h"

#include "CapacityTableModels.h"
#include "ScenarioDocument.h"

#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"

#include <qcustomplot.h>

#include <QItemSelectionModel>
#include <QTableView>

#include <array>
#include <limits>

namespace ts::gui {

namespace {

// Distinct hues for up to eight GPU kinds, then again (Okabe and Ito's colour-blind-safe set).
const std::array<QColor, 8> kKindColors{
    QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115),   QColor(204, 121, 167),
    QColor(230, 159, 0), QColor(86, 180, 233), QColor(120, 120, 120), QColor(240, 228, 66)};

void useLogAxis(QCPAxis* axis, double base) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(base);
    axis->setTicker(ticker);
}

} // namespace

void CapacityView::drawChart() {
    plot_->clearGraphs();
    plot_->clearItems();
    if (!result_) {
        plot_->replot();
        return;
    }
    useLogAxis(plot_->xAxis, 2);
    useLogAxis(plot_->yAxis, 10);
    plot_->yAxis2->setVisible(true);
    double lowX = std::numeric_limits<double>::max(), highX = 0;
    double lowDays = plannedDeadlineDays_, highDays = plannedDeadlineDays_;
    double highCost = 0;
    const CapacityGpu* selected = scalingModel_->gpu();
    for (std::size_t k = 0; k < result_->gpus.size(); ++k) {
        const CapacityGpu& g = result_->gpus[k];
        const QColor color = kKindColors[k % kKindColors.size()];
        const bool isSelected = &g == selected;
        auto* days = plot_->addGraph();
        days->setName(tr("%1: days").arg(QString::fromStdString(g.gpu)));
        days->setPen(QPen(color, isSelected ? 2.5 : 1.2));
        days->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, isSelected ? 7 : 5));
        for (const CapacityRow& r : g.scaling) {
            if (!r.best || !r.best->estimate.trainDays)
                continue;
            const double d = *r.best->estimate.trainDays;
            days->addData(double(r.numGpus), d);
            lowX = std::min(lowX, double(r.numGpus));
            highX = std::max(highX, double(r.numGpus));
            lowDays = std::min(lowDays, d);
            highDays = std::max(highDays, d);
        }
        if (!isSelected)
            continue;
        auto* cost = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
        cost->setName(tr("%1: cost").arg(QString::fromStdString(g.gpu)));
        QPen dashed(color, 1.5, Qt::DashLine);
        cost->setPen(dashed);
        cost->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, color, 5));
        for (const CapacityRow& r : g.scaling)
            if (r.best && r.best->estimate.trainUsd) {
                cost->addData(double(r.numGpus), *r.best->estimate.trainUsd / 1e6);
                highCost = std::max(highCost, *r.best->estimate.trainUsd / 1e6);
            }
    }
    if (plannedDeadlineDays_ > 0) {
        auto* deadline = new QCPItemStraightLine(plot_);
        deadline->setPen(QPen(Qt::red, 1.2, Qt::DashDotLine));
        deadline->point1->setCoords(1, plannedDeadlineDays_);
        deadline->point2->setCoords(2, plannedDeadlineDays_);
        auto* label = new QCPItemText(plot_);
        label->setText(tr("deadline %1 days").arg(plannedDeadlineDays_));
        label->setColor(Qt::red);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.98, plannedDeadlineDays_);
    }
    if (highX == 0) { // no size has a plan: the sizes tried, and say so
        for (const CapacityGpu& g : result_->gpus)
            for (const CapacityRow& r : g.scaling) {
                lowX = std::min(lowX, double(r.numGpus));
                highX = std::max(highX, double(r.numGpus));
            }
        if (highX == 0) {
            lowX = 1;
            highX = 2;
        }
        auto* none = new QCPItemText(plot_);
        none->setText(tr("No size has a plan within the limits"));
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setCoords(0.5, 0.35);
    }
    plot_->xAxis->setRange(lowX / 1.4, highX * 1.4);
    plot_->yAxis->setRange(lowDays / 1.6, highDays * 1.6);
    plot_->yAxis2->setRange(0, highCost > 0 ? highCost * 1.15 : 1);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    plot_->replot();
}

void CapacityView::applySelectedRow() {
    const QModelIndex current = scaling_->selectionModel()->currentIndex();
    const CapacityRow* row = current.isValid() ? scalingModel_->row(current.row()) : nullptr;
    const CapacityGpu* g = scalingModel_->gpu();
    if (!row || !row->best || !g)
        return;
    const auto written = scenarioToJson(explicitScenario(row->best->scenario));
    // One undo step: the cluster the size was planned on, its best plan, the micro-batch it
    // was searched with and the tokens it was sized for. The planner keeps the scenario's
    // GPU-hour price for its own GPU and prices other kinds at the catalog's: a price goes
    // only with a change of GPU (it was the other GPU's).
    std::vector<ScenarioValueChange> changes{
        {"/cluster",
         nlohmann::ordered_json{{"preset", g->clusterPreset}, {"num_gpus", row->numGpus}}},
        {"/parallelism", written["parallelism"]},
        {"/training/micro_batch", written["training"]["micro_batch"]},
        {"/training/tokens", plannedTokens_}};
    const std::optional<ResolvedScenario>& own = document_->resolved();
    const bool sameGpu = own && !own->cluster.gpuId.empty() && own->cluster.gpuId == g->gpu;
    if (!sameGpu && document_->explicitValue("/costs/gpu_hour_usd"))
        changes.push_back({"/costs/gpu_hour_usd", std::nullopt});
    document_->setValues(std::move(changes), tr("Apply capacity plan"), false);
}

} // namespace ts::gui
