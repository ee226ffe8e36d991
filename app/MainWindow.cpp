#include "MainWindow.h"

#include "CapacityView.h"
#include "ClusterEditor.h"
#include "CompareView.h"
#include "CoreMessages.h"
#include "CostsEditor.h"
#include "DiagnosticsModel.h"
#include "EstimateBadge.h"
#include "EstimateCards.h"
#include "LibraryView.h"
#include "ModelEditor.h"
#include "PlanEditor.h"
#include "PlanLayoutView.h"
#include "QuantityText.h"
#include "ResultsDashboard.h"
#include "ScenarioDocument.h"
#include "ScenarioSummaryModel.h"
#include "SearchView.h"
#include "Settings.h"
#include "TopologyView.h"
#include "TrainingEditor.h"

#include "scenario/ClusterText.h"

#include <QCloseEvent>

#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTreeView>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>
#include <algorithm>

namespace ts::gui {

MainWindow::MainWindow(EstimateFunction estimator, QWidget* parent)
    : QMainWindow(parent), document_(new ScenarioDocument(this)),
      runner_(new EstimateRunner(std::move(estimator), this)),
      summaryModel_(new ScenarioSummaryModel(this)), diagnosticsModel_(new DiagnosticsModel(this)) {
    diagnosticsModel_->setSeverityIcons(style()->standardIcon(QStyle::SP_MessageBoxCritical),
                                        style()->standardIcon(QStyle::SP_MessageBoxWarning));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | GroupedDragging);
    createCentralArea();
    createDocks();
    createActions();
    createMenus();
    createToolBar();
    createLibraryViews();
    statusTiming_ = new QLabel(this);
    statusCounts_ = new QLabel(this);
    statusBar()->addPermanentWidget(statusTiming_);
    statusBar()->addPermanentWidget(statusCounts_);

    connect(document_, &ScenarioDocument::changed, this, &MainWindow::documentChanged);
    connect(document_, &ScenarioDocument::modifiedChanged, this, &QWidget::setWindowModified);
    connect(document_, &ScenarioDocument::editRefused, this,
            [this](const QString& pointer, const QString& message) {
                statusBar()->showMessage(tr("Not changed: %1 (%2)").arg(message, pointer), 8000);
            });
    runner_->setExplain(true);
    connect(runner_, &EstimateRunner::finished, this, &MainWindow::estimateFinished);
    connect(runner_, &EstimateRunner::started, this, [this] { badge_->setBusy(true); });

    retranslateUi();
    documentChanged();
    QSize size(1500, 950);
    if (const QScreen* screen = this->screen())
        size = size.boundedTo(screen->availableSize() * 0.9);
    resize(size);
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addEditorDock(QWidget* editor, const QString& objectName) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(editor);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* dock = new QDockWidget(this);
    dock->setObjectName(objectName);
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                      QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    return dock;
}

void MainWindow::createDocks() {
    modelEditor_ = new ModelEditor(document_, this);
    clusterEditor_ = new ClusterEditor(document_, this);
    planEditor_ = new PlanEditor(document_, this);
    trainingEditor_ = new TrainingEditor(document_, this);
    costsEditor_ = new CostsEditor(document_, this);
    modelDock_ = addEditorDock(modelEditor_, QStringLiteral("modelDock"));
    clusterDock_ = addEditorDock(clusterEditor_, QStringLiteral("clusterDock"));
    planDock_ = addEditorDock(planEditor_, QStringLiteral("planDock"));
    trainingDock_ = addEditorDock(trainingEditor_, QStringLiteral("trainingDock"));
    costsDock_ = addEditorDock(costsEditor_, QStringLiteral("costsDock"));

    summaryView_ = new QTreeView(this);
    summaryView_->setModel(summaryModel_);
    summaryView_->setAlternatingRowColors(true);
    summaryView_->setUniformRowHeights(true);
    summaryView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    summaryView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    summaryView_->header()->setStretchLastSection(true);
    summaryView_->setColumnWidth(ScenarioSummaryModel::PropertyColumn, 190);
    connect(summaryModel_, &QAbstractItemModel::modelReset, summaryView_, &QTreeView::expandAll);
    scenarioDock_ = new QDockWidget(this);
    scenarioDock_->setObjectName(QStringLiteral("scenarioDock"));
    scenarioDock_->setWidget(summaryView_);
    scenarioDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                               QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, scenarioDock_);

    tabifyDockWidget(modelDock_, clusterDock_);
    tabifyDockWidget(clusterDock_, planDock_);
    tabifyDockWidget(planDock_, trainingDock_);
    tabifyDockWidget(trainingDock_, costsDock_);
    tabifyDockWidget(costsDock_, scenarioDock_);
    planDock_->raise();

    auto* history = new QUndoView(document_->undoStack(), this);
    history->setCleanIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    historyDock_ = new QDockWidget(this);
    historyDock_->setObjectName(QStringLiteral("historyDock"));
    historyDock_->setWidget(history);
    addDockWidget(Qt::BottomDockWidgetArea, historyDock_);

    messagesView_ = new QTreeView(this);
    messagesView_->setModel(diagnosticsModel_);
    messagesView_->setRootIsDecorated(false);
    messagesView_->setAlternatingRowColors(true);
    messagesView_->setUniformRowHeights(true);
    messagesView_->setWordWrap(false);
    messagesView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    messagesView_->header()->setStretchLastSection(true);
    messagesView_->setColumnWidth(DiagnosticsModel::SeverityColumn, 110);
    messagesView_->setColumnWidth(DiagnosticsModel::PathColumn, 260);
    connect(messagesView_, &QTreeView::activated, this, &MainWindow::showMessageSource);
    connect(messagesView_, &QTreeView::clicked, this, &MainWindow::showMessageSource);
    messagesDock_ = new QDockWidget(this);
    messagesDock_->setObjectName(QStringLiteral("messagesDock"));
    messagesDock_->setWidget(messagesView_);
    messagesDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                               QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::BottomDockWidgetArea, messagesDock_);
    tabifyDockWidget(historyDock_, messagesDock_);
    messagesDock_->raise();
    // The editors run full height; Messages sits under the central area only.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    resizeDocks({planDock_}, {400}, Qt::Horizontal);
    resizeDocks({messagesDock_}, {150}, Qt::Vertical);
}

void MainWindow::createCentralArea() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(16, 10, 16, 6);
    layout->setSpacing(8);

    titleLabel_ = new QLabel(central);
    QFont titleFont = titleLabel_->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.5);
    titleFont.setWeight(QFont::DemiBold);
    titleLabel_->setFont(titleFont);
    titleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    subtitleLabel_ = new QLabel(central);
    subtitleLabel_->setObjectName(QStringLiteral("scenarioSubtitle"));
    subtitleLabel_->setForegroundRole(QPalette::PlaceholderText);
    subtitleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    estimateCards_ = new EstimateCards(central);
    badge_ = new EstimateBadge(this);

    dashboard_ = new ResultsDashboard(central);
    auto* dashboardScroll = new QScrollArea(central);
    dashboardScroll->setWidget(dashboard_);
    dashboardScroll->setWidgetResizable(true);
    dashboardScroll->setFrameShape(QFrame::NoFrame);
    dashboardScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

    planLayout_ = new PlanLayoutView(central);
    auto* planScroll = new QScrollArea(central);
    planScroll->setWidget(planLayout_);
    planScroll->setWidgetResizable(true);
    planScroll->setFrameShape(QFrame::NoFrame);
    planScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

    sourceView_ = new QPlainTextEdit(central);
    sourceView_->setReadOnly(true);
    sourceView_->setLineWrapMode(QPlainTextEdit::NoWrap);
    sourceView_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    tabs_ = new QTabWidget(central);
    tabs_->setDocumentMode(true);
    tabs_->addTab(dashboardScroll, QString());
    tabs_->addTab(planScroll, QString());
    tabs_->addTab(sourceView_, QString());
    searchView_ = new SearchView(document_, central);
    auto* searchScroll = new QScrollArea(central); // its form and plot need not fit the window
    searchTab_ = searchScroll;
    searchScroll->setWidget(searchView_);
    searchScroll->setWidgetResizable(true);
    searchScroll->setFrameShape(QFrame::NoFrame);
    tabs_->addTab(searchScroll, QString());
    capacityView_ = new CapacityView(document_, central);
    auto* capacityScroll = new QScrollArea(central); // like the search view's
    capacityTab_ = capacityScroll;
    capacityScroll->setWidget(capacityView_);
    capacityScroll->setWidgetResizable(true);
    capacityScroll->setFrameShape(QFrame::NoFrame);
    tabs_->addTab(capacityScroll, QString());
    topologyView_ = new TopologyView(document_, central);
    tabs_->addTab(topologyView_, QString());
    connect(this, &MainWindow::estimateUpdated, topologyView_,
            [this] { topologyView_->setEstimate(estimate_ ? &*estimate_ : nullptr); });

    layout->addWidget(titleLabel_);
    layout->addWidget(subtitleLabel_);
    layout->addSpacing(2);
    layout->addWidget(estimateCards_);
    layout->addWidget(tabs_, 1);
    setCentralWidget(central);
}

void MainWindow::retranslateUi() {
    retranslateActions();
    retranslateLibrary();
    modelDock_->setWindowTitle(tr("Model"));
    clusterDock_->setWindowTitle(tr("Cluster"));
    planDock_->setWindowTitle(tr("Parallel plan"));
    trainingDock_->setWindowTitle(tr("Training"));
    costsDock_->setWindowTitle(tr("Costs"));
    scenarioDock_->setWindowTitle(tr("Resolved"));
    historyDock_->setWindowTitle(tr("History"));
    tabs_->setTabText(0, tr("Dashboard"));
    tabs_->setTabText(1, tr("Plan layout"));
    tabs_->setTabText(2, tr("Scenario file"));
    tabs_->setTabText(tabs_->indexOf(searchTab_), tr("Search"));
    tabs_->setTabText(tabs_->indexOf(capacityTab_), tr("Capacity"));
    tabs_->setTabText(tabs_->indexOf(topologyView_), tr("Topology"));
    summaryModel_->retranslate();
    diagnosticsModel_->retranslate();
    updateRecentFilesMenu();
    updateHeader();
    if (hasScenario_ && !loadFailure_)
        showEstimate(estimate_ ? &*estimate_ : nullptr, {});
    updateStatus();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    if (rememberSettings_) {
        settings::windowGeometry.set(saveGeometry());
        settings::windowState.set(saveState());
    }
    event->accept();
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (event->oldSize().width() != event->size().width())
        fitDocksToWindow();
}

bool MainWindow::event(QEvent* event) {
    // QMainWindow makes the dock tab bars lazily, when docks are tabified or moved.
    if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Show ||
        event->type() == QEvent::ChildAdded) {
        for (QTabBar* bar : findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
            bar->setElideMode(Qt::ElideNone);
            bar->setUsesScrollButtons(true);
            bar->setExpanding(false);
        }
    }
    return QMainWindow::event(event);
}

void MainWindow::fitDocksToWindow() {
    // About a quarter of the window for the editors: 280 px at 1024, 420 px from 1550 up.
    const int editors = std::clamp(width() * 27 / 100, 280, 420);
    resizeDocks({planDock_}, {editors}, Qt::Horizontal);
}

void MainWindow::restoreWindowState() {
    restoreGeometry(settings::windowGeometry);
    restoreState(settings::windowState);
}

QStringList MainWindow::viewNames() {
    return {QStringLiteral("dashboard"), QStringLiteral("layout"),  QStringLiteral("file"),
            QStringLiteral("topology"),  QStringLiteral("search"),  QStringLiteral("capacity"),
            QStringLiteral("library"),   QStringLiteral("compare"), QStringLiteral("model"),
            QStringLiteral("cluster"),   QStringLiteral("plan"),    QStringLiteral("training"),
            QStringLiteral("costs"),     QStringLiteral("summary")};
}

bool MainWindow::showView(const QString& view) {
    const std::pair<const char*, QDockWidget*> docks[] = {
        {"model", modelDock_},       {"cluster", clusterDock_}, {"plan", planDock_},
        {"training", trainingDock_}, {"costs", costsDock_},     {"summary", scenarioDock_}};
    for (const auto& [name, dock] : docks) {
        if (view == QLatin1String(name)) {
            dock->show();
            dock->raise();
            return true;
        }
    }
    if (view == QLatin1String("search")) {
        tabs_->setCurrentWidget(searchTab_);
        return true;
    }
    if (view == QLatin1String("capacity")) {
        tabs_->setCurrentWidget(capacityTab_);
        return true;
    }
    if (view == QLatin1String("topology")) {
        tabs_->setCurrentWidget(topologyView_);
        return true;
    }
    if (view == QLatin1String("library") || view == QLatin1String("compare")) {
        tabs_->setCurrentWidget(view == QLatin1String("library")
                                    ? static_cast<QWidget*>(libraryView_)
                                    : static_cast<QWidget*>(compareView_));
        return true;
    }
    const char* tabNames[] = {"dashboard", "layout", "file"};
    for (int i = 0; i < 3; ++i) {
        if (view == QLatin1String(tabNames[i])) {
            tabs_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void MainWindow::updateHeader() {
    const QString path = loadFailure_ ? failedPath_ : document_->filePath();
    const QString native = QDir::toNativeSeparators(path);
    planLayout_->setPlaceholderText(
        !hasScenario_ ? tr("Open a scenario to see how its plan places the model on the GPUs.")
                      : tr("The scenario is not valid; its errors are listed under Messages."));
    if (!hasScenario_ && !loadFailure_) {
        titleLabel_->setText(tr("No scenario open"));
        subtitleLabel_->setText(tr("Choose File ▸ Open Scenario… to read a scenario file, or "
                                   "File ▸ New from Example."));
        setWindowTitle(tr("Trainscape"));
        return;
    }
    if (loadFailure_) {
        const QString fileName = QFileInfo(path).fileName();
        titleLabel_->setText(fileName);
        subtitleLabel_->setText(
            tr("%1 · not a valid scenario: see the errors under Messages").arg(native));
        setWindowTitle(tr("%1[*] — Trainscape").arg(fileName));
        return;
    }
    const QString name = document_->displayName();
    titleLabel_->setText(name);
    const QString where = path.isEmpty() ? tr("not saved yet") : native;
    if (const std::optional<ResolvedScenario>& s = document_->resolved()) {
        QStringList gpus; // each pool's GPUs, or the one cluster's
        if (s->hetero)
            for (const ResolvedPool& p : s->hetero->pools)
                gpus << messageText(clusterGpusText(p.cluster));
        else
            gpus << messageText(clusterGpusText(s->cluster));
        subtitleLabel_->setText(tr("%1 · %2").arg(gpus.join(QStringLiteral(" + ")), where));
    } else
        subtitleLabel_->setText(tr("%1 · the scenario has errors: see Messages").arg(where));
    setWindowTitle(tr("%1[*] — Trainscape").arg(name));
    setWindowModified(document_->isModified());
}

void MainWindow::updateStatus() {
    const int errors = diagnosticsModel_->errorCount();
    const int warnings = diagnosticsModel_->warningCount();
    messagesDock_->setWindowTitle(
        errors + warnings == 0 ? tr("Messages") : tr("Messages (%1)").arg(errors + warnings));
    statusCounts_->setText(
        tr("%1 · %2").arg(errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors),
                          warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings)));
    const QString fileName =
        QFileInfo(loadFailure_ ? failedPath_ : document_->filePath()).fileName();
    if (!hasScenario_ && !loadFailure_)
        statusBar()->showMessage(tr("Ready"));
    else if (loadFailure_)
        statusBar()->showMessage(tr("%1 is not a valid scenario").arg(fileName));
    else if (!fileName.isEmpty())
        statusBar()->showMessage(tr("Opened %1").arg(fileName));
}

} // namespace ts::gui
