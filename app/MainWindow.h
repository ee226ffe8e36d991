#pragma once
// The main window of `trainscape`: opens a scenario file through core (read, validate,
// resolve), shows what it holds in a property tree, its errors and warnings in the
// Messages list, and the estimate's headline figures when an estimator is wired in.

#include "common/Diagnostics.h"
#include "estimate/Estimate.h"
#include "scenario/ResolvedScenario.h"

#include <QMainWindow>

#include <functional>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QModelIndex;
class QPlainTextEdit;
class QTabWidget;
class QTreeView;

namespace ts::gui {

class DiagnosticsModel;
class EstimateCards;
class PlanLayoutView;
class ScenarioSummaryModel;

// Estimates one resolved scenario; returns nullopt (with the reason in the diagnostics)
// when it cannot. main.cpp wires core's estimator in; empty = no estimator available.
using EstimateFunction =
    std::function<std::optional<Estimate>(const ResolvedScenario&, Diagnostics&)>;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(EstimateFunction estimator = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Reads, validates and resolves `path`. Returns true when the scenario is valid
    // (warnings allowed); otherwise the Messages list holds the errors with their paths.
    bool openScenario(const QString& path);
    QString scenarioPath() const { return scenarioPath_; }
    const std::optional<ResolvedScenario>& scenario() const { return resolved_; }

    // Off for the --screenshot renderer and tests: opening a file is not remembered.
    void setRememberRecentFiles(bool remember) { rememberRecentFiles_ = remember; }

    ScenarioSummaryModel* summaryModel() const { return summaryModel_; }
    DiagnosticsModel* diagnosticsModel() const { return diagnosticsModel_; }
    EstimateCards* estimateCards() const { return estimateCards_; }
    QTreeView* summaryView() const { return summaryView_; }

signals:
    void scenarioOpened(const QString& path, bool valid);

protected:
    void changeEvent(QEvent* event) override;

private:
    void createActions();
    void createDocks();
    void createCentralArea();
    void retranslateUi();
    void updateHeader();
    void updateEstimate();
    void updateStatus();
    void updateRecentFilesMenu();
    void rememberRecentFile(const QString& path);

    void openFromDialog();
    void showAbout();
    void showMessageSource(const QModelIndex& index);

    EstimateFunction estimator_;
    QString scenarioPath_;
    QString scenarioText_;
    Diagnostics loadDiagnostics_;
    std::optional<ResolvedScenario> resolved_;
    bool rememberRecentFiles_ = true;

    ScenarioSummaryModel* summaryModel_;
    DiagnosticsModel* diagnosticsModel_;

    QMenu* fileMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* clearRecentAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;

    QDockWidget* scenarioDock_ = nullptr;
    QDockWidget* messagesDock_ = nullptr;
    QTreeView* summaryView_ = nullptr;
    QTreeView* messagesView_ = nullptr;

    QLabel* titleLabel_ = nullptr;
    QLabel* subtitleLabel_ = nullptr;
    EstimateCards* estimateCards_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    PlanLayoutView* planLayout_ = nullptr;
    QPlainTextEdit* sourceView_ = nullptr;
    QLabel* statusCounts_ = nullptr;
};

} // namespace ts::gui
