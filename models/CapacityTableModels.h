#pragma once
// A capacity plan's results as tables (full-estimator numbers): one row per GPU kind (the
// fewest GPUs and the cheapest size that meet the deadline, or why none can), and the
// scaling table of one kind (GPU count against days, cost, energy and efficiency).

#include "search/CapacityPlanner.h"

#include <QAbstractTableModel>

#include <memory>

namespace ts::gui {

class CapacitySummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Gpu, Fewest, FewestDays, Cheapest, CheapestCost, Plan, ColumnCount };
    // Qt::UserRole: the cell's number (GPUs, days, dollars; -1 when the kind is impossible).
    explicit CapacitySummaryModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const CapacityResult> result);
    const CapacityGpu* gpu(int row) const;
    bool impossible(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant display(const CapacityGpu& g, int column) const;
    std::shared_ptr<const CapacityResult> result_;
};

class CapacityScalingModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Gpus,
        Days,
        Cost,
        Energy,
        Mfu,
        ScalingEfficiency, // tokens/s per GPU against the smallest size with a plan
        Deadline,
        Plan,
        ColumnCount
    };
    // Qt::UserRole: the cell's number (days, dollars, MWh, fractions; -1 without a plan).
    explicit CapacityScalingModel(QObject* parent = nullptr);

    // The scaling table of `gpu` (null: empty); `result` keeps it alive.
    void setGpu(std::shared_ptr<const CapacityResult> result, const CapacityGpu* gpu);
    const CapacityGpu* gpu() const { return gpu_; }
    const CapacityRow* row(int r) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    double number(const CapacityRow& r, int column) const;
    QVariant display(const CapacityRow& r, int column) const;
    std::shared_ptr<const CapacityResult> result_;
    const CapacityGpu* gpu_ = nullptr;
    double baseTokensPerGpu_ = 0; // of the smallest size with a plan
};

// "$1,234,567", "—" when unknown.
QString dollarsText(const std::optional<double>& usd);

} // namespace ts::gui
