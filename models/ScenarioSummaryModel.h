#pragma once
// A two-column tree (property, value with its unit) of what a resolved scenario holds:
// one top-level row per section (model, cluster, ...), one child row per property.

#include "ScenarioSummary.h"

#include "scenario/ResolvedScenario.h"

#include <QAbstractItemModel>

#include <optional>
#include <vector>

namespace ts::gui {

class ScenarioSummaryModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { PropertyColumn, ValueColumn, ColumnCount };
    enum Role { JsonPathRole = Qt::UserRole + 1 };

    explicit ScenarioSummaryModel(QObject* parent = nullptr);

    void setScenario(const ResolvedScenario& scenario);
    void clear();
    const std::optional<ResolvedScenario>& scenario() const { return scenario_; }
    // Rebuilds every text in the current UI language (call on QEvent::LanguageChange).
    void retranslate();

    // The row of the property at `jsonPath`, or of its closest ancestor; invalid if none.
    QModelIndex indexForJsonPath(const QString& jsonPath) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // internalId of a section row; a property row stores its section's index + 1.
    static constexpr quintptr kSectionId = 0;

    std::optional<ResolvedScenario> scenario_;
    std::vector<SummarySection> sections_;
};

} // namespace ts::gui
