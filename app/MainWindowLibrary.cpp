// The main window's library side (issue 14): the Library and Compare tabs, "Save to library"
// beside Save, and opening a stored version as the document.

#include "MainWindow.h"

#include "CompareView.h"
#include "LibraryView.h"
#include "ScenarioDocument.h"

#include "scenario/ScenarioIO.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include <cstdlib>

namespace ts::gui {

void MainWindow::createLibraryViews() {
    libraryView_ = new LibraryView(tabs_);
    compareView_ = new CompareView(tabs_);
    tabs_->addTab(libraryView_, QString());
    tabs_->addTab(compareView_, QString());
    // $TRAINSCAPE_LIBRARY (a file or a postgresql:// URL) as for trainscape-cli, else the
    // default file under the XDG data folder.
    const char* env = std::getenv("TRAINSCAPE_LIBRARY");
    const std::string location = env && *env ? env : store::defaultLibraryPath();
    auto library = store::openLibrary(location);
    if (library) {
        std::shared_ptr<store::Library> shared(std::move(*library));
        libraryView_->setLibrary(shared);
        compareView_->setLibrary(shared);
    } else {
        statusBar()->showMessage(QString::fromStdString(library.error().message), 10000);
    }
    connect(libraryView_, &LibraryView::openVersionRequested, this,
            &MainWindow::openLibraryVersion);
    connect(libraryView_, &LibraryView::libraryChanged, compareView_, &CompareView::refresh);

    saveToLibraryAction_ = new QAction(this);
    connect(saveToLibraryAction_, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString note =
            QInputDialog::getText(this, tr("Save to library"), tr("Note for this version:"),
                                  QLineEdit::Normal, QString(), &ok);
        if (ok)
            saveToLibrary(note);
    });
    fileMenu_->insertAction(saveAsAction_, saveToLibraryAction_);
    const QList<QAction*> tools = toolBar_->actions();
    const int save = static_cast<int>(tools.indexOf(saveAction_));
    toolBar_->insertAction(save + 1 < tools.size() ? tools[save + 1] : nullptr,
                           saveToLibraryAction_);
}

void MainWindow::retranslateLibrary() {
    tabs_->setTabText(tabs_->indexOf(libraryView_), tr("Library"));
    tabs_->setTabText(tabs_->indexOf(compareView_), tr("Compare"));
    saveToLibraryAction_->setText(tr("Save to &Library…"));
    saveToLibraryAction_->setStatusTip(
        tr("Save the scenario as a new version in the scenario library"));
}

bool MainWindow::saveToLibrary(const QString& note) {
    const auto& library = libraryView_->library();
    if (!hasScenario_ || !library)
        return false;
    const std::string text = scenarioToText(document_->scenario());
    if (libraryScenario_ != 0) {
        auto saved =
            library->saveVersion(libraryScenario_, text, note.toStdString(), libraryVersion_);
        if (!saved) {
            statusBar()->showMessage(QString::fromStdString(saved.error().message), 10000);
            return false;
        }
        libraryVersion_ = *saved;
    } else {
        auto added = library->addScenario(document_->displayName().toStdString(), text,
                                          note.toStdString(), {});
        if (!added) {
            statusBar()->showMessage(QString::fromStdString(added.error().message), 10000);
            return false;
        }
        libraryScenario_ = *added;
        libraryVersion_ = 1;
    }
    statusBar()->showMessage(
        tr("Saved as version %1 of library scenario %2").arg(libraryVersion_).arg(libraryScenario_),
        6000);
    libraryView_->refresh();
    libraryView_->selectScenario(libraryScenario_);
    compareView_->refresh();
    return true;
}

void MainWindow::openLibraryVersion(const QString& scenarioJson, qint64 scenarioId, int version,
                                    const QString& name) {
    if (!maybeSave())
        return;
    Diagnostics diags;
    std::optional<Scenario> scenario = parseScenarioText(scenarioJson.toStdString(), diags);
    if (!scenario) {
        statusBar()->showMessage(tr("Version %1 of “%2” cannot be read").arg(version).arg(name),
                                 10000);
        return;
    }
    loadFailure_.reset();
    hasScenario_ = true;
    document_->reset(*scenario, {}, false); // no file; saved as it is in the library
    libraryScenario_ = scenarioId;
    libraryVersion_ = version;
    tabs_->setCurrentIndex(0);
    statusBar()->showMessage(
        tr("Opened version %1 of “%2” from the library").arg(version).arg(name), 6000);
}

} // namespace ts::gui
