#include "ClusterEditor.h"

#include "EnumLabels.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"

#include "catalog/Catalog.h"

#include <QDoubleValidator>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

std::vector<FieldChoice> clusterPresets() {
    std::vector<FieldChoice> choices;
    for (const auto& [id, preset] : Catalog::builtIn().clusters())
        choices.push_back(
            {QString::fromStdString(preset.name), id, true, QString::fromStdString(preset.notes)});
    return choices;
}

std::vector<FieldChoice> gpuPresets() {
    std::vector<FieldChoice> choices;
    for (const auto& [id, gpu] : Catalog::builtIn().gpus())
        choices.push_back(
            {QString::fromStdString(gpu.spec.name), id, true, QString::fromStdString(gpu.notes)});
    return choices;
}

// The cluster.host keys (scenario format) that bound ZeRO-Offload / ZeRO-Infinity.
const char* const kHostKeys[] = {"pcie_gb_s",      "memory_gib",      "memory_gb_s",
                                 "nvme_read_gb_s", "nvme_write_gb_s", "nvme_gib"};

struct HostText {
    QString label;
    QString toolTip;
};

HostText hostText(const std::string& key) {
    if (key == "pcie_gb_s")
        return {ClusterEditor::tr("PCIe per GPU (GB/s)"),
                ClusterEditor::tr("GPU–host link of one GPU, per direction")};
    if (key == "memory_gib")
        return {ClusterEditor::tr("Memory per node (GiB)"),
                ClusterEditor::tr("Host (CPU) memory of one node, where offloaded states live")};
    if (key == "memory_gb_s")
        return {ClusterEditor::tr("Memory bandwidth (GB/s)"),
                ClusterEditor::tr("DRAM bandwidth of one node, all sockets")};
    if (key == "nvme_read_gb_s")
        return {ClusterEditor::tr("NVMe read (GB/s)"),
                ClusterEditor::tr("All NVMe drives of one node together")};
    if (key == "nvme_write_gb_s")
        return {ClusterEditor::tr("NVMe write (GB/s)"),
                ClusterEditor::tr("All NVMe drives of one node together")};
    return {ClusterEditor::tr("NVMe capacity (GiB)"),
            ClusterEditor::tr("All NVMe drives of one node, in GiB of 2³⁰ bytes")};
}

QString numberText(const nlohmann::ordered_json& value) {
    return value.is_number() ? QLocale().toString(value.get<double>(), 'g', 8) : QString();
}

} // namespace

ClusterEditor::ClusterEditor(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    form_ = new ScenarioForm(document, [this] {
        FieldSpec preset = choiceField("/cluster/preset", tr("Cluster preset"), clusterPresets(),
                                       tr("A system from the catalog: GPU, node and networks"));
        // A new preset brings its own GPU and networks: the old overrides go.
        preset.changes = [](const nlohmann::ordered_json& value) {
            return std::vector<ScenarioValueChange>{{"/cluster/preset", value},
                                                    {"/cluster/gpu", std::nullopt},
                                                    {"/cluster/gpus_per_node", std::nullopt},
                                                    {"/cluster/scale_up", std::nullopt},
                                                    {"/cluster/scale_out", std::nullopt},
                                                    {"/cluster/host", std::nullopt}};
        };
        return std::vector<FieldSpec>{
            sectionField(tr("System")),
            preset,
            choiceField("/cluster/gpu", tr("GPU"), gpuPresets()),
            integerField("/cluster/num_gpus", tr("GPUs"), 1, 1e7),
            integerField("/cluster/gpus_per_node", tr("GPUs per node"), 1, 1024),
            sectionField(tr("Scale-up (NVLink) domain")),
            integerField("/cluster/scale_up/domain_gpus", tr("GPUs per domain"), 1, 1e5),
            realField("/cluster/scale_up/bandwidth_gb_s", tr("Bandwidth"), 0, 1e6, 0, tr(" GB/s"),
                      tr("Per GPU, per direction")),
            realField("/cluster/scale_up/latency_us", tr("Latency"), 0, 1e4, 2, tr(" µs")),
            sectionField(tr("Scale-out network")),
            choiceField("/cluster/scale_out/topology", tr("Topology"),
                        EnumLabels::scaleOutTopology()),
            realField("/cluster/scale_out/nic_gbit_s", tr("NIC speed"), 0, 1e5, 0, tr(" Gbit/s")),
            integerField("/cluster/scale_out/nics_per_node", tr("NICs per node"), 0, 64),
            realField("/cluster/scale_out/oversubscription", tr("Oversubscription"), 1, 64, 2,
                      tr(" : 1")),
            realField("/cluster/scale_out/latency_us", tr("Latency"), 0, 1e5, 2, tr(" µs")),
        };
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(form_);
    buildHostSection();
    layout->addStretch(1);
    connect(document_, &ScenarioDocument::changed, this, [this] {
        for (HostRow& row : hostRows_)
            row.refusal.clear();
        refreshHostSection();
    });
    connect(document_, &ScenarioDocument::validityChanged, this,
            &ClusterEditor::refreshHostSection);
    connect(document_, &ScenarioDocument::editRefused, this,
            [this](const QString& pointer, const QString& message) {
                for (HostRow& row : hostRows_)
                    if (pointer.toStdString() == row.pointer)
                        row.refusal = message;
                refreshHostSection();
            });
}

void ClusterEditor::buildHostSection() {
    auto* section = new QWidget(this);
    auto* form = new QFormLayout(section);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    form->setContentsMargins(10, 8, 10, 8); // as ScenarioForm
    form->setVerticalSpacing(5);
    hostTitle_ = new QLabel(section);
    QFont font = hostTitle_->font();
    font.setWeight(QFont::DemiBold);
    hostTitle_->setFont(font);
    form->addRow(hostTitle_);
    for (const char* key : kHostKeys) {
        HostRow row;
        row.pointer = std::string("/cluster/host/") + key;
        row.label = new QLabel(section);
        row.editor = new QLineEdit(section);
        row.editor->setObjectName(QString::fromStdString(row.pointer));
        row.editor->setClearButtonEnabled(true);
        auto* validator = new QDoubleValidator(0, 1e7, 6, row.editor);
        validator->setNotation(QDoubleValidator::StandardNotation);
        row.editor->setValidator(validator);
        row.label->setBuddy(row.editor);
        form->addRow(row.label, row.editor);
        hostRows_.push_back(row);
    }
    for (std::size_t i = 0; i < hostRows_.size(); ++i)
        connect(hostRows_[i].editor, &QLineEdit::editingFinished, this,
                [this, i] { commitHost(hostRows_[i]); });
    layout()->addWidget(section);
    retranslateHostSection();
}

void ClusterEditor::retranslateHostSection() {
    hostTitle_->setText(tr("Host (offload)"));
    for (HostRow& row : hostRows_)
        row.label->setText(hostText(row.pointer.substr(row.pointer.rfind('/') + 1)).label);
    refreshHostSection();
}

void ClusterEditor::refreshHostSection() {
    for (HostRow& row : hostRows_) {
        const auto explicitValue = document_->explicitValue(row.pointer);
        const auto preset = document_->resolvedValue(row.pointer);
        const QString key = QString::fromStdString(row.pointer.substr(row.pointer.rfind('/') + 1));
        {
            const QSignalBlocker blocker(row.editor); // back to the value in the file
            row.editor->setText(explicitValue ? numberText(*explicitValue) : QString());
        }
        // The preset's figure shows through while the file leaves the key out.
        row.editor->setPlaceholderText(!explicitValue && preset ? numberText(*preset)
                                                                : tr("unknown"));
        const QString error = row.refusal.isEmpty() ? document_->errorAt(row.pointer) : row.refusal;
        row.editor->setProperty("invalid", !error.isEmpty());
        row.editor->setPalette(error.isEmpty() ? QPalette()
                                               : ScenarioForm::invalidPalette(palette()));
        QString tip = hostText(key.toStdString()).toolTip;
        if (!error.isEmpty())
            tip = error;
        else if (!explicitValue)
            tip += QLatin1Char('\n') + (preset ? tr("Not set in the file: the cluster preset's "
                                                    "value. Type a figure to override it.")
                                               : tr("Not known for this cluster: type the "
                                                    "figure to bound offload by it."));
        row.editor->setToolTip(tip);
    }
}

void ClusterEditor::commitHost(HostRow& row) {
    row.refusal.clear();
    const QString text = row.editor->text().trimmed();
    const QString undoText = tr("Change %1").arg(row.label->text());
    const auto explicitValue = document_->explicitValue(row.pointer);
    std::vector<ScenarioValueChange> changes;
    if (text.isEmpty()) {
        if (!explicitValue)
            return;
        // The last key of cluster.host takes the object with it, so that the file is as
        // before the first edit.
        const auto host = document_->explicitValue("/cluster/host");
        if (host && host->is_object() && host->size() == 1)
            changes.push_back({"/cluster/host", std::nullopt});
        else
            changes.push_back({row.pointer, std::nullopt});
    } else {
        bool ok = false;
        const double value = QLocale().toDouble(text, &ok);
        if (!ok) {
            refreshHostSection();
            return;
        }
        if (explicitValue && *explicitValue == nlohmann::ordered_json(value))
            return;
        changes = changeCreatingObjects(*document_, row.pointer, value);
        if (changes.empty()) { // the preset's own figure: nothing to write
            refreshHostSection();
            return;
        }
    }
    document_->setValues(std::move(changes), undoText);
}

QLineEdit* ClusterEditor::hostField(const std::string& pointer) const {
    for (const HostRow& row : hostRows_)
        if (row.pointer == pointer)
            return row.editor;
    return nullptr;
}

void ClusterEditor::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange && hostTitle_)
        retranslateHostSection();
    else if (event->type() == QEvent::PaletteChange && hostTitle_)
        refreshHostSection();
    QWidget::changeEvent(event);
}

} // namespace ts::gui
