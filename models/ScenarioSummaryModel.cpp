#include "ScenarioSummaryModel.h"

#include <QFont>
#include <QStringList>

namespace ts::gui {

ScenarioSummaryModel::ScenarioSummaryModel(QObject* parent) : QAbstractItemModel(parent) {}

void ScenarioSummaryModel::setScenario(const ResolvedScenario& scenario) {
    beginResetModel();
    scenario_ = scenario;
    sections_ = ScenarioSummary::build(scenario);
    endResetModel();
}

void ScenarioSummaryModel::clear() {
    beginResetModel();
    scenario_.reset();
    sections_.clear();
    endResetModel();
}

void ScenarioSummaryModel::retranslate() {
    if (!scenario_) {
        emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        return;
    }
    // Same shape, new texts: a layout-preserving update keeps expansion and selection.
    sections_ = ScenarioSummary::build(*scenario_);
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    for (int s = 0; s < int(sections_.size()); ++s) {
        const QModelIndex section = index(s, 0);
        emit dataChanged(section, index(s, ColumnCount - 1));
        const int rows = int(sections_[std::size_t(s)].rows.size());
        if (rows > 0)
            emit dataChanged(index(0, 0, section), index(rows - 1, ColumnCount - 1, section));
    }
}

QModelIndex ScenarioSummaryModel::indexForJsonPath(const QString& jsonPath) const {
    // Walk up the pointer ("/parallelism/tp/x" -> "/parallelism/tp" -> "/parallelism").
    QString path = jsonPath;
    while (!path.isEmpty()) {
        for (int s = 0; s < int(sections_.size()); ++s) {
            const SummarySection& section = sections_[std::size_t(s)];
            for (int r = 0; r < int(section.rows.size()); ++r)
                if (section.rows[std::size_t(r)].jsonPath == path)
                    return index(r, 0, index(s, 0));
            if (section.jsonPath == path)
                return index(s, 0);
        }
        path.truncate(path.lastIndexOf(QLatin1Char('/')));
    }
    return {};
}

QModelIndex ScenarioSummaryModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < int(sections_.size()) ? createIndex(row, column, kSectionId) : QModelIndex();
    if (parent.internalId() != kSectionId || parent.row() >= int(sections_.size()))
        return {};
    if (row >= int(sections_[std::size_t(parent.row())].rows.size()))
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex ScenarioSummaryModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kSectionId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kSectionId);
}

int ScenarioSummaryModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return int(sections_.size());
    if (parent.internalId() != kSectionId || parent.column() != 0)
        return 0;
    return int(sections_[std::size_t(parent.row())].rows.size());
}

int ScenarioSummaryModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ScenarioSummaryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    if (index.internalId() == kSectionId) {
        const SummarySection& section = sections_[std::size_t(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == PropertyColumn ? section.title : QVariant();
        case Qt::FontRole: {
            QFont font;
            font.setBold(true);
            return font;
        }
        case JsonPathRole:
            return section.jsonPath;
        default:
            return {};
        }
    }
    const SummarySection& section = sections_[std::size_t(index.internalId() - 1)];
    const SummaryRow& row = section.rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == PropertyColumn ? row.property : row.value;
    case Qt::ToolTipRole: {
        // The value in full (long ones are elided), why it matters, and where it is written.
        QStringList lines{QStringLiteral("%1: %2").arg(row.property, row.value)};
        if (!row.toolTip.isEmpty())
            lines << row.toolTip;
        if (!row.jsonPath.isEmpty())
            lines << row.jsonPath;
        return lines.join(QLatin1Char('\n'));
    }
    case JsonPathRole:
        return row.jsonPath;
    default:
        return {};
    }
}

QVariant ScenarioSummaryModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == PropertyColumn ? tr("Property") : tr("Value");
}

} // namespace ts::gui
