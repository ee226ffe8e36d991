#pragma once
// The Capacity view: how many GPUs of each kind train the scenario's model on `tokens` by a
// deadline, within an optional budget (core/search/CapacityPlanner.h, as trainscape-cli
// capacity). A form (tokens, deadline, budget, GPU kinds from the catalog), a progress bar
// with Cancel, one row per GPU kind (the fewest GPUs, the cheapest size and the best plan, or
// why no size can), the scaling table of the selected kind and its chart (days and cost
// against GPU count); "Apply plan" puts a row's cluster and plan into the scenario as one
// undoable edit.

#include "hetero/InventoryPlanner.h"
#include "search/CapacityPlanner.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace ts::gui {

class CapacityRunner;
class CapacityScalingModel;
class CapacitySummaryModel;
class ScenarioDocument;

class CapacityView : public QWidget {
    Q_OBJECT
public:
    explicit CapacityView(ScenarioDocument* document, QWidget* parent = nullptr);
    ~CapacityView() override;

    // For tests: the parts a user works with.
    QDoubleSpinBox* tokensBox() const { return tokens_; }    // billions of tokens
    QLineEdit* inventoryField() const { return inventory_; } // the GPUs you have (a JSON file)
    QLabel* inventoryLabel() const { return inventoryResult_; }
    QDoubleSpinBox* deadlineBox() const { return deadline_; } // days
    QCheckBox* budgetCheck() const { return useBudget_; }
    QDoubleSpinBox* budgetBox() const { return budget_; } // millions of dollars
    QSpinBox* maxGpusBox() const { return maxGpus_; }
    QListWidget* gpuList() const { return gpus_; }
    // Checks exactly the GPU kinds `ids` (catalog ids).
    void setCheckedGpus(const QStringList& ids);
    QPushButton* planButton() const { return plan_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* applyButton() const { return apply_; }
    QTableView* summaryTable() const { return summary_; }
    QTableView* scalingTable() const { return scaling_; }
    CapacitySummaryModel* summaryModel() const { return summaryModel_; }
    CapacityScalingModel* scalingModel() const { return scalingModel_; }
    CapacityRunner* runner() const { return runner_; }
    QCustomPlot* plot() const { return plot_; }
    QString statusText() const;

public slots:
    void startPlan();
    void applySelectedRow();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillGpuKinds();
    void takeScenarioTokens();
    void showResult(const std::shared_ptr<const CapacityResult>& result, const QString& error);
    void showInventory(const std::shared_ptr<const InventoryResult>& result);
    void showGpu(int summaryRow);
    void drawChart();
    void updateApply();

    ScenarioDocument* document_;
    CapacityRunner* runner_;
    CapacitySummaryModel* summaryModel_;
    CapacityScalingModel* scalingModel_;
    std::shared_ptr<const CapacityResult> result_;
    double plannedTokens_ = 0;
    double plannedDeadlineDays_ = 0;
    QDoubleSpinBox* tokens_;
    QDoubleSpinBox* deadline_;
    QCheckBox* useBudget_;
    QDoubleSpinBox* budget_;
    QSpinBox* maxGpus_;
    QDoubleSpinBox* headroom_;
    QListWidget* gpus_;
    QPushButton* plan_;
    QPushButton* cancel_;
    QPushButton* apply_;
    QProgressBar* progress_;
    QLabel* status_;
    QLineEdit* inventory_;
    QLabel* inventoryResult_;
    QTableView* summary_;
    QTableView* scaling_;
    QCustomPlot* plot_;
};

} // namespace ts::gui
