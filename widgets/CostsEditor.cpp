#include "CostsEditor.h"

#include "ScenarioDocument.h"
#include "ScenarioForm.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

#include <functional>

namespace ts::gui {

namespace {

using Figure = std::function<std::optional<double>(const CostConfig&)>;

// The figure the resolver took for a key the file leaves out (a catalog default, the
// GPU's idle power, the bill of materials' network power), as placeholder text.
FieldSpec costField(ScenarioDocument* document, const char* key, QString label, double maximum,
                    QString toolTip, Figure figure) {
    FieldSpec f =
        numberField(std::string("/costs/") + key, std::move(label), 0, maximum, std::move(toolTip));
    f.placeholder = [document, figure] {
        const auto& r = document->lastResolved();
        const std::optional<double> value = r ? figure(r->costs) : std::nullopt;
        return value ? CostsEditor::tr("%1 (assumed)").arg(QLocale().toString(*value, 'g', 6))
                     : QString();
    };
    return f;
}

} // namespace

CostsEditor::CostsEditor(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    form_ = new ScenarioForm(document, [this, document] {
        FieldSpec csv = textField("/costs/carbon_csv", tr("Hourly grid CSV"),
                                  tr("An hourly series of grid carbon intensity (and price): "
                                     "the run is placed on it hour by hour"));
        return std::vector<FieldSpec>{
            sectionField(tr("Price")),
            choiceField("/costs/ownership", tr("Ownership"),
                        {{tr("Cloud (GPU-hours)"), "cloud"}, {tr("Owned (capital)"), "owned"}}),
            costField(document, "gpu_hour_usd", tr("GPU-hour price ($)"), 1e4,
                      tr("Cloud: what one GPU-hour costs"),
                      [](const CostConfig& c) { return c.gpuHourUsd; }),
            costField(document, "amortization_years", tr("Amortization (years)"), 100,
                      tr("Owned: years over which the capital is spread"),
                      [](const CostConfig& c) { return c.amortizationYears; }),
            costField(document, "node_capex_usd", tr("Node capital ($)"), 1e9,
                      tr("Owned: one server with its GPUs"),
                      [](const CostConfig& c) { return c.nodeCapexUsd; }),
            costField(document, "network_capex_usd", tr("Network capital ($)"), 1e12,
                      tr("Owned: the whole scale-out network"),
                      [](const CostConfig& c) { return c.networkCapexUsd; }),
            sectionField(tr("Site and grid")),
            costField(document, "electricity_usd_kwh", tr("Electricity ($/kWh)"), 100, {},
                      [](const CostConfig& c) { return c.electricityUsdPerKwh; }),
            costField(document, "pue", tr("PUE"), 10,
                      tr("Power usage effectiveness: facility power ÷ IT power"),
                      [](const CostConfig& c) { return c.pue; }),
            costField(document, "grid_gco2_kwh", tr("Grid carbon (gCO₂/kWh)"), 5000, {},
                      [](const CostConfig& c) { return c.gridGco2PerKwh; }),
            csv,
            sectionField(tr("Power")),
            costField(document, "gpu_idle_w", tr("GPU idle power (W)"), 1e5, {},
                      [](const CostConfig& c) { return c.gpuIdleW; }),
            costField(document, "gpu_compute_fraction", tr("GPU power computing"), 1,
                      tr("Fraction of the way from idle power to TDP while compute-bound"),
                      [](const CostConfig& c) { return c.gpuPower.computeBound; }),
            costField(document, "gpu_memory_fraction", tr("GPU power memory-bound"), 1,
                      tr("Fraction of the way from idle power to TDP while memory-bound"),
                      [](const CostConfig& c) { return c.gpuPower.memoryBound; }),
            costField(document, "gpu_comm_fraction", tr("GPU power communicating"), 1,
                      tr("Fraction of the way from idle power to TDP while communicating"),
                      [](const CostConfig& c) { return c.gpuPower.communicating; }),
            costField(document, "host_w_per_node", tr("Host power per node (W)"), 1e6,
                      tr("CPUs, memory, NVSwitch and fans: the node without its GPUs"),
                      [](const CostConfig& c) { return c.hostWPerNode; }),
            costField(document, "network_w", tr("Network power (W)"), 1e9,
                      tr("The whole scale-out network"),
                      [](const CostConfig& c) { return c.networkW; }),
        };
    });
    auto* browse = new QPushButton(tr("Choose grid CSV…"), this);
    browse->setObjectName(QStringLiteral("chooseCarbonCsv"));
    connect(browse, &QPushButton::clicked, this, &CostsEditor::chooseCarbonCsv);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(10, 0, 10, 8);
    buttons->addWidget(browse);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addStretch(1);
}

void CostsEditor::chooseCarbonCsv() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Hourly Grid CSV"), QString(),
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    // Absolute: the document resolves it without knowing where the scenario will be saved.
    document_->setValues(changeCreatingObjects(*document_, "/costs/carbon_csv",
                                               nlohmann::ordered_json(path.toStdString())),
                         tr("Hourly grid CSV → %1").arg(QFileInfo(path).fileName()));
}

} // namespace ts::gui
