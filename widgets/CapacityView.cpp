#include "CapacityView.h"

#include "CapacityRunner.h"
#include "CapacityTableModels.h"
#include "ScenarioDocument.h"

#include "catalog/Catalog.h"
#include "scenario/PoolResolver.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioPaths.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace ts::gui {

namespace {

constexpr double kBillion = 1e9;
constexpr double kMillion = 1e6;

QTableView* resultTable(QWidget* parent, QAbstractItemModel* model) {
    auto* t = new QTableView(parent);
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->hide();
    t->setWordWrap(false);
    return t;
}

// The scenario's GPU as a catalog id: its own, else its cluster preset's.
std::string scenarioGpu(const Scenario& s, const Catalog& catalog) {
    if (s.cluster.gpu && s.cluster.gpu->catalogId)
        return *s.cluster.gpu->catalogId;
    if (s.cluster.preset)
        if (const auto it = catalog.clusters().find(*s.cluster.preset);
            it != catalog.clusters().end())
            return it->second.gpuId;
    return {};
}

} // namespace

CapacityView::CapacityView(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runner_(new CapacityRunner(this)),
      summaryModel_(new CapacitySummaryModel(this)), scalingModel_(new CapacityScalingModel(this)),
      tokens_(new QDoubleSpinBox(this)), deadline_(new QDoubleSpinBox(this)),
      useBudget_(new QCheckBox(this)), budget_(new QDoubleSpinBox(this)),
      maxGpus_(new QSpinBox(this)), headroom_(new QDoubleSpinBox(this)),
      gpus_(new QListWidget(this)), plan_(new QPushButton(this)), cancel_(new QPushButton(this)),
      apply_(new QPushButton(this)), progress_(new QProgressBar(this)), status_(new QLabel(this)),
      inventory_(new QLineEdit(this)), inventoryResult_(new QLabel(this)),
      summary_(resultTable(this, summaryModel_)), scaling_(resultTable(this, scalingModel_)),
      plot_(new QCustomPlot(this)) {
    tokens_->setRange(0.001, 1e7); // billions: a million tokens to 10 quadrillion
    tokens_->setDecimals(3);
    tokens_->setValue(1000);
    deadline_->setRange(0.01, 3650);
    deadline_->setDecimals(2);
    deadline_->setValue(30);
    budget_->setRange(0.001, 1e6); // millions of dollars
    budget_->setDecimals(3);
    budget_->setValue(10);
    budget_->setEnabled(false);
    maxGpus_->setRange(1, int(kCapacityMaxGpus));
    maxGpus_->setValue(int(kCapacityMaxGpus));
    headroom_->setRange(0.5, 1.0);
    headroom_->setSingleStep(0.01);
    headroom_->setValue(0.9);
    gpus_->setMaximumHeight(120);
    fillGpuKinds();
    cancel_->setEnabled(false);
    apply_->setEnabled(false);
    progress_->setRange(0, 1000);
    status_->setWordWrap(true);
    summary_->setMinimumHeight(110);
    // The plan, or why there is none, takes the width the numbers leave.
    for (QTableView* t : {summary_, scaling_})
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    summary_->horizontalHeader()->setSectionResizeMode(CapacitySummaryModel::Plan,
                                                       QHeaderView::Stretch);
    scaling_->horizontalHeader()->setSectionResizeMode(CapacityScalingModel::Plan,
                                                       QHeaderView::Stretch);
    plot_->setMinimumHeight(260);

    auto* budgetRow = new QHBoxLayout;
    budgetRow->addWidget(useBudget_);
    budgetRow->addWidget(budget_, 1);
    auto* form = new QFormLayout;
    form->addRow(new QLabel(this), tokens_);
    form->addRow(new QLabel(this), deadline_);
    form->addRow(new QLabel(this), budgetRow);
    form->addRow(new QLabel(this), maxGpus_);
    form->addRow(new QLabel(this), headroom_);
    form->addRow(new QLabel(this), gpus_);
    form->addRow(new QLabel(this), inventory_);
    inventoryResult_->setWordWrap(true);
    inventoryResult_->setTextFormat(Qt::PlainText);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(plan_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(apply_);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(summary_);
    splitter->addWidget(scaling_);
    splitter->addWidget(plot_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    layout->addWidget(inventoryResult_);
    layout->addWidget(splitter, 1);

    connect(useBudget_, &QCheckBox::toggled, budget_, &QWidget::setEnabled);
    connect(plan_, &QPushButton::clicked, this, &CapacityView::startPlan);
    connect(cancel_, &QPushButton::clicked, runner_, &CapacityRunner::cancel);
    connect(apply_, &QPushButton::clicked, this, &CapacityView::applySelectedRow);
    connect(runner_, &CapacityRunner::progress, this,
            [this](double fraction, const QString& gpu, qint64 numGpus) {
                progress_->setValue(int(1000 * fraction));
                status_->setText(tr("Sizing %1: %2 GPUs").arg(gpu, QLocale().toString(numGpus)));
            });
    connect(runner_, &CapacityRunner::finished, this, &CapacityView::showResult);
    connect(runner_, &CapacityRunner::inventoryFinished, this, &CapacityView::showInventory);
    connect(summary_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showGpu(current.row()); });
    connect(scaling_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { updateApply(); });
    connect(document_, &ScenarioDocument::changed, this, &CapacityView::takeScenarioTokens);
    takeScenarioTokens();
    retranslate();
}

CapacityView::~CapacityView() = default;

void CapacityView::fillGpuKinds() {
    const Catalog& catalog = Catalog::builtIn();
    std::set<std::string> carried; // GPUs that a cluster preset carries: what can be sized
    for (const auto& [id, preset] : catalog.clusters())
        carried.insert(preset.gpuId);
    const std::string own = scenarioGpu(document_->scenario(), catalog);
    for (const std::string& id : carried) {
        const auto it = catalog.gpus().find(id);
        auto* item = new QListWidgetItem(
            it != catalog.gpus().end() ? QString::fromStdString(id + " — " + it->second.spec.name)
                                       : QString::fromStdString(id),
            gpus_);
        item->setData(Qt::UserRole, QString::fromStdString(id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(id == own ? Qt::Checked : Qt::Unchecked);
    }
}

void CapacityView::setCheckedGpus(const QStringList& ids) {
    for (int i = 0; i < gpus_->count(); ++i) {
        QListWidgetItem* item = gpus_->item(i);
        item->setCheckState(ids.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked
                                                                              : Qt::Unchecked);
    }
}

void CapacityView::takeScenarioTokens() {
    // The scenario's training.tokens, when it has them and no plan is on screen.
    const auto& tokens = document_->scenario().training.tokens;
    if (tokens && *tokens > 0 && !result_)
        tokens_->setValue(*tokens / kBillion);
}

void CapacityView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void CapacityView::retranslate() {
    auto* form = static_cast<QFormLayout*>(static_cast<QVBoxLayout*>(layout())->itemAt(0));
    const QStringList labels{tr("Tokens (billions)"),
                             tr("Deadline (days)"),
                             tr("Budget"),
                             tr("Largest cluster (GPUs)"),
                             tr("Memory headroom"),
                             tr("GPU kinds"),
                             tr("Your GPUs")};
    for (int r = 0; r < form->rowCount(); ++r)
        if (auto* label = qobject_cast<QLabel*>(form->itemAt(r, QFormLayout::LabelRole)->widget()))
            label->setText(labels.value(r));
    useBudget_->setText(tr("At most (million USD)"));
    inventory_->setPlaceholderText(tr("optional: an inventory file, e.g. resources/inventories/"
                                      "64xh100-128xa100.json"));
    inventory_->setToolTip(tr("A JSON list of {\"gpu\", \"num_gpus\", \"site\"}: the fastest and "
                              "the cheapest plan over the GPUs you have, as pools, and each pool "
                              "alone, beside renting (trainscape-cli capacity --inventory)"));
    gpus_->setToolTip(tr("The GPU kinds to size, each with the catalog's cluster preset that "
                         "carries it"));
    plan_->setText(tr("Plan capacity"));
    cancel_->setText(tr("Cancel"));
    apply_->setText(tr("Apply plan"));
    apply_->setToolTip(tr("Use the selected size's cluster, plan and tokens in the scenario"));
    plot_->xAxis->setLabel(tr("GPUs"));
    plot_->yAxis->setLabel(tr("Days to train"));
    plot_->yAxis2->setLabel(tr("Cost of the run (million USD)"));
    if (result_)
        drawChart();
}

QString CapacityView::statusText() const {
    return status_->text();
}

void CapacityView::startPlan() {
    CapacityRequest request;
    request.tokens = tokens_->value() * kBillion;
    request.deadlineDays = deadline_->value();
    if (useBudget_->isChecked())
        request.budgetUsd = budget_->value() * kMillion;
    for (int i = 0; i < gpus_->count(); ++i)
        if (gpus_->item(i)->checkState() == Qt::Checked)
            request.gpus.push_back(gpus_->item(i)->data(Qt::UserRole).toString().toStdString());
    if (request.gpus.empty()) {
        status_->setText(tr("Check at least one GPU kind to size"));
        return;
    }
    request.maxGpus = maxGpus_->value();
    request.search.domain = capacityDomain();
    request.search.constraints.memoryHeadroom = headroom_->value();
    // Paths inside the scenario (costs.carbon_csv) are relative to its file, as in the CLI.
    Scenario base = withPathsBesideFile(document_->scenario(),
                                        QFile::encodeName(document_->filePath()).toStdString());
    // Renting one kind sizes a uniform cluster: a scenario over pools is sized from its first
    // pool's cluster, as the command line does (an inventory: trainscape-cli capacity
    // --inventory).
    if (base.cluster.pools)
        base = poolUniformInput(base, Catalog::builtIn(), 0);
    std::vector<InventoryHolding> inventory;
    inventoryResult_->clear();
    if (const QString file = inventory_->text().trimmed(); !file.isEmpty()) {
        Diagnostics diags;
        std::optional<std::vector<InventoryHolding>> read;
        if (auto text = readTextFile(QFile::encodeName(file).toStdString(), diags))
            read = readInventory(*text, Catalog::builtIn(), diags);
        if (!read) {
            status_->setText(
                tr("Inventory %1: %2")
                    .arg(file, diags.errors().empty()
                                   ? tr("does not read")
                                   : QString::fromStdString(diags.errors().front().toString())));
            return;
        }
        inventory = std::move(*read);
    }
    if (!runner_->start(base, request, inventory))
        return;
    plannedTokens_ = request.tokens;
    plannedDeadlineDays_ = request.deadlineDays;
    plan_->setEnabled(false);
    cancel_->setEnabled(true);
    apply_->setEnabled(false);
    progress_->setValue(0);
    status_->setText(tr("Planning…"));
}

void CapacityView::showInventory(const std::shared_ptr<const InventoryResult>& result) {
    if (!result)
        return;
    QStringList lines{tr("With your GPUs:")};
    auto line = [](const QString& label, const InventoryOption& o) {
        QStringList used;
        for (const InventoryHolding& h : o.used)
            used << QStringLiteral("%1 × %2").arg(h.numGpus).arg(QString::fromStdString(h.gpu));
        const Estimate& e = o.plan.estimate;
        return tr("%1: %2, %3 days, $%4 — %5")
            .arg(label, used.join(QStringLiteral(" + ")),
                 QLocale().toString(e.trainDays.value_or(0), 'f', 1),
                 QLocale().toString(e.trainUsd.value_or(0), 'f', 0),
                 QString::fromStdString(o.plan.description));
    };
    for (const InventoryOption& o : result->options)
        lines << line(o.objective == "fastest" ? tr("fastest") : tr("cheapest"), o);
    for (const InventoryOption& o : result->alone)
        lines << line(tr("%1 alone").arg(QString::fromStdString(o.objective)), o);
    for (const auto& [objective, reason] : result->impossible)
        lines << tr("%1: %2").arg(QString::fromStdString(objective),
                                  QString::fromStdString(reason));
    inventoryResult_->setText(lines.join('\n'));
}

void CapacityView::showResult(const std::shared_ptr<const CapacityResult>& result,
                              const QString& error) {
    plan_->setEnabled(true);
    cancel_->setEnabled(false);
    progress_->setValue(1000);
    if (!result) {
        status_->setText(error);
        return;
    }
    result_ = result;
    summary_->clearSpans();
    summaryModel_->setResult(result_);
    int possible = 0;
    for (int r = 0; r < summaryModel_->rowCount(); ++r) {
        if (summaryModel_->impossible(r)) // the reason over the sizes' columns
            summary_->setSpan(r, CapacitySummaryModel::Fewest, 1,
                              CapacitySummaryModel::ColumnCount - CapacitySummaryModel::Fewest);
        else
            ++possible;
    }
    QString text =
        tr("%1 of %2 GPU kinds meet the deadline").arg(possible).arg(summaryModel_->rowCount());
    if (result_->cancelled)
        text = tr("Cancelled: ") + text + tr(" (of the sizes tried)");
    for (const std::string& note : result_->notes)
        text += "; " + QString::fromStdString(note);
    status_->setText(text);
    if (summaryModel_->rowCount() > 0)
        summary_->selectRow(0);
    else
        showGpu(-1);
}

void CapacityView::showGpu(int summaryRow) {
    const CapacityGpu* g = summaryModel_->gpu(summaryRow);
    scalingModel_->setGpu(result_, g);
    if (g && g->fewest)
        scaling_->selectRow(static_cast<int>(*g->fewest));
    drawChart();
    updateApply();
}

void CapacityView::updateApply() {
    const QModelIndex current = scaling_->selectionModel()->currentIndex();
    const CapacityRow* row = current.isValid() ? scalingModel_->row(current.row()) : nullptr;
    apply_->setEnabled(row && row->best && !runner_->isRunning());
}

} // namespace ts::gui
