#include "ResultsDashboard.h"

#include "CommunicationChart.h"
#include "ExplainCard.h"
#include "MemoryChart.h"
#include "PowerChart.h"
#include "RunCostCards.h"
#include "StepTimeChart.h"
#include "TimelineChart.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QVBoxLayout>

namespace ts::gui {

ResultsDashboard::ResultsDashboard(QWidget* parent)
    : QWidget(parent), runCostCards_(new RunCostCards(this)), explain_(new ExplainCard(this)),
      memory_(new MemoryChart(this)), stepTime_(new StepTimeChart(this)),
      timeline_(new TimelineChart(this)),
      byDimension_(new CommunicationChart(CommunicationChart::View::ByDimension, this)),
      byLink_(new CommunicationChart(CommunicationChart::View::ByLinkClass, this)),
      power_(new PowerChart(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->setSpacing(10);
    layout->addWidget(runCostCards_);
    layout->addWidget(explain_);
    auto* grid = grid_ = new QGridLayout;
    grid->setSpacing(12);
    grid->addWidget(memory_, 0, 0);
    grid->addWidget(stepTime_, 0, 1);
    grid->addWidget(timeline_, 1, 0, 1, 2);
    // The bottom row: the two small communication charts, then the power trace, which
    // wants the width.
    auto* bottom = bottom_ = new QHBoxLayout;
    bottom->setSpacing(12);
    bottom->addWidget(byDimension_, 2);
    bottom->addWidget(byLink_, 3);
    bottom->addWidget(power_, 5);
    grid->addLayout(bottom, 2, 0, 1, 2);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 3);
    grid->setRowStretch(2, 2);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    memory_->setMinimumHeight(250);
    stepTime_->setMinimumHeight(250);
    timeline_->setMinimumHeight(280);
    byDimension_->setMinimumHeight(200);
    byLink_->setMinimumHeight(200);
    power_->setMinimumHeight(320);
    layout->addLayout(grid, 1);
}

void ResultsDashboard::setEstimate(const Estimate* estimate, const ResolvedScenario* scenario,
                                   const QString& reason) {
    runCostCards_->setEstimate(estimate);
    for (EstimateChart* chart : charts())
        chart->setEstimate(estimate, scenario, reason);
}

void ResultsDashboard::setExplanation(const Explanation* explanation, const QString& reason) {
    explain_->setExplanation(explanation, reason);
}

bool ResultsDashboard::event(QEvent* event) {
    if (event->type() == QEvent::ParentChange || event->type() == QEvent::Polish) {
        if (watchedParent_)
            watchedParent_->removeEventFilter(this);
        watchedParent_ = parentWidget();
        if (watchedParent_)
            watchedParent_->installEventFilter(this);
    }
    return QWidget::event(event);
}

bool ResultsDashboard::eventFilter(QObject* watched, QEvent* event) {
    if (watched == watchedParent_ && event->type() == QEvent::Resize)
        reflow(watchedParent_->width());
    return QWidget::eventFilter(watched, event);
}

void ResultsDashboard::reflow(int width) {
    const int spacing = bottom_->spacing();
    const int needed = byDimension_->minimumSizeHint().width() +
                       byLink_->minimumSizeHint().width() + power_->minimumSizeHint().width() +
                       2 * spacing;
    const bool beside = width >= needed;
    if (beside == powerBeside_)
        return;
    powerBeside_ = beside;
    if (beside) {
        grid_->removeWidget(power_);
        bottom_->addWidget(power_, 5);
        grid_->setRowStretch(3, 0);
    } else {
        bottom_->removeWidget(power_);
        grid_->addWidget(power_, 3, 0, 1, 2);
        grid_->setRowStretch(3, 2);
    }
}

std::vector<EstimateChart*> ResultsDashboard::charts() const {
    return {memory_, stepTime_, timeline_, byDimension_, byLink_, power_};
}

} // namespace ts::gui
