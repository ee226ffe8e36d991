// MainWindow: the document's life (open, new, save, the save prompt) and the estimate that
// follows every change.

#include "MainWindow.h"

#include "ClusterEditor.h"
#include "CoreMessages.h"
#include "CostsEditor.h"
#include "DiagnosticsModel.h"
#include "EstimateBadge.h"
#include "EstimateCards.h"
#include "ModelEditor.h"
#include "PlanEditor.h"
#include "PlanLayoutView.h"
#include "QuantityText.h"
#include "ResultsDashboard.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"
#include "ScenarioSummaryModel.h"
#include "Settings.h"
#include "TrainingEditor.h"

#include "scenario/ScenarioIO.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QTreeView>

namespace ts::gui {

QString MainWindow::scenarioPath() const {
    return loadFailure_ ? failedPath_ : document_->filePath();
}

const std::optional<ResolvedScenario>& MainWindow::scenario() const {
    static const std::optional<ResolvedScenario> none;
    return hasScenario_ ? document_->resolved() : none;
}

bool MainWindow::openScenario(const QString& path) {
    Diagnostics diags;
    loadFailure_.reset();
    hasScenario_ = true;
    if (!document_->load(path, diags)) {
        hasScenario_ = false;
        loadFailure_ = diags;
        failedPath_ = path;
        document_->reset(Scenario{}, {}, false); // nothing to edit, nothing to save
        QFile file(path);
        if (file.open(QIODevice::ReadOnly | QIODevice::Text))
            sourceView_->setPlainText(QString::fromUtf8(file.read(kMaxDocumentBytes)));
    } else {
        rememberRecentFile(path); // a file that cannot be read is no recent file
    }
    const bool valid = hasScenario_ && document_->resolved().has_value();
    if (!valid) {
        // Show the errors next to what they point into.
        messagesDock_->show();
        messagesDock_->raise();
        if (!hasScenario_)
            tabs_->setCurrentWidget(sourceView_);
    } else {
        tabs_->setCurrentIndex(0);
    }
    emit scenarioOpened(path, valid);
    return valid;
}

bool MainWindow::newFromExample(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    Diagnostics diags;
    std::optional<Scenario> scenario = parseScenarioText(file.readAll().toStdString(), diags);
    if (!scenario)
        return false;
    loadFailure_.reset();
    hasScenario_ = true;
    // Untitled, but nothing is lost by closing it until it is edited.
    document_->reset(*scenario, {}, false);
    document_->setSuggestedStem(QFileInfo(path).completeBaseName());
    tabs_->setCurrentIndex(0);
    return true;
}

void MainWindow::newBlank() {
    // The required keys only (scenario format), on a small, common system.
    const char* text = R"({"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"},
        "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 4096, "global_batch": 64}})";
    Diagnostics diags;
    std::optional<Scenario> scenario = parseScenarioText(text, diags);
    if (!scenario)
        return;
    loadFailure_.reset();
    hasScenario_ = true;
    document_->reset(*scenario, {}, false);
    tabs_->setCurrentIndex(0);
}

QString MainWindow::dialogDirectory() const {
    const QString path = scenarioPath();
    if (!path.isEmpty())
        return QFileInfo(path).absolutePath();
    const QString last = settings::lastDirectory;
    return last.isEmpty() ? QDir::homePath() : last;
}

bool MainWindow::saveScenario() {
    if (!hasScenario_)
        return false;
    if (document_->filePath().isEmpty())
        return saveFromDialog();
    return saveScenarioAs(document_->filePath());
}

bool MainWindow::saveScenarioAs(const QString& path) {
    QString error;
    if (!document_->save(path, &error)) {
        statusBar()->showMessage(tr("Cannot save %1: %2").arg(path, error));
        if (rememberSettings_)
            QMessageBox::warning(this, tr("Save Scenario"),
                                 tr("Cannot save %1:\n%2").arg(path, error));
        return false;
    }
    rememberRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
    return true;
}

bool MainWindow::saveFromDialog() {
    // Where Open starts, with a short name (the file's, the example's, or model and GPUs).
    const QString start = dialogDirectory() + QLatin1Char('/') + document_->suggestedFileName();
    QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario"), start,
                                                tr("Scenario files (*.json);;All files (*)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return saveScenarioAs(path);
}

bool MainWindow::maybeSave() {
    if (!hasScenario_ || !document_->isModified())
        return true;
    const int answer =
        savePromptOverride_
            ? savePromptOverride_
            : QMessageBox::warning(this, tr("Unsaved Changes"),
                                   tr("“%1” has changes that are not saved. Save them?")
                                       .arg(document_->displayName()),
                                   QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                   QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return saveScenario();
    return answer == QMessageBox::Discard;
}

void MainWindow::openFromDialog() {
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), dialogDirectory(),
                                                      tr("Scenario files (*.json);;All files (*)"));
    if (!path.isEmpty())
        openScenario(path);
}

bool MainWindow::waitForEstimate(int timeoutMs) {
    return runner_->waitForIdle(timeoutMs);
}

void MainWindow::documentChanged() {
    const std::optional<ResolvedScenario>& resolved = document_->resolved();
    const bool valid = hasScenario_ && resolved.has_value();
    if (valid)
        summaryModel_->setScenario(*resolved);
    else
        summaryModel_->clear();
    planLayout_->setScenario(valid ? &*resolved : nullptr);
    if (hasScenario_)
        sourceView_->setPlainText(QString::fromStdString(scenarioToText(document_->scenario())));
    else if (!loadFailure_)
        sourceView_->clear();
    for (QWidget* editor : std::initializer_list<QWidget*>{
             modelEditor_, clusterEditor_, planEditor_, trainingEditor_, costsEditor_})
        editor->setEnabled(hasScenario_);
    saveAction_->setEnabled(hasScenario_);
    saveAsAction_->setEnabled(hasScenario_);
    importHfAction_->setEnabled(hasScenario_);

    estimateDiagnostics_ = Diagnostics();
    if (!hasScenario_ || !valid) {
        runner_->cancel();
        estimate_.reset();
        explanation_.reset();
        showEstimate(nullptr, {});
    } else if (!runner_->hasEstimator()) {
        showEstimate(nullptr, {});
    } else {
        // The previous estimate stays until the new one arrives (a few ms at most).
        runner_->request(*resolved);
    }
    Diagnostics all = loadFailure_ ? *loadFailure_ : document_->diagnostics();
    if (!hasScenario_ && !loadFailure_)
        all = Diagnostics();
    diagnosticsModel_->setDiagnostics(all);
    updateHeader();
    updateStatus();
}

void MainWindow::estimateFinished(const std::shared_ptr<const EstimateResult>& result) {
    if (!hasScenario_ || !document_->resolved())
        return;
    estimate_ = result->estimate;
    explanation_ = result->explanation;
    estimateDiagnostics_ = result->diagnostics;
    document_->setEstimateDiagnostics(result->diagnostics); // "not modelled" marks its field
    if (estimate_)
        for (const Message& warning : estimate_->warnings)
            estimateDiagnostics_.warning("", warning);
    showEstimate(estimate_ ? &*estimate_ : nullptr, {});
    Diagnostics all = document_->diagnostics();
    all.append(estimateDiagnostics_);
    diagnosticsModel_->setDiagnostics(all);
    statusTiming_->setText(tr("estimated in %1 ms").arg(numberText(result->elapsedMs, 2)));
    updateStatus();
    emit estimateUpdated();
}

void MainWindow::showEstimate(const Estimate* estimate, const QString& given) {
    QString reason = given;
    if (reason.isEmpty()) {
        if (!hasScenario_ && !loadFailure_)
            reason = tr("no scenario open");
        else if (!hasScenario_ || !document_->resolved())
            reason = tr("not computed: the scenario is not valid");
        else if (!runner_->hasEstimator())
            reason = tr("estimator not available");
        else if (!estimate && !estimateDiagnostics_.errors().empty())
            reason =
                tr("not computed: %1").arg(diagnosticText(estimateDiagnostics_.errors().front()));
        else if (!estimate)
            reason = tr("not computed");
    }
    const std::optional<ResolvedScenario>& resolved = document_->resolved();
    dashboard_->setExplanation(estimate && explanation_ ? &*explanation_ : nullptr,
                               estimate ? QString() : reason);
    estimateCards_->setEstimate(estimate, reason);
    dashboard_->setEstimate(estimate, resolved ? &*resolved : nullptr, reason);
    badge_->setEstimate(estimate, reason);
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
    const std::string path = index.siblingAtColumn(DiagnosticsModel::PathColumn)
                                 .data(DiagnosticsModel::JsonPathRole)
                                 .toString()
                                 .toStdString();
    // The editor field of that path, or of its nearest ancestor that has one.
    const std::pair<ScenarioForm*, QDockWidget*> forms[] = {
        {modelEditor_->form(), modelDock_},
        {clusterEditor_->form(), clusterDock_},
        {planEditor_->form(), planDock_},
        {trainingEditor_->form(), trainingDock_},
        {costsEditor_->form(), costsDock_}};
    for (std::string p = path; !p.empty(); p = p.substr(0, p.rfind('/'))) {
        for (const auto& [form, dock] : forms) {
            if (QWidget* field = form->field(p)) {
                dock->show();
                dock->raise();
                field->setFocus(Qt::OtherFocusReason);
                return;
            }
        }
    }
    const QModelIndex target = summaryModel_->indexForJsonPath(QString::fromStdString(path));
    if (!target.isValid())
        return;
    scenarioDock_->show();
    scenarioDock_->raise();
    summaryView_->setCurrentIndex(target);
    summaryView_->scrollTo(target);
}

} // namespace ts::gui
