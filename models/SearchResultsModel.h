#pragma once
// The plans a search reported, as a sortable table (full-estimator numbers).

#include "search/PlanSearch.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts::gui {

class SearchResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Plan, StepTime, TokensPerS, Mfu, PeakMemory, Days, Cost, ColumnCount };
    // Qt::UserRole: the cell's number (for sorting and tests).
    explicit SearchResultsModel(QObject* parent = nullptr);

    void setPlans(std::vector<SearchedPlan> plans);
    const SearchedPlan& plan(int row) const {
        return plans_[order_[static_cast<std::size_t>(row)]];
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

private:
    double number(std::size_t plan, int column) const;
    std::vector<SearchedPlan> plans_;
    std::vector<std::size_t> order_; // display row -> plan (plans_ is best first)
};

} // namespace ts::gui
