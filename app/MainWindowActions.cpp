// MainWindow: actions, menus, the toolbar, recent files and the interface language.

#include "MainWindow.h"

#include "EstimateBadge.h"
#include "ModelEditor.h"
#include "ScenarioDocument.h"
#include "Settings.h"
#include "Translations.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

namespace ts::gui {

void MainWindow::createActions() {
    newAction_ = new QAction(this);
    newAction_->setShortcut(QKeySequence::New);
    newAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-new"),
                                         style()->standardIcon(QStyle::SP_FileIcon)));
    connect(newAction_, &QAction::triggered, this, [this] {
        if (maybeSave())
            newBlank();
    });
    importHfAction_ = new QAction(this);
    connect(importHfAction_, &QAction::triggered, this, [this] {
        if (hasScenario_)
            modelEditor_->importFromDialog();
    });

    openAction_ = new QAction(this);
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-open"),
                                          style()->standardIcon(QStyle::SP_DialogOpenButton)));
    connect(openAction_, &QAction::triggered, this, &MainWindow::openFromDialog);

    saveAction_ = new QAction(this);
    saveAction_->setShortcut(QKeySequence::Save);
    saveAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-save"),
                                          style()->standardIcon(QStyle::SP_DialogSaveButton)));
    connect(saveAction_, &QAction::triggered, this, &MainWindow::saveScenario);

    saveAsAction_ = new QAction(this);
    saveAsAction_->setShortcut(QKeySequence::SaveAs);
    connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveFromDialog);

    undoAction_ = document_->undoStack()->createUndoAction(this);
    undoAction_->setShortcut(QKeySequence::Undo);
    undoAction_->setIcon(
        QIcon::fromTheme(QStringLiteral("edit-undo"), style()->standardIcon(QStyle::SP_ArrowBack)));
    redoAction_ = document_->undoStack()->createRedoAction(this);
    // Ctrl+Y as well as the platform's own (Ctrl+Shift+Z on Linux).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y)))
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    redoAction_->setShortcuts(redoKeys);
    redoAction_->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo"),
                                          style()->standardIcon(QStyle::SP_ArrowForward)));

    clearRecentAction_ = new QAction(this);
    connect(clearRecentAction_, &QAction::triggered, this, [this] {
        settings::recentFiles.clear();
        updateRecentFilesMenu();
    });

    quitAction_ = new QAction(this);
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    aboutAction_ = new QAction(this);
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);

    createLaunchActions();

    languageGroup_ = new QActionGroup(this);
    for (const char* code : {"", "en", "zh_CN"}) {
        QAction* action = languageGroup_->addAction(QString());
        action->setCheckable(true);
        action->setData(QString::fromLatin1(code));
        action->setChecked(settings::language.get() == QLatin1String(code));
        connect(action, &QAction::triggered, this,
                [this, code] { setLanguage(QString::fromLatin1(code)); });
    }
}

void MainWindow::createMenus() {
    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->addAction(newAction_);
    examplesMenu_ = fileMenu_->addMenu(QString());
    examplesMenu_->setIcon(QIcon::fromTheme(QStringLiteral("document-new")));
    const QDir examples(QStringLiteral(":/examples"));
    for (const QString& name : examples.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        const QString path = examples.filePath(name);
        QAction* action = examplesMenu_->addAction(QFileInfo(name).completeBaseName());
        connect(action, &QAction::triggered, this, [this, path] {
            if (maybeSave())
                newFromExample(path);
        });
    }
    fileMenu_->addAction(openAction_);
    recentMenu_ = fileMenu_->addMenu(QString());
    fileMenu_->addSeparator();
    fileMenu_->addAction(saveAction_);
    fileMenu_->addAction(saveAsAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(exportLaunchAction_);
    fileMenu_->addAction(importJobAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(quitAction_);

    editMenu_ = menuBar()->addMenu(QString());
    editMenu_->addAction(undoAction_);
    editMenu_->addAction(redoAction_);

    modelMenu_ = menuBar()->addMenu(QString());
    modelMenu_->addAction(importHfAction_);

    viewMenu_ = menuBar()->addMenu(QString());
    for (QDockWidget* dock : {modelDock_, clusterDock_, planDock_, trainingDock_, costsDock_,
                              scenarioDock_, messagesDock_, historyDock_})
        viewMenu_->addAction(dock->toggleViewAction());
    viewMenu_->addSeparator();
    languageMenu_ = viewMenu_->addMenu(QString());
    languageMenu_->addActions(languageGroup_->actions());

    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->addAction(aboutAction_);
}

void MainWindow::createToolBar() {
    toolBar_ = addToolBar(QString());
    toolBar_->setObjectName(QStringLiteral("mainToolBar"));
    toolBar_->setMovable(false);
    toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar_->addAction(newAction_);
    toolBar_->addAction(openAction_);
    toolBar_->addAction(saveAction_);
    toolBar_->addSeparator();
    toolBar_->addAction(undoAction_);
    toolBar_->addAction(redoAction_);
    auto* spacer = new QWidget(toolBar_);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolBar_->addWidget(spacer);
    toolBar_->addWidget(badge_);
}

void MainWindow::retranslateActions() {
    fileMenu_->setTitle(tr("&File"));
    examplesMenu_->setTitle(tr("&New from Example"));
    recentMenu_->setTitle(tr("Open &Recent"));
    editMenu_->setTitle(tr("&Edit"));
    modelMenu_->setTitle(tr("&Model"));
    newAction_->setText(tr("&New"));
    newAction_->setStatusTip(tr("A new scenario with only the required keys, to edit"));
    importHfAction_->setText(tr("Import Hugging Face config.json…"));
    importHfAction_->setStatusTip(
        tr("Replace the model by the architecture of a Hugging Face config.json"));
    viewMenu_->setTitle(tr("&View"));
    languageMenu_->setTitle(tr("&Language"));
    helpMenu_->setTitle(tr("&Help"));
    toolBar_->setWindowTitle(tr("Main toolbar"));
    openAction_->setText(tr("&Open Scenario…"));
    openAction_->setStatusTip(tr("Open a scenario file (trainscape.scenario/1 JSON)"));
    saveAction_->setText(tr("&Save"));
    saveAction_->setStatusTip(tr("Save the scenario (written atomically)"));
    saveAsAction_->setText(tr("Save &As…"));
    undoAction_->setText(tr("&Undo"));
    redoAction_->setText(tr("&Redo"));
    clearRecentAction_->setText(tr("&Clear List"));
    quitAction_->setText(tr("&Quit"));
    aboutAction_->setText(tr("&About Trainscape"));
    retranslateLaunchActions();
    const QStringList languages = {tr("System language"), QStringLiteral("English"),
                                   QStringLiteral("简体中文")};
    for (int i = 0; i < languageGroup_->actions().size(); ++i)
        languageGroup_->actions()[i]->setText(languages.value(i));
}

void MainWindow::setLanguage(const QString& language) {
    if (rememberSettings_)
        settings::language.set(language);
    if (language.isEmpty() || language == QLatin1String("en")) {
        removeTranslations();
        if (language.isEmpty())
            installTranslations(QString());
    } else {
        installTranslations(language);
    }
}

void MainWindow::rememberRecentFile(const QString& path) {
    if (!rememberSettings_)
        return;
    QStringList files = settings::recentFiles;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > settings::kMaxRecentFiles)
        files.removeLast();
    settings::recentFiles.set(files);
    settings::lastDirectory.set(QFileInfo(absolute).path());
    updateRecentFilesMenu();
}

void MainWindow::updateRecentFilesMenu() {
    recentMenu_->clear();
    const QStringList files = settings::recentFiles;
    for (const QString& file : files) {
        QAction* action = recentMenu_->addAction(QFileInfo(file).fileName());
        action->setToolTip(QDir::toNativeSeparators(file));
        connect(action, &QAction::triggered, this, [this, file] {
            if (maybeSave())
                openScenario(file);
        });
    }
    recentMenu_->addSeparator();
    recentMenu_->addAction(clearRecentAction_);
    recentMenu_->setEnabled(!files.isEmpty());
}

} // namespace ts::gui
