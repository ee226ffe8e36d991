#include "CapacityTableModels.h"

#include "QuantityText.h"

#include "search/SearchSpace.h"

#include <QLocale>

namespace ts::gui {

namespace {

QString planText(const CapacityRow& r) {
    return r.best ? QString::fromStdString(describePlan(r.best->plan))
                  : QString::fromStdString(r.note);
}

QVariant alignment(bool text) {
    return text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
}

} // namespace

QString dollarsText(const std::optional<double>& usd) {
    return usd ? "$" + QLocale().toString(*usd, 'f', 0) : QStringLiteral("—");
}

CapacitySummaryModel::CapacitySummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void CapacitySummaryModel::setResult(std::shared_ptr<const CapacityResult> result) {
    beginResetModel();
    result_ = std::move(result);
    endResetModel();
}

const CapacityGpu* CapacitySummaryModel::gpu(int row) const {
    if (!result_ || row < 0 || row >= rowCount())
        return nullptr;
    return &result_->gpus[static_cast<std::size_t>(row)];
}

bool CapacitySummaryModel::impossible(int row) const {
    const CapacityGpu* g = gpu(row);
    return g && !g->fewest;
}

int CapacitySummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !result_ ? 0 : static_cast<int>(result_->gpus.size());
}

int CapacitySummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CapacitySummaryModel::display(const CapacityGpu& g, int column) const {
    if (column == Gpu)
        return QString::fromStdString(g.gpu);
    if (!g.fewest) // the reason, in place of the sizes (the view spans it over them)
        return column == Fewest ? tr("Impossible: %1").arg(QString::fromStdString(g.impossible))
                                : QVariant();
    const CapacityRow& fewest = g.scaling[*g.fewest];
    const CapacityRow& cheapest = g.scaling[*g.cheapest];
    switch (column) {
    case Fewest:
        return countText(fewest.numGpus);
    case FewestDays:
        return numberText(*fewest.best->estimate.trainDays);
    case Cheapest:
        return countText(cheapest.numGpus);
    case CheapestCost:
        return dollarsText(cheapest.best->estimate.trainUsd);
    case Plan:
        return planText(fewest);
    }
    return {};
}

QVariant CapacitySummaryModel::data(const QModelIndex& index, int role) const {
    const CapacityGpu* g = index.isValid() ? gpu(index.row()) : nullptr;
    if (!g)
        return {};
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return alignment(c == Gpu || c == Plan || !g->fewest);
    if (role == Qt::UserRole) {
        if (c == Gpu)
            return QString::fromStdString(g->gpu);
        if (c == Plan)
            return g->fewest ? planText(g->scaling[*g->fewest])
                             : QString::fromStdString(g->impossible);
        if (!g->fewest)
            return -1.0;
        const Estimate& f = g->scaling[*g->fewest].best->estimate;
        const Estimate& ch = g->scaling[*g->cheapest].best->estimate;
        switch (c) {
        case Fewest:
            return double(g->scaling[*g->fewest].numGpus);
        case FewestDays:
            return *f.trainDays;
        case Cheapest:
            return double(g->scaling[*g->cheapest].numGpus);
        case CheapestCost:
            return ch.trainUsd.value_or(-1.0);
        }
        return {};
    }
    if (role == Qt::ToolTipRole && !g->fewest)
        return QString::fromStdString(g->impossible);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return display(*g, c);
    return {};
}

QVariant CapacitySummaryModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Gpu:
        return tr("GPU");
    case Fewest:
        return tr("Fewest GPUs");
    case FewestDays:
        return tr("Days");
    case Cheapest:
        return tr("Cheapest GPUs");
    case CheapestCost:
        return tr("Cost");
    case Plan:
        return tr("Best plan at the fewest");
    }
    return {};
}

CapacityScalingModel::CapacityScalingModel(QObject* parent) : QAbstractTableModel(parent) {}

void CapacityScalingModel::setGpu(std::shared_ptr<const CapacityResult> result,
                                  const CapacityGpu* gpu) {
    beginResetModel();
    result_ = std::move(result);
    gpu_ = result_ ? gpu : nullptr;
    baseTokensPerGpu_ = 0;
    if (gpu_)
        for (const CapacityRow& r : gpu_->scaling)
            if (r.best) {
                baseTokensPerGpu_ = r.best->estimate.tokensPerSPerGpu;
                break;
            }
    endResetModel();
}

const CapacityRow* CapacityScalingModel::row(int r) const {
    if (!gpu_ || r < 0 || r >= rowCount())
        return nullptr;
    return &gpu_->scaling[static_cast<std::size_t>(r)];
}

int CapacityScalingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !gpu_ ? 0 : static_cast<int>(gpu_->scaling.size());
}

int CapacityScalingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double CapacityScalingModel::number(const CapacityRow& r, int column) const {
    if (column == Gpus)
        return double(r.numGpus);
    if (!r.best)
        return -1;
    const Estimate& e = r.best->estimate;
    switch (column) {
    case Days:
        return e.trainDays.value_or(-1);
    case Cost:
        return e.trainUsd.value_or(-1);
    case Energy:
        return e.trainKwh ? *e.trainKwh / 1000 : -1;
    case Mfu:
        return e.mfu;
    case ScalingEfficiency:
        return baseTokensPerGpu_ > 0 ? e.tokensPerSPerGpu / baseTokensPerGpu_ : -1;
    case Deadline:
        return r.meetsDeadline ? 1 : 0;
    }
    return 0;
}

QVariant CapacityScalingModel::display(const CapacityRow& r, int column) const {
    if (column == Gpus)
        return countText(r.numGpus);
    if (column == Plan)
        return planText(r);
    if (!r.best)
        return QStringLiteral("—");
    const Estimate& e = r.best->estimate;
    switch (column) {
    case Days:
        return e.trainDays ? numberText(*e.trainDays) : QStringLiteral("—");
    case Cost:
        return dollarsText(e.trainUsd);
    case Energy:
        return e.trainKwh ? numberText(*e.trainKwh / 1000) : QStringLiteral("—");
    case Mfu:
        return percentText(e.mfu);
    case ScalingEfficiency:
        return baseTokensPerGpu_ > 0 ? percentText(number(r, column)) : QStringLiteral("—");
    case Deadline:
        return r.meetsDeadline ? QStringLiteral("✔") : QString();
    }
    return {};
}

QVariant CapacityScalingModel::data(const QModelIndex& index, int role) const {
    const CapacityRow* r = index.isValid() ? row(index.row()) : nullptr;
    if (!r)
        return {};
    const int c = index.column();
    if (role == Qt::UserRole)
        return c == Plan ? QVariant(planText(*r)) : QVariant(number(*r, c));
    if (role == Qt::TextAlignmentRole)
        return c == Deadline ? QVariant(Qt::AlignCenter) : alignment(c == Plan);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return display(*r, c);
    return {};
}

QVariant CapacityScalingModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole && section == ScalingEfficiency)
        return tr("Tokens per second per GPU against the smallest size with a plan");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Gpus:
        return tr("GPUs");
    case Days:
        return tr("Days");
    case Cost:
        return tr("Cost");
    case Energy:
        return tr("Energy (MWh)");
    case Mfu:
        return tr("MFU");
    case ScalingEfficiency:
        return tr("Scaling eff.");
    case Deadline:
        return tr("Meets deadline");
    case Plan:
        return tr("Best plan, or why none");
    }
    return {};
}

} // namespace ts::gui
