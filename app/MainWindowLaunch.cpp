// MainWindow: File > Export launch configuration… and File > Import job… (core/export,
// core/import through widgets/ExportDialog and widgets/ImportJobDialog).

#include "MainWindow.h"

#include "ExportDialog.h"
#include "ImportJobDialog.h"
#include "ScenarioDocument.h"

#include <QAction>

namespace ts::gui {

void MainWindow::createLaunchActions() {
    exportLaunchAction_ = new QAction(this);
    connect(exportLaunchAction_, &QAction::triggered, this, &MainWindow::showExportDialog);
    importJobAction_ = new QAction(this);
    connect(importJobAction_, &QAction::triggered, this, &MainWindow::showImportJobDialog);
}

void MainWindow::retranslateLaunchActions() {
    exportLaunchAction_->setText(tr("&Export Launch Configuration…"));
    exportLaunchAction_->setStatusTip(
        tr("Megatron-LM, Megatron-Bridge, DeepSpeed, torchtitan, torchtune, Slurm or Kubernetes "
           "files for this plan"));
    importJobAction_->setText(tr("&Import Job…"));
    importJobAction_->setStatusTip(
        tr("Read a Megatron-LM launch script, a DeepSpeed config or a torchtitan TOML as a new "
           "scenario"));
}

void MainWindow::showExportDialog() {
    ExportDialog dialog(document_, this);
    dialog.exec();
}

void MainWindow::showImportJobDialog() {
    ImportJobDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.scenario() || !maybeSave())
        return;
    document_->reset(*dialog.scenario());
}

} // namespace ts::gui
