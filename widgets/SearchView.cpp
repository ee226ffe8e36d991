#include "SearchView.h"

#include "ScenarioDocument.h"
#include "SearchResultsModel.h"
#include "SearchRunner.h"

#include "export/Exporter.h"
#include "export/LaunchTargets.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ts::gui {

SearchView::SearchView(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runner_(new SearchRunner(this)),
      model_(new SearchResultsModel(this)), objective_(new QComboBox(this)),
      top_(new QSpinBox(this)), headroom_(new QDoubleSpinBox(this)), threads_(new QSpinBox(this)),
      pins_(new QLineEdit(this)), target_(new QComboBox(this)), search_(new QPushButton(this)),
      cancel_(new QPushButton(this)), apply_(new QPushButton(this)),
      progress_(new QProgressBar(this)), status_(new QLabel(this)), table_(new QTableView(this)),
      plot_(new QCustomPlot(this)) {
    for (const char* name : {"step-time", "tokens-per-s", "time-to-train", "cost-per-token",
                             "cost-per-run", "energy-per-run"})
        objective_->addItem(QString(), QString::fromLatin1(name));
    top_->setRange(1, 200);
    top_->setValue(20);
    headroom_->setRange(0.5, 1.0);
    headroom_->setSingleStep(0.01);
    headroom_->setValue(0.9);
    threads_->setRange(0, 256);
    pins_->setPlaceholderText("tp=8,pp=4|8,recompute=full");
    cancel_->setEnabled(false);
    apply_->setEnabled(false);
    progress_->setRange(0, 1000);
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SearchResultsModel::Rank, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(SearchResultsModel::Plan,
                                                     QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    plot_->setMinimumHeight(260);
    plot_->setMouseTracking(true);

    auto* form = new QFormLayout;
    form->addRow(new QLabel(this), objective_);
    form->addRow(new QLabel(this), top_);
    form->addRow(new QLabel(this), headroom_);
    form->addRow(new QLabel(this), threads_);
    form->addRow(new QLabel(this), pins_);
    // Which launcher must run the plans as they are (export/LaunchTargets.h; search --target).
    target_->addItem(QString(), QStringLiteral("any"));
    target_->addItem(QString(), QStringLiteral("none"));
    for (const auto& e : exporters())
        target_->addItem(QString::fromUtf8(e->title().data(), qsizetype(e->title().size())),
                         QString::fromUtf8(e->id().data(), qsizetype(e->id().size())));
    form->addRow(new QLabel(this), target_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(search_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(apply_);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(table_);
    splitter->addWidget(plot_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addWidget(splitter, 1);

    connect(search_, &QPushButton::clicked, this, &SearchView::startSearch);
    connect(cancel_, &QPushButton::clicked, runner_, &SearchRunner::cancel);
    connect(apply_, &QPushButton::clicked, this, &SearchView::applySelectedPlan);
    connect(runner_, &SearchRunner::progress, this, [this](double fraction, qint64 plans) {
        progress_->setValue(int(1000 * fraction));
        status_->setText(tr("Searching: %1 plans so far").arg(QLocale().toString(plans)));
    });
    connect(runner_, &SearchRunner::finished, this, &SearchView::showResult);
    connect(plot_, &QCustomPlot::mouseMove, this, &SearchView::showHover);
    retranslate();
}

SearchView::~SearchView() = default;

void SearchView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void SearchView::retranslate() {
    const QStringList objectives{tr("Step time"),     tr("Tokens per second"),
                                 tr("Time to train"), tr("Cost per token"),
                                 tr("Cost per run"),  tr("Energy per run")};
    for (int i = 0; i < objective_->count(); ++i)
        objective_->setItemText(i, objectives.value(i));
    auto* form = static_cast<QFormLayout*>(static_cast<QVBoxLayout*>(layout())->itemAt(0));
    const QStringList labels{tr("Objective"),        tr("Best plans"), tr("Memory headroom"),
                             tr("Threads (0: all)"), tr("Pins"),       tr("Launcher")};
    for (int r = 0; r < form->rowCount(); ++r)
        if (auto* label = qobject_cast<QLabel*>(form->itemAt(r, QFormLayout::LabelRole)->widget()))
            label->setText(labels.value(r));
    pins_->setToolTip(tr("Fix fields or allow lists, as for trainscape-cli search --pin"));
    target_->setItemText(0, tr("Any launcher (plans at least one target exports as they are)"));
    target_->setItemText(1, tr("No launcher filter"));
    target_->setToolTip(tr("Rank only plans this launcher runs as they are, as "
                           "trainscape-cli search --target"));
    search_->setText(tr("Search"));
    cancel_->setText(tr("Cancel"));
    apply_->setText(tr("Apply plan"));
    plot_->xAxis->setLabel(tr("Step time (s)"));
    plot_->yAxis->setLabel(tr("Peak memory per GPU (GiB)"));
}

QString SearchView::statusText() const {
    return status_->text();
}

void SearchView::startSearch() {
    const auto& resolved = document_->resolved();
    if (!resolved) {
        status_->setText(tr("The scenario has errors: fix them to search"));
        return;
    }
    SearchOptions options;
    Diagnostics diags;
    if (!parseSearchPins(pins_->text().toStdString(), options.domain, diags)) {
        status_->setText(QString::fromStdString(diags.errors().front().toString()));
        return;
    }
    options.objective =
        *searchObjectiveFromName(objective_->currentData().toString().toStdString());
    options.topK = top_->value();
    options.threads = threads_->value();
    options.constraints.memoryHeadroom = headroom_->value();
    options.pareto = true;
    options.keepPoints = kMaxDrawnPoints; // (an even sample, as the scatter draws them)
    options.rankCurrentPlan = true;
    if (const std::string target = target_->currentData().toString().toStdString();
        target != "none")
        options.accept = [target](const ResolvedScenario& plan) { return launches(plan, target); };
    // A scenario over pools: which pools, stage order, tp per stage, layers and replicas.
    if (resolved->hetero ? !runner_->startPooled(document_->scenario(), options)
                         : !runner_->start(*resolved, options))
        return;
    search_->setEnabled(false);
    cancel_->setEnabled(true);
    apply_->setEnabled(false);
    progress_->setValue(0);
    status_->setText(tr("Searching…"));
}

void SearchView::showResult(const std::shared_ptr<const SearchResult>& result,
                            const QString& error) {
    search_->setEnabled(true);
    cancel_->setEnabled(false);
    progress_->setValue(1000);
    result_ = result;
    if (!result) {
        status_->setText(error);
        return;
    }
    model_->setPlans(result->plans);
    table_->sortByColumn(SearchResultsModel::Rank, Qt::AscendingOrder);
    if (!result->plans.empty())
        table_->selectRow(0);
    apply_->setEnabled(!result->plans.empty());
    QString text = tr("%1 plans, %2 timed, %3 fit, %4 full estimates, %5 s")
                       .arg(QLocale().toString(qint64(result->plansInSpace)))
                       .arg(QLocale().toString(qint64(result->plansEvaluated)))
                       .arg(QLocale().toString(qint64(result->plansFitting)))
                       .arg(QLocale().toString(qint64(result->fullEstimates)))
                       .arg(result->seconds, 0, 'f', 2);
    if (result->cancelled)
        text = tr("Cancelled: ") + text;
    for (const std::string& note : result->notes)
        text += QStringLiteral("; ") + QString::fromStdString(note);
    if (result->current)
        text += tr("; this scenario's plan ranks %1")
                    .arg(QLocale().toString(qint64(result->current->better + 1)));
    status_->setText(text);
    drawScatter();
}

} // namespace ts::gui
