#include "ExportDialog.h"

#include "LaunchFileHighlighter.h"
#include "ScenarioDocument.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ts::gui {

ExportDialog::ExportDialog(ScenarioDocument* document, QWidget* parent)
    : QDialog(parent), document_(document), targets_(new QListWidget(this)),
      pages_(new QStackedWidget(this)), files_(new QTabWidget(this)), refusals_(new QLabel(this)),
      summary_(new QLabel(this)), adapt_(new QCheckBox(this)), saveButton_(new QPushButton(this)),
      copyButton_(new QPushButton(this)) {
    for (const auto& e : exporters()) {
        auto* item = new QListWidgetItem(QString::fromStdString(std::string(e->title())), targets_);
        item->setData(Qt::UserRole, QString::fromStdString(std::string(e->id())));
    }
    targets_->setMinimumWidth(targets_->sizeHintForColumn(0) + 24);
    targets_->setMaximumWidth(targets_->sizeHintForColumn(0) + 24);
    refusals_->setWordWrap(true);
    refusals_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    refusals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    refusals_->setObjectName(QStringLiteral("refusals"));
    refusals_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; padding: 12px; }"));
    pages_->addWidget(files_);
    pages_->addWidget(refusals_);
    summary_->setWordWrap(true);

    auto* right = new QVBoxLayout;
    right->addWidget(adapt_);
    right->addWidget(summary_);
    right->addWidget(pages_, 1);
    auto* body = new QHBoxLayout;
    body->addWidget(targets_);
    body->addLayout(right, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(copyButton_, QDialogButtonBox::ActionRole);
    buttons->addButton(saveButton_, QDialogButtonBox::AcceptRole);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    disconnect(buttons, &QDialogButtonBox::accepted, nullptr, nullptr);
    connect(saveButton_, &QPushButton::clicked, this, &ExportDialog::saveFromDialog);
    connect(copyButton_, &QPushButton::clicked, this, &ExportDialog::copyCurrent);
    connect(targets_, &QListWidget::currentRowChanged, this, &ExportDialog::render);
    connect(adapt_, &QCheckBox::toggled, this, &ExportDialog::render);
    connect(document_, &ScenarioDocument::changed, this, &ExportDialog::render);
    retranslate();
    resize(1100, 720);
    targets_->setCurrentRow(0);
}

void ExportDialog::retranslate() {
    setWindowTitle(tr("Export Launch Configuration"));
    saveButton_->setText(tr("&Save to Folder…"));
    copyButton_->setText(tr("&Copy File"));
    adapt_->setText(tr("&Adapt plan to this target"));
    adapt_->setToolTip(tr("Where the target refuses a setting, show the nearest plan it runs: "
                          "every change listed, re-estimated, and the adapted scenario saved "
                          "with the launch files"));
}

void ExportDialog::setAdapt(bool on) {
    adapt_->setChecked(on);
}

bool ExportDialog::adapting() const {
    return adapt_->isChecked();
}

void ExportDialog::adaptRefused(const Exporter& exporter) {
    adaptation_ =
        adaptAndExport(scenarioToJson(document_->scenario()), exporter, Catalog::builtIn(), {});
    if (adaptation_->ok()) {
        result_ = adaptation_->result;
        return;
    }
    result_.files.clear();
    result_.refusals = adaptation_->refusals;
}

// "Adapted: 3 changes. Step 8.41 s -> 9.02 s, peak 71.2 -> 64.0 GiB of 80.0 GiB."
QString ExportDialog::adaptationSummary() const {
    const auto& a = *adaptation_;
    const double gib = double(1ull << 30);
    QString changes;
    for (const auto& c : a.changes)
        changes += QStringLiteral("<br><code>%1</code>: %2 → %3")
                       .arg(QString::fromStdString(c.path).toHtmlEscaped(),
                            QString::fromStdString(c.before.dump()).toHtmlEscaped(),
                            QString::fromStdString(c.after.dump()).toHtmlEscaped());
    return tr("<b>Adapted plan</b>, %n change(s) (ADAPTATION.md): step %1 s → %2 s, peak %3 → "
              "%4 GiB of %5 GiB.",
              nullptr, int(a.changes.size()))
               .arg(a.before.stepSeconds, 0, 'f', 2)
               .arg(a.after.stepSeconds, 0, 'f', 2)
               .arg(a.before.peakBytes / gib, 0, 'f', 1)
               .arg(a.after.peakBytes / gib, 0, 'f', 1)
               .arg(a.after.capacityBytes / gib, 0, 'f', 1) +
           changes;
}

bool ExportDialog::selectTarget(const QString& id) {
    for (int i = 0; i < targets_->count(); ++i)
        if (targets_->item(i)->data(Qt::UserRole).toString() == id) {
            targets_->setCurrentRow(i);
            return true;
        }
    return false;
}

QString ExportDialog::currentTarget() const {
    const auto* item = targets_->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void ExportDialog::render() {
    result_ = {};
    adaptation_.reset();
    const Exporter* exporter = findExporter(currentTarget().toStdString());
    const auto& plan = document_->resolved();
    if (!exporter)
        return;
    if (!plan)
        result_.refusals.push_back(
            {"", tr("The scenario does not resolve; fix the fields marked in red first.")
                     .toStdString()});
    else
        result_ = exporter->render(*plan, {});
    if (plan && !result_.ok() && adapt_->isChecked())
        adaptRefused(*exporter);
    showResult();
}

void ExportDialog::showResult() {
    const int tab = files_->currentIndex();
    files_->clear();
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (const auto& file : result_.files) {
        auto* view = new QPlainTextEdit(files_);
        view->setReadOnly(true);
        view->setFont(mono);
        view->setLineWrapMode(QPlainTextEdit::NoWrap);
        new LaunchFileHighlighter(view->document(), file.syntax); // before the text: no delay
        view->setPlainText(QString::fromStdString(file.text));
        files_->addTab(view, QString::fromStdString(file.name));
    }
    if (tab >= 0 && tab < files_->count())
        files_->setCurrentIndex(tab);
    const bool ok = result_.ok();
    QString text;
    if (!ok) {
        text = (adaptation_ ? tr("%1 runs no adapted plan:")
                            : tr("%1 cannot express this plan (Adapt plan to this target "
                                 "shows the nearest plan it runs):"))
                   .arg(targets_->currentItem()->text()) +
               QStringLiteral("<ul>");
        for (const auto& r : result_.refusals)
            text += QStringLiteral("<li><b>%1</b> %2</li>")
                        .arg(QString::fromStdString(r.path).toHtmlEscaped(),
                             QString::fromStdString(r.message).toHtmlEscaped());
        text += QStringLiteral("</ul>");
    }
    refusals_->setText(text);
    pages_->setCurrentIndex(ok ? 0 : 1);
    const QString files =
        ok ? tr("%n file(s), written atomically on Save.", nullptr, int(result_.files.size()))
           : QString();
    summary_->setText(ok && adaptation_ ? adaptationSummary() + QStringLiteral("<br>") + files
                                        : files);
    saveButton_->setEnabled(ok);
    copyButton_->setEnabled(ok);
    markTargets();
}

// Every target in the list in red, with its first refusal as tooltip, when it cannot express
// the plan: the user sees at once which launchers fit.
void ExportDialog::markTargets() {
    const auto& plan = document_->resolved();
    for (int i = 0; i < targets_->count(); ++i) {
        auto* item = targets_->item(i);
        const Exporter* e = findExporter(item->data(Qt::UserRole).toString().toStdString());
        const ExportResult r = plan && e ? e->render(*plan, {}) : ExportResult{};
        const bool ok = r.ok();
        item->setForeground(ok ? palette().color(QPalette::Text) : QColor(0xb0, 0x00, 0x20));
        item->setToolTip(ok || r.refusals.empty()
                             ? QString()
                             : QString::fromStdString(r.refusals.front().toString()));
    }
}

QString ExportDialog::currentFileText() const {
    const auto* view = qobject_cast<const QPlainTextEdit*>(files_->currentWidget());
    return view ? view->toPlainText() : QString();
}

bool ExportDialog::saveTo(const QString& folder, QString* error) {
    std::string message;
    if (writeExport(result_, folder.toStdString(), message))
        return true;
    if (error)
        *error = QString::fromStdString(message);
    return false;
}

void ExportDialog::saveFromDialog() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Save Launch Files To"));
    if (folder.isEmpty())
        return;
    QString error;
    if (!saveTo(folder, &error))
        QMessageBox::warning(this, windowTitle(), error);
    else
        summary_->setText(
            tr("Saved %n file(s) to %1.", nullptr, int(result_.files.size())).arg(folder));
}

void ExportDialog::copyCurrent() {
    QApplication::clipboard()->setText(currentFileText());
}

} // namespace ts::gui
