#pragma once
// The Search view: the search's constraints and objective as a form, a progress bar with
// Cancel, the best plans as a sortable table, and a scatter of every timed plan (step time
// against peak memory) with the Pareto front and the scenario's own plan; "Apply plan"
// changes the scenario's plan as one undoable edit.

#include "search/PlanSearch.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMouseEvent;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace ts::gui {

class ScenarioDocument;
class SearchResultsModel;
class SearchRunner;

class SearchView : public QWidget {
    Q_OBJECT
public:
    explicit SearchView(ScenarioDocument* document, QWidget* parent = nullptr);
    ~SearchView() override;

    // For tests: the parts a user works with.
    QLineEdit* pinsEdit() const { return pins_; }
    QComboBox* targetBox() const { return target_; } // "any", "none" or an export target id
    QComboBox* objectiveBox() const { return objective_; }
    QPushButton* searchButton() const { return search_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* applyButton() const { return apply_; }
    QTableView* table() const { return table_; }
    SearchResultsModel* resultsModel() const { return model_; }
    SearchRunner* runner() const { return runner_; }
    QCustomPlot* plot() const { return plot_; }
    QString statusText() const;
    // The plot's tooltip text for the point nearest `pixel` (empty: none near).
    QString hoverText(const QPointF& pixel) const;

public slots:
    void startSearch();
    void applySelectedPlan();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showResult(const std::shared_ptr<const SearchResult>& result, const QString& error);
    void drawScatter();
    void showHover(QMouseEvent* event);

    ScenarioDocument* document_;
    SearchRunner* runner_;
    SearchResultsModel* model_;
    std::shared_ptr<const SearchResult> result_;
    // The scatter draws at most this many timed plans: the search keeps as many.
    static constexpr std::size_t kMaxDrawnPoints = 20000;
    std::vector<PlanPoint> shown_; // the points drawn (a deterministic sample)
    QComboBox* objective_;
    QSpinBox* top_;
    QDoubleSpinBox* headroom_;
    QSpinBox* threads_;
    QLineEdit* pins_;
    QComboBox* target_;
    QPushButton* search_;
    QPushButton* cancel_;
    QPushButton* apply_;
    QProgressBar* progress_;
    QLabel* status_;
    QTableView* table_;
    QCustomPlot* plot_;
};

} // namespace ts::gui
