#include "DiagnosticsModel.h"

#include "CoreMessages.h"

#include <algorithm>

namespace ts::gui {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setDiagnostics(const Diagnostics& diagnostics) {
    beginResetModel();
    items_ = diagnostics.all();
    // Errors first; within a severity, the order core reported them in.
    std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.severity == Severity::Error && b.severity != Severity::Error;
    });
    endResetModel();
}

void DiagnosticsModel::clear() {
    beginResetModel();
    items_.clear();
    endResetModel();
}

void DiagnosticsModel::setSeverityIcons(const QIcon& error, const QIcon& warning) {
    errorIcon_ = error;
    warningIcon_ = warning;
    if (!items_.empty())
        emit dataChanged(index(0, SeverityColumn), index(rowCount() - 1, SeverityColumn));
}

int DiagnosticsModel::errorCount() const {
    return int(std::count_if(items_.begin(), items_.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

int DiagnosticsModel::warningCount() const {
    return int(items_.size()) - errorCount();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(items_.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(items_.size()))
        return {};
    const Diagnostic& d = items_[std::size_t(index.row())];
    const bool isError = d.severity == Severity::Error;
    const QString path = d.path.empty() ? QStringLiteral("/") : QString::fromStdString(d.path);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return isError ? tr("Error") : tr("Warning");
        case PathColumn:
            return path;
        case MessageColumn:
            return diagnosticText(d);
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (index.column() == SeverityColumn)
            return isError ? errorIcon_ : warningIcon_;
        return {};
    case Qt::ToolTipRole:
        return QStringLiteral("%1: %2").arg(path, diagnosticText(d));
    case JsonPathRole:
        return QString::fromStdString(d.path);
    case SeverityRole:
        return isError ? 0 : 1;
    default:
        return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case PathColumn:
        return tr("Location");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

void DiagnosticsModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!items_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

} // namespace ts::gui
