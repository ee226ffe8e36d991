#include "SearchResultsModel.h"

#include <QLocale>

#include <algorithm>
#include <numeric>

namespace ts::gui {

SearchResultsModel::SearchResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchResultsModel::setPlans(std::vector<SearchedPlan> plans) {
    beginResetModel();
    plans_ = std::move(plans);
    order_.resize(plans_.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    endResetModel();
}

int SearchResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(plans_.size());
}

int SearchResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double SearchResultsModel::number(std::size_t p, int column) const {
    const Estimate& e = plans_[p].estimate;
    switch (column) {
    case Rank:
        return double(p + 1);
    case StepTime:
        return e.stepSeconds;
    case TokensPerS:
        return e.tokensPerS;
    case Mfu:
        return e.mfu;
    case PeakMemory:
        return e.peakBytes / double(1ull << 30);
    case Days:
        return e.trainDays.value_or(-1);
    case Cost:
        return e.trainUsd ? *e.trainUsd : e.usdPerMillionTokens.value_or(-1);
    default:
        return 0;
    }
}

QVariant SearchResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const std::size_t p = order_[static_cast<std::size_t>(index.row())];
    const int c = index.column();
    if (role == Qt::UserRole)
        return c == Plan ? QVariant(QString::fromStdString(plans_[p].label()))
                         : QVariant(number(p, c));
    if (role == Qt::TextAlignmentRole)
        return c == Plan ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const double v = number(p, c);
    const Estimate& e = plans_[p].estimate;
    switch (c) {
    case Rank:
        return QString::number(p + 1);
    case Plan:
        return QString::fromStdString(plans_[p].label());
    case StepTime:
        return QString::number(v, 'f', 3);
    case TokensPerS:
        return QLocale().toString(v, 'f', 0);
    case Mfu:
        return QString::number(100 * v, 'f', 1) + "%";
    case PeakMemory:
        return QString::number(v, 'f', 1);
    case Days:
        return e.trainDays ? QString::number(v, 'f', 1) : QString("—");
    case Cost:
        return e.trainUsd || e.usdPerMillionTokens
                   ? "$" + QLocale().toString(v, 'f', v < 100 ? 2 : 0)
                   : QString("—");
    }
    return {};
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Rank:
        return tr("Rank");
    case Plan:
        return tr("Plan");
    case StepTime:
        return tr("Step (s)");
    case TokensPerS:
        return tr("Tokens/s");
    case Mfu:
        return tr("MFU");
    case PeakMemory:
        return tr("Peak (GiB)");
    case Days:
        return tr("Days");
    case Cost:
        return tr("Cost");
    }
    return {};
}

void SearchResultsModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged();
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
        if (column == Plan) {
            const std::string x = plans_[a].label(), y = plans_[b].label();
            return order == Qt::AscendingOrder ? x < y : y < x;
        }
        const double x = number(a, column), y = number(b, column);
        return order == Qt::AscendingOrder ? x < y : y < x;
    });
    emit layoutChanged();
}

} // namespace ts::gui
