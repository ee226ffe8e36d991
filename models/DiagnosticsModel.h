#pragma once
// The validation errors and warnings of the open scenario (and of its estimate), as a
// table: severity, JSON path, message. The path is what lets a view jump to the field.

#include "common/Diagnostics.h"

#include <QAbstractTableModel>
#include <QIcon>

#include <vector>

namespace ts::gui {

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, PathColumn, MessageColumn, ColumnCount };
    enum Role { JsonPathRole = Qt::UserRole + 1, SeverityRole };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    void setDiagnostics(const Diagnostics& diagnostics);
    void clear();
    // Icons come from the view's style; models do not depend on widgets.
    void setSeverityIcons(const QIcon& error, const QIcon& warning);

    int errorCount() const;
    int warningCount() const;
    const std::vector<Diagnostic>& diagnostics() const { return items_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Re-emits headers and severity texts after a language change.
    void retranslate();

private:
    std::vector<Diagnostic> items_;
    QIcon errorIcon_;
    QIcon warningIcon_;
};

} // namespace ts::gui
