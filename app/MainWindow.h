#pragma once
// The main window of `trainscape`: one ScenarioDocument, edited in the Model, Cluster,
// Parallel plan and Training docks; every edit is an undo step and re-estimates in a
// worker thread; the results dashboard, the toolbar's badge and the Messages list show the
// estimate of the scenario as it now stands.

#include "EstimateRunner.h"

#include "common/Diagnostics.h"
#include "estimate/Estimate.h"
#include "estimate/Explain.h"
#include "scenario/ResolvedScenario.h"

#include <QMainWindow>

#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QModelIndex;
class QPlainTextEdit;
class QTabWidget;
class QToolBar;
class QTreeView;

namespace ts::gui {

class ClusterEditor;
class CompareView;
class CostsEditor;
class DiagnosticsModel;
class EstimateBadge;
class EstimateCards;
class LibraryView;
class ModelEditor;
class PlanEditor;
class PlanLayoutView;
class ResultsDashboard;
class ScenarioDocument;
class ScenarioSummaryModel;
class CapacityView;
class SearchView;
class TopologyView;
class TrainingEditor;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(EstimateFunction estimator = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Reads, validates and resolves `path` into the document. Returns true when the
    // scenario is valid (warnings allowed); otherwise Messages holds the errors with their
    // JSON paths. A file that cannot be read as a scenario leaves nothing to edit.
    bool openScenario(const QString& path);
    // A new, untitled document from a scenario file (an example); false if unreadable.
    bool newFromExample(const QString& path);
    // A new, untitled document holding only the keys the format requires (a small Llama 3
    // 8B on one DGX H100); everything else is the format's default, ready to edit.
    void newBlank();
    bool saveScenario(); // to its file, or Save As when it has none
    bool saveScenarioAs(const QString& path);
    QString scenarioPath() const;
    const std::optional<ResolvedScenario>& scenario() const;

    // Off for the --screenshot renderer and tests: nothing is remembered in the settings.
    void setRememberRecentFiles(bool remember) { rememberSettings_ = remember; }
    void restoreWindowState();
    // Waits (processing events) until the latest estimate has arrived.
    bool waitForEstimate(int timeoutMs = 10000);
    // Brings one main view forward (one of viewNames()). Returns false for an unknown name.
    bool showView(const QString& view);
    // The names showView takes: the tabs ("dashboard", "layout", "file", "topology",
    // "search", "capacity", "library", "compare") and the editors ("model", "cluster",
    // "plan", "training", "costs", "summary"); trainscape --view lists them.
    static QStringList viewNames();
    // The save prompt's answer without asking (tests): Save, Discard or Cancel.
    void setSavePromptOverride(int standardButton) { savePromptOverride_ = standardButton; }
    bool maybeSave();

    // The scenario library (MainWindowLibrary.cpp): saves the document as a new version (of
    // the library scenario it was opened from, else of a new one).
    bool saveToLibrary(const QString& note);
    void openLibraryVersion(const QString& scenarioJson, qint64 scenarioId, int version,
                            const QString& name);
    LibraryView* libraryView() const { return libraryView_; }
    CompareView* compareView() const { return compareView_; }
    QAction* saveToLibraryAction() const { return saveToLibraryAction_; }

    ScenarioDocument* document() const { return document_; }
    EstimateRunner* estimateRunner() const { return runner_; }
    ScenarioSummaryModel* summaryModel() const { return summaryModel_; }
    DiagnosticsModel* diagnosticsModel() const { return diagnosticsModel_; }
    EstimateCards* estimateCards() const { return estimateCards_; }
    ResultsDashboard* dashboard() const { return dashboard_; }
    EstimateBadge* badge() const { return badge_; }
    QTreeView* summaryView() const { return summaryView_; }
    ModelEditor* modelEditor() const { return modelEditor_; }
    ClusterEditor* clusterEditor() const { return clusterEditor_; }
    PlanEditor* planEditor() const { return planEditor_; }
    TrainingEditor* trainingEditor() const { return trainingEditor_; }
    TopologyView* topologyView() const { return topologyView_; }
    CostsEditor* costsEditor() const { return costsEditor_; }
    QAction* newAction() const { return newAction_; }
    QAction* importHfAction() const { return importHfAction_; }
    QAction* redoAction() const { return redoAction_; }
    // Where Open and Save As start: the open file's folder, else the last one used.
    QString dialogDirectory() const;
    const std::optional<Estimate>& estimate() const { return estimate_; }

signals:
    void scenarioOpened(const QString& path, bool valid);
    void estimateUpdated();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    // MainWindow.cpp
    void createDocks();
    QDockWidget* addEditorDock(QWidget* editor, const QString& objectName);
    void createCentralArea();
    void retranslateUi();
    void updateHeader();
    void updateStatus();
    // Dock tabs show whole names (scroll buttons when they do not fit), and the editor docks
    // keep a share of the window's width as it is resized.
    void fitDocksToWindow();
    // MainWindowActions.cpp
    void createActions();
    void createMenus();
    void createToolBar();
    void retranslateActions();
    void updateRecentFilesMenu();
    void rememberRecentFile(const QString& path);
    void setLanguage(const QString& language);
    // MainWindowLibrary.cpp
    void createLibraryViews();
    void retranslateLibrary();
    // MainWindowDocument.cpp
    void documentChanged();
    void estimateFinished(const std::shared_ptr<const EstimateResult>& result);
    void showEstimate(const Estimate* estimate, const QString& reason);
    void openFromDialog();
    bool saveFromDialog();
    void showAbout();
    void showMessageSource(const QModelIndex& index);
    // MainWindowLaunch.cpp: File > Export launch configuration…, File > Import job…
    void createLaunchActions();
    void retranslateLaunchActions();
    void showExportDialog();
    void showImportJobDialog();

    ScenarioDocument* document_;
    EstimateRunner* runner_;
    bool hasScenario_ = false;
    std::optional<Diagnostics> loadFailure_; // the last open failed: its errors
    QString failedPath_;
    std::optional<Estimate> estimate_;
    std::optional<Explanation> explanation_;
    Diagnostics estimateDiagnostics_;
    bool rememberSettings_ = true;
    int savePromptOverride_ = 0;

    ScenarioSummaryModel* summaryModel_;
    DiagnosticsModel* diagnosticsModel_;

    QMenu* fileMenu_ = nullptr;
    QMenu* examplesMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* editMenu_ = nullptr;
    QMenu* modelMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QToolBar* toolBar_ = nullptr;
    QAction* newAction_ = nullptr;
    QAction* importHfAction_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QAction* undoAction_ = nullptr;
    QAction* redoAction_ = nullptr;
    QAction* clearRecentAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* exportLaunchAction_ = nullptr;
    QAction* importJobAction_ = nullptr;
    QActionGroup* languageGroup_ = nullptr;

    QDockWidget* modelDock_ = nullptr;
    QDockWidget* clusterDock_ = nullptr;
    QDockWidget* planDock_ = nullptr;
    QDockWidget* trainingDock_ = nullptr;
    QDockWidget* costsDock_ = nullptr;
    QDockWidget* scenarioDock_ = nullptr;
    QDockWidget* historyDock_ = nullptr;
    QDockWidget* messagesDock_ = nullptr;
    ModelEditor* modelEditor_ = nullptr;
    ClusterEditor* clusterEditor_ = nullptr;
    PlanEditor* planEditor_ = nullptr;
    TrainingEditor* trainingEditor_ = nullptr;
    CostsEditor* costsEditor_ = nullptr;
    QTreeView* summaryView_ = nullptr;
    QTreeView* messagesView_ = nullptr;

    QLabel* titleLabel_ = nullptr;
    QLabel* subtitleLabel_ = nullptr;
    EstimateCards* estimateCards_ = nullptr;
    EstimateBadge* badge_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ResultsDashboard* dashboard_ = nullptr;
    PlanLayoutView* planLayout_ = nullptr;
    SearchView* searchView_ = nullptr;
    QWidget* searchTab_ = nullptr; // the search view's scroll area, a tab
    CapacityView* capacityView_ = nullptr;
    QWidget* capacityTab_ = nullptr; // the capacity view's scroll area, a tab
    TopologyView* topologyView_ = nullptr;
    QPlainTextEdit* sourceView_ = nullptr;
    QLabel* statusCounts_ = nullptr;
    LibraryView* libraryView_ = nullptr;
    CompareView* compareView_ = nullptr;
    QAction* saveToLibraryAction_ = nullptr;
    qint64 libraryScenario_ = 0; // the library scenario the document came from or went to
    int libraryVersion_ = 0;
    QLabel* statusTiming_ = nullptr;
};

} // namespace ts::gui
