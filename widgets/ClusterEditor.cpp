#include "ClusterEditor.h"

#include "EnumLabels.h"
#include "PlanDegreeOptions.h"
#include "PoolsEditor.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"

#include "calibration/CalibrationProfile.h"
#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"

#include <QDoubleValidator>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
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

using Json = nlohmann::ordered_json;

std::optional<bool> presetOfferAnswer; // tests answer the offer without a dialog

// The keys of the GPU object (scenario format), with the resolved spec's figure for each.
const char* const kGpuKeys[] = {"memory_gib", "hbm_gb_s",    "bf16_tflops",
                                "fp8_tflops", "fp32_tflops", "tdp_w"};

double gpuFigure(const GpuSpec& gpu, const std::string& key) {
    if (key == "memory_gib")
        return gpu.memoryGiB;
    if (key == "hbm_gb_s")
        return gpu.hbmGBps;
    if (key == "bf16_tflops")
        return gpu.bf16Tflops;
    if (key == "fp8_tflops")
        return gpu.fp8Tflops;
    if (key == "fp32_tflops")
        return gpu.fp32Tflops;
    return gpu.tdpW;
}

// A custom GPU starts as a copy of the GPU in effect, so that it is valid from the start.
Json customGpuFrom(const GpuSpec& gpu) {
    Json object = Json::object();
    object["name"] = gpu.name + " (custom)";
    for (const char* key : kGpuKeys)
        object[key] = gpuFigure(gpu, key);
    return object;
}

bool gpuIsCustom(const ScenarioDocument& document) {
    const auto gpu = document.explicitValue("/cluster/gpu");
    return gpu && gpu->is_object();
}

std::vector<FieldChoice> gpuChoices(const ScenarioDocument& document) {
    std::vector<FieldChoice> choices;
    for (const auto& [id, gpu] : Catalog::builtIn().gpus())
        choices.push_back(
            {QString::fromStdString(gpu.spec.name), id, true, QString::fromStdString(gpu.notes)});
    const auto written = document.explicitValue("/cluster/gpu");
    if (written && written->is_object())
        choices.push_back({ClusterEditor::tr("Custom: %1")
                               .arg(QString::fromStdString(written->value("name", std::string()))),
                           *written});
    else
        choices.push_back({ClusterEditor::tr("Custom GPU (figures below)…"), Json{{"custom", true}},
                           true,
                           ClusterEditor::tr("A GPU of your own: starts as a copy of the GPU in "
                                             "use; edit its figures under Custom GPU")});
    return choices;
}

// The cluster preset built around `gpuId` ("a100-sxm-80gb" -> "dgx-a100"), if any.
const ClusterPreset* presetForGpu(const std::string& gpuId) {
    for (const auto& [id, preset] : Catalog::builtIn().clusters())
        if (preset.gpuId == gpuId)
            return &preset;
    return nullptr;
}

// Another GPU: the cluster preset made for it (its NVLink, network and host figures) is
// offered in place of the current preset's, which were measured for another system.
std::vector<ScenarioValueChange> gpuChanges(ClusterEditor* editor, ScenarioDocument* document,
                                            const Json& value) {
    const auto& r = document->lastResolved();
    if (value.is_object() && value.contains("custom"))
        return r ? changeCreatingObjects(*document, "/cluster/gpu", customGpuFrom(r->cluster.gpu))
                 : std::vector<ScenarioValueChange>{};
    std::vector<ScenarioValueChange> changes{{"/cluster/gpu", value}};
    const auto current = document->effectiveValue("/cluster/preset");
    const ClusterPreset* match =
        value.is_string() ? presetForGpu(value.get<std::string>()) : nullptr;
    if (!match || (current && *current == match->id))
        return changes;
    const auto& presets = Catalog::builtIn().clusters();
    const auto old =
        current && current->is_string() ? presets.find(current->get<std::string>()) : presets.end();
    const QString oldName = old != presets.end() ? QString::fromStdString(old->second.name)
                                                 : ClusterEditor::tr("the current cluster");
    bool usePreset = false;
    if (presetOfferAnswer) {
        usePreset = *presetOfferAnswer;
    } else {
        const QString matchName = QString::fromStdString(match->name);
        usePreset = QMessageBox::question(
                        editor, ClusterEditor::tr("Matching cluster preset"),
                        ClusterEditor::tr("%1 is built for this GPU. Use its NVLink, network and "
                                          "host figures instead of those of %2?")
                            .arg(matchName, oldName),
                        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
    }
    if (!usePreset)
        return changes;
    return {{"/cluster/preset", match->id},           {"/cluster/gpu", std::nullopt},
            {"/cluster/gpus_per_node", std::nullopt}, {"/cluster/scale_up", std::nullopt},
            {"/cluster/scale_out", std::nullopt},     {"/cluster/host", std::nullopt}};
}

// The calibration profiles a scenario can select, with "none" (the default efficiencies).
std::vector<FieldChoice> calibrationChoices() {
    std::vector<FieldChoice> choices{{ClusterEditor::tr("None (default efficiencies)"), nullptr}};
    for (const auto& [id, profile] : CalibrationRegistry::standard().profiles())
        choices.push_back({QString::fromStdString(profile->name.empty() ? id : profile->name), id,
                           true, QString::fromStdString(profile->notes)});
    return choices;
}

// One figure of a custom GPU; while the GPU is a catalog part it shows that part's figure.
FieldSpec customGpuField(ScenarioDocument* document, const char* key, QString label, QString suffix,
                         int decimals) {
    const std::string pointer = std::string("/cluster/gpu/") + key;
    FieldSpec f = realField(pointer, std::move(label), 0, 1e7, decimals, std::move(suffix));
    f.resettable = false; // the GPU object needs each of its figures
    f.shownValue = [document, pointer, key = std::string(key)]() -> std::optional<Json> {
        if (gpuIsCustom(*document))
            return document->explicitValue(pointer);
        const auto& r = document->lastResolved();
        return r ? std::optional<Json>(gpuFigure(r->cluster.gpu, key)) : std::nullopt;
    };
    f.enabledWhen = [document] { return gpuIsCustom(*document); };
    return f;
}

// The optional figures of a GPU object (scenario format, "GPU object"), with the resolved
// spec's value for each (none: the estimator's default applies).
std::optional<double> optionalGpuFigure(const GpuSpec& gpu, const std::string& key) {
    if (key == "fp16_tflops")
        return gpu.fp16Tflops;
    if (key == "tf32_tflops")
        return gpu.tf32Tflops;
    if (key == "fp4_tflops")
        return gpu.fp4Tflops;
    if (key == "mamf_bf16_tflops")
        return gpu.mamfBf16Tflops;
    if (key == "mamf_fp8_tflops")
        return gpu.mamfFp8Tflops;
    if (key == "idle_w")
        return gpu.idleW;
    if (key == "sm_count")
        return gpu.smCount ? std::optional<double>(*gpu.smCount) : std::nullopt;
    if (key == "pcie_gb_s")
        return gpu.pcieGBps;
    if (key == "sfu_exp_tera_per_s")
        return gpu.sfuExpTeraPerS;
    return std::nullopt;
}

// An optional figure of a custom GPU: empty while the GPU object leaves it out (the
// placeholder says what applies then); cleared, the key goes. A catalog GPU's own figure
// shows as the placeholder.
FieldSpec optionalGpuField(ScenarioDocument* document, const char* key, QString label,
                           double maximum, QString whenUnset) {
    const std::string pointer = std::string("/cluster/gpu/") + key;
    FieldSpec f = numberField(pointer, std::move(label), 0, maximum);
    f.enabledWhen = [document] { return gpuIsCustom(*document); };
    f.placeholder = [document, key = std::string(key), whenUnset] {
        const auto& r = document->lastResolved();
        const std::optional<double> figure =
            r ? optionalGpuFigure(r->cluster.gpu, key) : std::nullopt;
        return figure ? QLocale().toString(*figure, 'g', 8) : whenUnset;
    };
    return f;
}

// A figure of the WAN between pods: 0 (not set) unless the file gives it, and settable
// then, since pods > 1 need it.
FieldSpec wanField(ScenarioDocument* document, const char* key, QString label, double maximum,
                   QString suffix, QString toolTip) {
    FieldSpec f = settable(realField(std::string("/cluster/scale_out/") + key, std::move(label), 0,
                                     maximum, 0, std::move(suffix), std::move(toolTip)));
    f.changes = [document, pointer = f.pointer](const Json& value) {
        return changeCreatingObjects(*document, pointer, value);
    };
    return f;
}

// Network tiers: empty is as few as the size and the radix need (the placeholder).
FieldSpec tiersField(ScenarioDocument* document) {
    FieldSpec f = numberField("/cluster/scale_out/tiers", ClusterEditor::tr("Tiers"), 1, 16,
                              ClusterEditor::tr("Switch tiers of the scale-out network; empty: "
                                                "as few as the size needs"));
    f.placeholder = [] { return ClusterEditor::tr("as few as needed"); };
    f.changes = [document](const Json& value) {
        return changeCreatingObjects(*document, "/cluster/scale_out/tiers", value);
    };
    return f;
}

// A torus's scale-up domains per dimension, typed "4, 4, 2"; empty: chosen from the size.
FieldSpec torusDimsField(ScenarioDocument* document) {
    FieldSpec f = textField("/cluster/scale_out/torus_dims", ClusterEditor::tr("Torus dimensions"),
                            ClusterEditor::tr("Scale-up domains along each torus dimension, "
                                              "separated by commas; empty: automatic"));
    f.placeholder = [] { return ClusterEditor::tr("automatic"); };
    f.changes = [document](const Json& value) {
        Json dims = Json::array();
        for (const QString& part :
             QString::fromStdString(value.get<std::string>())
                 .split(QRegularExpression(QStringLiteral("[,;x×\\s]+")), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int n = part.toInt(&ok);
            if (ok)
                dims.push_back(n);
            else // the reader names the field and what would be right
                dims.push_back(part.toStdString());
        }
        return changeCreatingObjects(*document, "/cluster/scale_out/torus_dims", dims);
    };
    return f;
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

void ClusterEditor::setPresetOfferAnswer(std::optional<bool> answer) {
    presetOfferAnswer = answer;
}

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
        // With cluster.pools each pool gives its GPU and count (the pools editor above).
        const auto noPools = [this] { return !document_->explicitValue("/cluster/pools"); };
        preset.enabledWhen = noPools;
        FieldSpec gpu = choiceField("/cluster/gpu", tr("GPU"), {});
        gpu.enabledWhen = noPools;
        gpu.dynamicChoices = [this] { return gpuChoices(*document_); };
        gpu.changes = [this](const Json& value) { return gpuChanges(this, document_, value); };
        FieldSpec gpus = required(integerField("/cluster/num_gpus", tr("GPUs"), 1, 1e7));
        gpus.enabledWhen = noPools;
        gpus.changes = [this](const Json& value) {
            return PlanDegreeOptions::changesForGpuCount(*document_, value.get<std::int64_t>());
        };
        FieldSpec gpuName = textField("/cluster/gpu/name", tr("Name"));
        gpuName.resettable = false;
        gpuName.enabledWhen = [this] { return gpuIsCustom(*document_); };
        gpuName.placeholder = [this] {
            const auto& r = document_->lastResolved();
            return r ? QString::fromStdString(r->cluster.gpu.name) : QString();
        };
        return std::vector<FieldSpec>{
            sectionField(tr("System")),
            preset,
            gpu,
            gpus,
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
            integerField("/cluster/scale_out/switch_radix", tr("Switch radix"), 2, 1e6, {},
                         tr("Ports per switch, which sets how many tiers the network needs")),
            tiersField(document_),
            torusDimsField(document_),
            integerField("/cluster/scale_out/pods", tr("Datacenters (pods)"), 1, 1e6, {},
                         tr("Equal networks of the topology above, joined by WAN links")),
            wanField(document_, "wan_gbit_s", tr("WAN bandwidth per pod"), 8e7, tr(" Gbit/s"),
                     tr("Out of each pod in all, per direction")),
            wanField(document_, "wan_latency_us", tr("WAN latency"), 1e9, tr(" µs"),
                     tr("One way between pods")),
            sectionField(tr("Calibration")),
            choiceField("/calibration", tr("Calibration profile"), calibrationChoices(),
                        tr("Measured efficiencies that replace the estimator's defaults "
                           "(trainscape-cli calibrate list)")),
            sectionField(tr("Custom GPU")),
            gpuName,
            customGpuField(document_, "memory_gib", tr("Memory"), tr(" GiB"), 0),
            customGpuField(document_, "hbm_gb_s", tr("HBM bandwidth"), tr(" GB/s"), 0),
            customGpuField(document_, "bf16_tflops", tr("BF16 dense"), tr(" TFLOP/s"), 0),
            customGpuField(document_, "fp8_tflops", tr("FP8 dense"), tr(" TFLOP/s"), 0),
            customGpuField(document_, "fp32_tflops", tr("FP32"), tr(" TFLOP/s"), 1),
            customGpuField(document_, "tdp_w", tr("Power limit (TDP)"), tr(" W"), 0),
            optionalGpuField(document_, "fp16_tflops", tr("FP16 dense (TFLOP/s)"), 1e7,
                             tr("as BF16")),
            optionalGpuField(document_, "tf32_tflops", tr("TF32 dense (TFLOP/s)"), 1e7, tr("none")),
            optionalGpuField(document_, "fp4_tflops", tr("FP4 dense (TFLOP/s)"), 1e7,
                             tr("no FP4 tensor cores")),
            optionalGpuField(document_, "mamf_bf16_tflops", tr("Measured BF16 matmul (TFLOP/s)"),
                             1e7, tr("default efficiency")),
            optionalGpuField(document_, "mamf_fp8_tflops", tr("Measured FP8 matmul (TFLOP/s)"), 1e7,
                             tr("default efficiency")),
            optionalGpuField(document_, "idle_w", tr("Idle power (W)"), 1e5, tr("10% of TDP")),
            optionalGpuField(document_, "sm_count", tr("Streaming multiprocessors"), 1e5,
                             tr("no wave quantization")),
            optionalGpuField(document_, "pcie_gb_s", tr("PCIe to host (GB/s)"), 1e5,
                             tr("the cluster's")),
            optionalGpuField(document_, "sfu_exp_tera_per_s", tr("Softmax exponentials (T/s)"), 1e5,
                             tr("BF16 peak / 256")),
        };
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(new PoolsEditor(document_, this)); // first: with pools, the form is theirs
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
    form->setRowWrapPolicy(QFormLayout::WrapLongRows); // as ScenarioForm
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
