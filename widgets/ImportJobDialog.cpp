#include "ImportJobDialog.h"

#include "LaunchFileHighlighter.h"

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ts::gui {

ImportJobDialog::ImportJobDialog(QWidget* parent)
    : QDialog(parent), format_(new QComboBox(this)), file_(new QLineEdit(this)),
      hfConfig_(new QLineEdit(this)), seqLen_(new QSpinBox(this)), cluster_(new QComboBox(this)),
      preview_(new QPlainTextEdit(this)), messages_(new QPlainTextEdit(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      formatLabel_(new QLabel(this)), fileLabel_(new QLabel(this)), hfLabel_(new QLabel(this)),
      seqLabel_(new QLabel(this)), clusterLabel_(new QLabel(this)) {
    format_->addItem(QStringLiteral("Megatron-LM"), int(ImportFormat::Megatron));
    format_->addItem(QStringLiteral("DeepSpeed"), int(ImportFormat::DeepSpeed));
    format_->addItem(QStringLiteral("torchtitan"), int(ImportFormat::Torchtitan));
    for (const auto& [id, preset] : Catalog::builtIn().clusters())
        cluster_->addItem(QString::fromStdString(id));
    cluster_->setCurrentText(QStringLiteral("dgx-h100"));
    seqLen_->setRange(1, 1 << 24);
    seqLen_->setValue(8192);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (auto* view : {preview_, messages_}) {
        view->setReadOnly(true);
        view->setFont(mono);
    }
    new LaunchFileHighlighter(preview_->document(), FileSyntax::Json);
    auto* browseFile = new QPushButton(tr("Browse…"), this);
    auto* browseHf = new QPushButton(tr("Browse…"), this);
    auto* form = new QGridLayout;
    form->addWidget(formatLabel_, 0, 0);
    form->addWidget(format_, 0, 1, 1, 2);
    form->addWidget(fileLabel_, 1, 0);
    form->addWidget(file_, 1, 1);
    form->addWidget(browseFile, 1, 2);
    form->addWidget(hfLabel_, 2, 0);
    form->addWidget(hfConfig_, 2, 1);
    form->addWidget(browseHf, 2, 2);
    form->addWidget(seqLabel_, 3, 0);
    form->addWidget(seqLen_, 3, 1, 1, 2);
    form->addWidget(clusterLabel_, 4, 0);
    form->addWidget(cluster_, 4, 1, 1, 2);
    auto* views = new QHBoxLayout;
    views->addWidget(preview_, 3);
    views->addWidget(messages_, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(views, 1);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browseFile, &QPushButton::clicked, this, [this] { browse(file_, QString()); });
    connect(browseHf, &QPushButton::clicked, this,
            [this] { browse(hfConfig_, tr("Hugging Face config (*.json)")); });
    connect(format_, &QComboBox::currentIndexChanged, this, &ImportJobDialog::read);
    connect(file_, &QLineEdit::editingFinished, this, &ImportJobDialog::read);
    connect(hfConfig_, &QLineEdit::editingFinished, this, &ImportJobDialog::read);
    connect(seqLen_, &QSpinBox::valueChanged, this, &ImportJobDialog::read);
    connect(cluster_, &QComboBox::currentIndexChanged, this, &ImportJobDialog::read);
    retranslate();
    resize(1000, 680);
    read();
}

void ImportJobDialog::retranslate() {
    setWindowTitle(tr("Import Job"));
    formatLabel_->setText(tr("Format:"));
    fileLabel_->setText(tr("Launch file:"));
    hfLabel_->setText(tr("Model config (DeepSpeed):"));
    seqLabel_->setText(tr("Sequence length (DeepSpeed):"));
    clusterLabel_->setText(tr("Cluster preset:"));
}

void ImportJobDialog::setJob(const QString& path, ImportFormat format) {
    file_->setText(path);
    format_->setCurrentIndex(format_->findData(int(format)));
    read();
}

void ImportJobDialog::setHuggingFaceConfig(const QString& path) {
    hfConfig_->setText(path);
    read();
}

void ImportJobDialog::setSequenceLength(int tokens) {
    seqLen_->setValue(tokens);
}

QString ImportJobDialog::messages() const {
    return messages_->toPlainText();
}

void ImportJobDialog::browse(QLineEdit* edit, const QString& filter) {
    const QString path = QFileDialog::getOpenFileName(this, windowTitle(), edit->text(), filter);
    if (!path.isEmpty()) {
        edit->setText(path);
        read();
    }
}

void ImportJobDialog::read() {
    scenario_.reset();
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
    preview_->clear();
    const auto format = ImportFormat(format_->currentData().toInt());
    hfConfig_->setEnabled(format == ImportFormat::DeepSpeed);
    seqLen_->setEnabled(format == ImportFormat::DeepSpeed);
    if (file_->text().isEmpty()) {
        messages_->setPlainText(tr("Choose a launch file to read."));
        return;
    }
    QStringList lines;
    ImportInput input;
    QFile file(file_->text());
    if (!file.open(QIODevice::ReadOnly)) {
        messages_->setPlainText(tr("Cannot read %1: %2").arg(file_->text(), file.errorString()));
        return;
    }
    input.text = file.readAll().toStdString();
    input.clusterPreset = cluster_->currentText().toStdString();
    if (format == ImportFormat::DeepSpeed) {
        input.seqLen = seqLen_->value();
        QFile hf(hfConfig_->text());
        if (!hfConfig_->text().isEmpty() && hf.open(QIODevice::ReadOnly)) {
            auto parsed = nlohmann::json::parse(hf.readAll().toStdString(), nullptr, false);
            if (!parsed.is_discarded())
                input.hfConfig = parsed;
        }
    }
    const ImportResult result = importLaunchConfig(format, input);
    for (const auto& u : result.unsupported)
        lines << tr("Not read: %1").arg(QString::fromStdString(u));
    for (const auto& i : result.ignored)
        lines << tr("Ignored (no effect on the plan): %1").arg(QString::fromStdString(i));
    for (const auto& n : result.notes)
        lines << QString::fromStdString(n);
    if (!result.scenario) {
        lines.prepend(QString::fromStdString(result.error));
        messages_->setPlainText(lines.join('\n'));
        return;
    }
    preview_->setPlainText(QString::fromStdString(result.scenario->dump(2)));
    Diagnostics diags;
    auto scenario = scenarioFromJson(*result.scenario, diags);
    if (scenario && resolveScenario(*scenario, Catalog::builtIn(), diags)) {
        scenario_ = scenario;
        buttons_->button(QDialogButtonBox::Ok)->setEnabled(true);
    }
    for (const auto& d : diags.all())
        lines.prepend(QString::fromStdString(d.toString()));
    messages_->setPlainText(lines.isEmpty() ? tr("Every flag was read.") : lines.join('\n'));
}

} // namespace ts::gui
