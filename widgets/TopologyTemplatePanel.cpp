#include "TopologyTemplatePanel.h"

#include "ChangeScenarioValue.h"
#include "TopologyGraphModel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

QSpinBox* spin(QWidget* parent, int lo, int hi) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    return s;
}

QDoubleSpinBox* dspin(QWidget* parent, double lo, double hi, int decimals, const QString& suffix) {
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setSuffix(suffix);
    return s;
}

} // namespace

TopologyTemplatePanel::TopologyTemplatePanel(TopologyGraphModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    kind_ = new QComboBox(this);
    kind_->addItem(tr("NVSwitch domain (one server)"), int(GraphTemplateKind::NvSwitchDomain));
    kind_->addItem(tr("NVL72 racks"), int(GraphTemplateKind::Nvl72));
    kind_->addItem(tr("Rail-optimized fat-tree"), int(GraphTemplateKind::RailOptimized));
    kind_->addItem(tr("Fat-tree"), int(GraphTemplateKind::FatTree));
    kind_->addItem(tr("Rail-only"), int(GraphTemplateKind::RailOnly));
    kind_->addItem(tr("Torus of domains"), int(GraphTemplateKind::Torus));
    kind_->addItem(tr("Multi-datacenter"), int(GraphTemplateKind::MultiDatacenter));
    kind_->setCurrentIndex(2);
    gpus_ = spin(this, 1, 1 << 20);
    domainGpus_ = spin(this, 1, 4096);
    gpusPerNode_ = spin(this, 1, 256);
    nicsPerNode_ = spin(this, 0, 64);
    nicGbit_ = dspin(this, 1, 1e5, 0, tr(" Gbit/s"));
    radix_ = spin(this, 2, 2048);
    oversubscription_ = dspin(this, 1, 16, 2, QStringLiteral(":1"));
    tiers_ = spin(this, 0, 3);
    tiers_->setSpecialValueText(tr("as needed"));
    pods_ = spin(this, 2, 64);
    wanGbit_ = dspin(this, 1, 1e7, 0, tr(" Gbit/s"));
    wanLatency_ = dspin(this, 0, 1e6, 0, tr(" µs"));
    form->addRow(tr("Template"), kind_);
    form->addRow(tr("GPUs"), gpus_);
    form->addRow(tr("GPUs per scale-up domain"), domainGpus_);
    form->addRow(tr("GPUs per node"), gpusPerNode_);
    form->addRow(tr("NICs per node"), nicsPerNode_);
    form->addRow(tr("NIC rate"), nicGbit_);
    form->addRow(tr("Switch radix"), radix_);
    form->addRow(tr("Leaf oversubscription"), oversubscription_);
    form->addRow(tr("Switch tiers"), tiers_);
    form->addRow(tr("Datacenters"), pods_);
    form->addRow(tr("WAN per datacenter"), wanGbit_);
    form->addRow(tr("WAN latency"), wanLatency_);
    layout->addLayout(form);
    apply_ = new QPushButton(tr("Apply template"), this);
    apply_->setObjectName("applyTemplate");
    layout->addWidget(apply_);
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #dc2626"));
    layout->addWidget(error_);
    layout->addStretch();
    connect(apply_, &QPushButton::clicked, this, [this] { apply(); });
    connect(kind_, &QComboBox::currentIndexChanged, this, &TopologyTemplatePanel::kindChanged);
    loadFromCluster();
}

void TopologyTemplatePanel::loadFromCluster() {
    // The template of the scenario's own builder.
    const ClusterConfig c = model_->cluster();
    GraphTemplateKind kind = GraphTemplateKind::RailOptimized;
    if (c.scaleOut.pods > 1)
        kind = GraphTemplateKind::MultiDatacenter;
    else if (c.numGpus <= c.scaleUp.domainGpus)
        kind = GraphTemplateKind::NvSwitchDomain;
    else if (c.scaleOut.topology == ScaleOutTopology::RailOnly)
        kind = GraphTemplateKind::RailOnly;
    else if (c.scaleOut.topology == ScaleOutTopology::FatTree)
        kind = GraphTemplateKind::FatTree;
    else if (c.scaleOut.topology == ScaleOutTopology::Torus)
        kind = GraphTemplateKind::Torus;
    GraphTemplateParams p = templateParamsOf(c, kind);
    if (kind != GraphTemplateKind::MultiDatacenter)
        p.pods = 2; // what the datacenter fields offer when the kind is switched
    setParams(p);
}

void TopologyTemplatePanel::kindChanged() {
    // A kind's own shape (NVL72's 72-GPU racks, one server) over the cluster's other figures.
    GraphTemplateParams p = params();
    const GraphTemplateParams of =
        templateParamsOf(model_->cluster(), GraphTemplateKind(kind_->currentData().toInt()));
    p.kind = of.kind;
    if (p.kind == GraphTemplateKind::Nvl72 || p.kind == GraphTemplateKind::NvSwitchDomain) {
        p.gpus = of.gpus;
        p.domainGpus = of.domainGpus;
        p.gpusPerNode = of.gpusPerNode;
        p.nicsPerNode = of.nicsPerNode;
    }
    setParams(p);
}

GraphTemplateParams TopologyTemplatePanel::params() const {
    GraphTemplateParams p;
    p.kind = GraphTemplateKind(kind_->currentData().toInt());
    p.gpus = gpus_->value();
    p.domainGpus = domainGpus_->value();
    p.gpusPerNode = gpusPerNode_->value();
    p.nicsPerNode = nicsPerNode_->value();
    p.nicGbitPerS = nicGbit_->value();
    p.switchRadix = radix_->value();
    p.oversubscription = oversubscription_->value();
    p.tiers = tiers_->value();
    p.pods = pods_->value();
    p.wanGbitPerS = wanGbit_->value();
    p.wanLatencyUs = wanLatency_->value();
    return p;
}

void TopologyTemplatePanel::setParams(const GraphTemplateParams& p) {
    const QSignalBlocker block(kind_);
    kind_->setCurrentIndex(kind_->findData(int(p.kind)));
    gpus_->setValue(int(p.gpus));
    domainGpus_->setValue(p.domainGpus);
    gpusPerNode_->setValue(p.gpusPerNode);
    nicsPerNode_->setValue(p.nicsPerNode);
    nicGbit_->setValue(p.nicGbitPerS);
    radix_->setValue(p.switchRadix);
    oversubscription_->setValue(p.oversubscription);
    tiers_->setValue(p.tiers);
    pods_->setValue(p.pods);
    wanGbit_->setValue(p.wanGbitPerS);
    wanLatency_->setValue(p.wanLatencyUs);
    const bool multi = p.kind == GraphTemplateKind::MultiDatacenter;
    for (QWidget* w : std::initializer_list<QWidget*>{pods_, wanGbit_, wanLatency_})
        w->setEnabled(multi);
}

QString TopologyTemplatePanel::lastError() const {
    return error_->text();
}

bool TopologyTemplatePanel::apply() {
    const GraphTemplateParams p = params();
    const ClusterConfig c = templateCluster(model_->cluster(), p);
    Diagnostics diags;
    std::optional<ClusterGraph> graph = buildTemplateGraph(c, diags);
    if (!graph) {
        const auto errors = diags.errors();
        error_->setText(errors.empty() ? tr("The builder refused these parameters")
                                       : QString::fromStdString(errors.front().path + ": " +
                                                                errors.front().message));
        return false;
    }
    error_->clear();
    using Json = nlohmann::ordered_json;
    const bool multi = p.kind == GraphTemplateKind::MultiDatacenter;
    const auto optional = [](bool present, Json value) {
        return present ? std::optional<Json>(std::move(value)) : std::nullopt;
    };
    std::vector<ScenarioValueChange> keys = {
        {"/cluster/num_gpus", Json(c.numGpus)},
        {"/cluster/gpus_per_node", Json(c.gpusPerNode)},
        {"/cluster/scale_up/domain_gpus", Json(c.scaleUp.domainGpus)},
        {"/cluster/scale_out/nics_per_node", Json(c.scaleOut.nicsPerNode)},
        {"/cluster/scale_out/nic_gbit_s", Json(c.scaleOut.nicGbitPerS)},
        {"/cluster/scale_out/switch_radix", Json(c.scaleOut.switchRadix)},
        {"/cluster/scale_out/oversubscription", Json(c.scaleOut.oversubscription)},
        {"/cluster/scale_out/tiers", optional(p.tiers > 0, Json(p.tiers))},
        {"/cluster/scale_out/pods", optional(multi, Json(p.pods))},
        {"/cluster/scale_out/wan_gbit_s", optional(multi, Json(p.wanGbitPerS))},
        {"/cluster/scale_out/wan_latency_us", optional(multi, Json(p.wanLatencyUs))},
        {"/cluster/scale_out/torus_dims", std::nullopt},
    };
    return model_->applyGraph(std::move(*graph), keys,
                              tr("Template: %1").arg(kind_->currentText()));
}

} // namespace ts::gui
