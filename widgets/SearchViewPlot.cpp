// SearchView's scatter, hover and "Apply plan" (widgets/SearchView.h).

#include "SearchView.h"

#include "ScenarioDocument.h"
#include "SearchResultsModel.h"

#include "scenario/ExecutionJson.h"
#include "scenario/ExplicitScenario.h"
#include "scenario/ScenarioIO.h"

#include <qcustomplot.h>

#include <QItemSelectionModel>
#include <QTableView>
#include <QToolTip>

#include <limits>

namespace ts::gui {

namespace {

constexpr double kGiB = double(1ull << 30);

QCPGraph* scatterGraph(QCustomPlot* plot, const QString& name, QCPScatterStyle style,
                       QCPGraph::LineStyle line = QCPGraph::lsNone) {
    auto* g = plot->addGraph();
    g->setName(name);
    g->setLineStyle(line);
    g->setScatterStyle(style);
    return g;
}

} // namespace

void SearchView::drawScatter() {
    plot_->clearGraphs();
    shown_.clear();
    if (!result_)
        return;
    // The search kept at most kMaxDrawnPoints of the timed plans, evenly spread over them.
    shown_ = result_->points;
    const QColor muted = palette().color(QPalette::Mid);
    auto* all = scatterGraph(plot_, tr("Timed plans (bounds)"),
                             QCPScatterStyle(QCPScatterStyle::ssDisc, muted, muted, 3));
    for (const PlanPoint& p : shown_)
        all->addData(p.stepSeconds, p.peakBytes / kGiB);
    const QColor accent = palette().color(QPalette::Highlight);
    auto* front =
        scatterGraph(plot_, tr("Pareto front (time, memory)"),
                     QCPScatterStyle(QCPScatterStyle::ssCircle, accent, 6), QCPGraph::lsStepLeft);
    front->setPen(QPen(accent, 1.5));
    for (const ParetoFront& f : result_->fronts)
        if (f.name == "time-memory")
            for (const SearchedPlan& sp : f.plans)
                front->addData(sp.estimate.stepSeconds, sp.estimate.peakBytes / kGiB);
    auto* best = scatterGraph(plot_, tr("Best plans"),
                              QCPScatterStyle(QCPScatterStyle::ssDisc, accent, accent, 7));
    for (const SearchedPlan& sp : result_->plans)
        best->addData(sp.estimate.stepSeconds, sp.estimate.peakBytes / kGiB);
    if (result_->current) {
        const QColor mark(Qt::red);
        auto* own =
            scatterGraph(plot_, tr("This scenario's plan"),
                         QCPScatterStyle(QCPScatterStyle::ssCross, QPen(mark, 2), mark, 12));
        own->addData(result_->current->estimate.stepSeconds,
                     result_->current->estimate.peakBytes / kGiB);
    }
    plot_->legend->setVisible(true);
    plot_->rescaleAxes();
    plot_->xAxis->scaleRange(1.05);
    plot_->yAxis->scaleRange(1.1);
    plot_->replot();
}

QString SearchView::hoverText(const QPointF& pixel) const {
    if (!result_ || plot_->graphCount() == 0)
        return {};
    double bestDistance = 12 * 12; // pixels
    QString text;
    const auto consider = [&](double step, double gib, const QString& what) {
        const double dx = plot_->xAxis->coordToPixel(step) - pixel.x();
        const double dy = plot_->yAxis->coordToPixel(gib) - pixel.y();
        if (dx * dx + dy * dy < bestDistance) {
            bestDistance = dx * dx + dy * dy;
            text = what;
        }
    };
    for (const PlanPoint& p : shown_)
        consider(p.stepSeconds, p.peakBytes / kGiB,
                 tr("%1\nstep ≥ %2 s (bound) · %3 GiB")
                     .arg(QString::fromStdString(describePlan(p.plan)))
                     .arg(p.stepSeconds, 0, 'f', 3)
                     .arg(p.peakBytes / kGiB, 0, 'f', 1));
    for (const SearchedPlan& sp : result_->plans)
        consider(sp.estimate.stepSeconds, sp.estimate.peakBytes / kGiB,
                 tr("%1\n%2 s/step · %3 GiB · MFU %4%")
                     .arg(QString::fromStdString(sp.label()))
                     .arg(sp.estimate.stepSeconds, 0, 'f', 3)
                     .arg(sp.estimate.peakBytes / kGiB, 0, 'f', 1)
                     .arg(100 * sp.estimate.mfu, 0, 'f', 1));
    return text;
}

void SearchView::showHover(QMouseEvent* event) {
    const QString text = hoverText(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

void SearchView::applySelectedPlan() {
    const QModelIndex current = table_->selectionModel()->currentIndex();
    const int row = current.isValid() ? current.row() : 0;
    if (row < 0 || row >= model_->rowCount())
        return;
    const SearchedPlan& plan = model_->plan(row);
    if (plan.pooled) { // a plan over pools: its pipelines and shared fields, as searched
        const auto written = scenarioToJson(*plan.pooled);
        document_->setValues({{"/parallelism", written["parallelism"]},
                              {"/training/micro_batch", written["training"]["micro_batch"]}},
                             tr("Apply searched plan"), false);
        return;
    }
    const auto written = scenarioToJson(explicitScenario(plan.scenario));
    // One undo step: the whole plan and the micro-batch it was searched with. The search kept
    // the base's framework while it varied ZeRO; where the new plan would infer another one
    // (scenario/ExecutionJson.h, inferFramework), it is written too, so that the document
    // estimates what the table showed.
    std::vector<ScenarioValueChange> changes{
        {"/parallelism", written["parallelism"]},
        {"/training/micro_batch", written["training"]["micro_batch"]}};
    const ResolvedScenario& s = plan.scenario;
    const auto stated = document_->explicitValue("/execution/framework");
    if ((!stated || stated->is_null()) &&
        inferFramework(s.training, s.parallel) != s.execution.framework) {
        nlohmann::ordered_json execution =
            document_->explicitValue("/execution").value_or(nlohmann::ordered_json::object());
        if (!execution.is_object())
            execution = nlohmann::ordered_json::object();
        execution["framework"] = written["execution"]["framework"];
        changes.push_back({"/execution", execution});
    }
    document_->setValues(std::move(changes), tr("Apply searched plan"), false);
}

} // namespace ts::gui
