#include "ClusterEditor.h"

#include "EnumLabels.h"
#include "ScenarioForm.h"

#include "catalog/Catalog.h"

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

} // namespace

ClusterEditor::ClusterEditor(ScenarioDocument* document, QWidget* parent) : QWidget(parent) {
    form_ = new ScenarioForm(document, [this] {
        FieldSpec preset = choiceField("/cluster/preset", tr("Cluster preset"), clusterPresets(),
                                       tr("A system from the catalog: GPU, node and networks"));
        // A new preset brings its own GPU and networks: the old overrides go.
        preset.changes = [](const nlohmann::ordered_json& value) {
            return std::vector<ScenarioValueChange>{{"/cluster/preset", value},
                                                    {"/cluster/gpu", std::nullopt},
                                                    {"/cluster/gpus_per_node", std::nullopt},
                                                    {"/cluster/scale_up", std::nullopt},
                                                    {"/cluster/scale_out", std::nullopt}};
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
    layout->addWidget(form_);
    layout->addStretch(1);
}

} // namespace ts::gui
