#include "MainWindow.h"

#include "DiagnosticsModel.h"
#include "EstimateCards.h"
#include "PlanLayoutView.h"
#include "QuantityText.h"
#include "ScenarioSummaryModel.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include <exception>

namespace ts::gui {

namespace {
const QString kRecentFilesKey = QStringLiteral("MainWindow/recentFiles");
constexpr int kMaxRecentFiles = 8;
} // namespace

MainWindow::MainWindow(EstimateFunction estimator, QWidget* parent)
    : QMainWindow(parent), estimator_(std::move(estimator)),
      summaryModel_(new ScenarioSummaryModel(this)), diagnosticsModel_(new DiagnosticsModel(this)) {
    diagnosticsModel_->setSeverityIcons(style()->standardIcon(QStyle::SP_MessageBoxCritical),
                                        style()->standardIcon(QStyle::SP_MessageBoxWarning));
    createCentralArea();
    createDocks();
    createActions();
    statusCounts_ = new QLabel(this);
    statusBar()->addPermanentWidget(statusCounts_);
    retranslateUi();
    QSize size(1400, 900);
    if (const QScreen* screen = this->screen())
        size = size.boundedTo(screen->availableSize() * 0.9);
    resize(size);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    openAction_ = new QAction(this);
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    connect(openAction_, &QAction::triggered, this, &MainWindow::openFromDialog);

    clearRecentAction_ = new QAction(this);
    connect(clearRecentAction_, &QAction::triggered, this, [this] {
        QSettings().remove(kRecentFilesKey);
        updateRecentFilesMenu();
    });

    quitAction_ = new QAction(this);
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    aboutAction_ = new QAction(this);
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);

    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->addAction(openAction_);
    recentMenu_ = fileMenu_->addMenu(QString());
    fileMenu_->addSeparator();
    fileMenu_->addAction(quitAction_);

    viewMenu_ = menuBar()->addMenu(QString());
    viewMenu_->addAction(scenarioDock_->toggleViewAction());
    viewMenu_->addAction(messagesDock_->toggleViewAction());

    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->addAction(aboutAction_);
}

void MainWindow::createDocks() {
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
    scenarioDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, scenarioDock_);

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
    messagesDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::BottomDockWidgetArea, messagesDock_);
    // The left dock runs full height; Messages sits under the central area only.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    resizeDocks({scenarioDock_}, {480}, Qt::Horizontal);
    resizeDocks({messagesDock_}, {180}, Qt::Vertical);
}

void MainWindow::createCentralArea() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(16, 12, 16, 8);
    layout->setSpacing(10);

    titleLabel_ = new QLabel(central);
    QFont titleFont = titleLabel_->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setWeight(QFont::DemiBold);
    titleLabel_->setFont(titleFont);
    titleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    subtitleLabel_ = new QLabel(central);
    subtitleLabel_->setForegroundRole(QPalette::PlaceholderText);
    subtitleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    estimateCards_ = new EstimateCards(central);

    planLayout_ = new PlanLayoutView(central);
    sourceView_ = new QPlainTextEdit(central);
    sourceView_->setReadOnly(true);
    sourceView_->setLineWrapMode(QPlainTextEdit::NoWrap);
    sourceView_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    tabs_ = new QTabWidget(central);
    tabs_->setDocumentMode(true);
    // The drawing fills the tab, and scrolls when the window is too small for it.
    auto* planScroll = new QScrollArea(central);
    planScroll->setWidget(planLayout_);
    planScroll->setWidgetResizable(true);
    planScroll->setFrameShape(QFrame::NoFrame);
    planScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tabs_->addTab(planScroll, QString());
    tabs_->addTab(sourceView_, QString());

    layout->addWidget(titleLabel_);
    layout->addWidget(subtitleLabel_);
    layout->addSpacing(4);
    layout->addWidget(estimateCards_);
    layout->addWidget(tabs_, 1);
    setCentralWidget(central);
}

void MainWindow::retranslateUi() {
    fileMenu_->setTitle(tr("&File"));
    recentMenu_->setTitle(tr("Open &Recent"));
    viewMenu_->setTitle(tr("&View"));
    helpMenu_->setTitle(tr("&Help"));
    openAction_->setText(tr("&Open Scenario…"));
    openAction_->setStatusTip(tr("Open a scenario file (trainscape.scenario/1 JSON)"));
    clearRecentAction_->setText(tr("&Clear List"));
    quitAction_->setText(tr("&Quit"));
    aboutAction_->setText(tr("&About Trainscape"));
    scenarioDock_->setWindowTitle(tr("Scenario"));
    tabs_->setTabText(0, tr("Plan layout"));
    tabs_->setTabText(tabs_->indexOf(sourceView_), tr("Scenario file"));
    summaryModel_->retranslate();
    diagnosticsModel_->retranslate();
    updateRecentFilesMenu();
    updateHeader();
    updateEstimate();
    updateStatus();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

bool MainWindow::openScenario(const QString& path) {
    scenarioPath_ = path;
    loadDiagnostics_ = Diagnostics();
    resolved_.reset();

    QFile file(path);
    scenarioText_ = file.open(QIODevice::ReadOnly | QIODevice::Text)
                        ? QString::fromUtf8(file.read(kMaxDocumentBytes))
                        : QString();

    const std::string nativePath = QFile::encodeName(path).toStdString();
    if (std::optional<Scenario> scenario = loadScenarioFile(nativePath, loadDiagnostics_))
        resolved_ = resolveScenario(*scenario, Catalog::builtIn(), loadDiagnostics_);
    if (loadDiagnostics_.hasErrors())
        resolved_.reset();

    if (resolved_)
        summaryModel_->setScenario(*resolved_);
    else
        summaryModel_->clear();
    planLayout_->setScenario(resolved_ ? &*resolved_ : nullptr);
    sourceView_->setPlainText(scenarioText_);
    updateHeader();
    updateEstimate(); // also fills the Messages list
    updateStatus();
    if (rememberRecentFiles_)
        rememberRecentFile(path);

    const bool valid = resolved_.has_value();
    if (!valid) {
        // Show the errors next to the text they point into.
        messagesDock_->show();
        messagesDock_->raise();
        tabs_->setCurrentWidget(sourceView_);
    } else {
        tabs_->setCurrentIndex(0);
    }
    emit scenarioOpened(path, valid);
    return valid;
}

void MainWindow::updateHeader() {
    const QString fileName = QFileInfo(scenarioPath_).fileName();
    planLayout_->setPlaceholderText(
        scenarioPath_.isEmpty()
            ? tr("Open a scenario to see how its plan places the model on the GPUs.")
            : tr("The scenario is not valid; its errors are listed under Messages."));
    if (scenarioPath_.isEmpty()) {
        titleLabel_->setText(tr("No scenario open"));
        subtitleLabel_->setText(tr("Choose File ▸ Open Scenario… to read a scenario file."));
        setWindowTitle(tr("Trainscape"));
        return;
    }
    const QString native = QDir::toNativeSeparators(scenarioPath_);
    if (!resolved_) {
        titleLabel_->setText(fileName);
        subtitleLabel_->setText(
            tr("%1 · not a valid scenario: see the errors under Messages").arg(native));
        setWindowTitle(tr("%1 — Trainscape").arg(fileName));
        return;
    }
    const ResolvedScenario& s = *resolved_;
    const QString name = s.name.empty() ? fileName : QString::fromStdString(s.name);
    titleLabel_->setText(name);
    subtitleLabel_->setText(
        tr("%1 × %2 · %3")
            .arg(countText(s.cluster.numGpus), QString::fromStdString(s.cluster.gpu.name), native));
    setWindowTitle(tr("%1 — Trainscape").arg(name));
}

void MainWindow::updateEstimate() {
    Diagnostics all = loadDiagnostics_;
    if (scenarioPath_.isEmpty()) {
        estimateCards_->setEstimate(nullptr, tr("no scenario open"));
    } else if (!resolved_) {
        estimateCards_->setEstimate(nullptr, tr("not computed: the scenario is not valid"));
    } else if (!estimator_) {
        estimateCards_->setEstimate(nullptr, tr("estimator not available"));
    } else {
        Diagnostics estimateDiagnostics;
        std::optional<Estimate> estimate;
        try {
            estimate = estimator_(*resolved_, estimateDiagnostics);
        } catch (const std::exception& e) {
            // Nothing may throw through the event loop; report it like any other error.
            estimateDiagnostics.error("", std::string("estimator failed: ") + e.what());
        }
        if (estimate)
            for (const std::string& warning : estimate->warnings)
                estimateDiagnostics.warning("", warning);
        all.append(estimateDiagnostics);
        QString reason = tr("not computed");
        if (!estimate && !estimateDiagnostics.errors().empty())
            reason = tr("not computed: %1")
                         .arg(QString::fromStdString(estimateDiagnostics.errors().front().message));
        estimateCards_->setEstimate(estimate ? &*estimate : nullptr, reason);
    }
    diagnosticsModel_->setDiagnostics(all);
}

void MainWindow::updateStatus() {
    const int errors = diagnosticsModel_->errorCount();
    const int warnings = diagnosticsModel_->warningCount();
    messagesDock_->setWindowTitle(
        errors + warnings == 0 ? tr("Messages") : tr("Messages (%1)").arg(errors + warnings));
    statusCounts_->setText(
        tr("%1 · %2").arg(errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors),
                          warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings)));
    if (scenarioPath_.isEmpty())
        statusBar()->showMessage(tr("Ready"));
    else if (resolved_)
        statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(scenarioPath_).fileName()));
    else
        statusBar()->showMessage(
            tr("%1 is not a valid scenario").arg(QFileInfo(scenarioPath_).fileName()));
}

void MainWindow::openFromDialog() {
    const QString start = scenarioPath_.isEmpty() ? QString() : QFileInfo(scenarioPath_).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), start,
                                                      tr("Scenario files (*.json);;All files (*)"));
    if (!path.isEmpty())
        openScenario(path);
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Trainscape"),
        tr("<h3>Trainscape %1</h3>"
           "<p>A planner for distributed training of large language models: will it fit, "
           "how long does a step take, and what does the run cost.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::showMessageSource(const QModelIndex& index) {
    const QString path = index.siblingAtColumn(DiagnosticsModel::PathColumn)
                             .data(DiagnosticsModel::JsonPathRole)
                             .toString();
    const QModelIndex target = summaryModel_->indexForJsonPath(path);
    if (!target.isValid())
        return;
    scenarioDock_->show();
    summaryView_->setCurrentIndex(target);
    summaryView_->scrollTo(target);
}

void MainWindow::rememberRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentFilesKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentFilesKey, files);
    updateRecentFilesMenu();
}

void MainWindow::updateRecentFilesMenu() {
    recentMenu_->clear();
    const QStringList files = QSettings().value(kRecentFilesKey).toStringList();
    for (const QString& file : files) {
        QAction* action = recentMenu_->addAction(QFileInfo(file).fileName());
        action->setToolTip(QDir::toNativeSeparators(file));
        connect(action, &QAction::triggered, this, [this, file] { openScenario(file); });
    }
    recentMenu_->addSeparator();
    recentMenu_->addAction(clearRecentAction_);
    recentMenu_->setEnabled(!files.isEmpty());
}

} // namespace ts::gui
