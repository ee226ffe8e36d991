#include "TopologyPropertiesPanel.h"

#include "QuantityText.h"
#include "TopologyGraphModel.h"
#include "TopologyItems.h"
#include "TopologyScene.h"

#include "scenario/ClusterGraphJson.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace ts::gui {

TopologyPropertiesPanel::TopologyPropertiesPanel(TopologyScene* scene, QWidget* parent)
    : QWidget(parent), scene_(scene) {
    auto* layout = new QVBoxLayout(this);
    pages_ = new QStackedWidget(this);
    summary_ = new QLabel(tr("Select a node, a link or a group."), this);
    summary_->setWordWrap(true);
    pages_->addWidget(summary_);

    auto* nodePage = new QWidget(this);
    auto* nodeForm = new QFormLayout(nodePage);
    nodeTitle_ = new QLabel(nodePage);
    label_ = new QLineEdit(nodePage);
    radix_ = new QSpinBox(nodePage);
    radix_->setRange(0, 4096);
    radix_->setSpecialValueText(tr("not limited"));
    tier_ = new QSpinBox(nodePage);
    tier_->setRange(0, 4);
    tier_->setSpecialValueText(tr("from the NICs"));
    pod_ = new QSpinBox(nodePage);
    pod_->setRange(0, 1000000);
    nodeForm->addRow(nodeTitle_);
    nodeForm->addRow(tr("Label"), label_);
    nodeForm->addRow(tr("Radix (ports)"), radix_);
    nodeForm->addRow(tr("Tier"), tier_);
    nodeForm->addRow(tr("Pod"), pod_);
    pages_->addWidget(nodePage);

    auto* linkPage = new QWidget(this);
    auto* linkForm = new QFormLayout(linkPage);
    linkTitle_ = new QLabel(linkPage);
    linkTitle_->setWordWrap(true);
    linkClass_ = new QComboBox(linkPage);
    linkClass_->addItem(tr("scale-up"), int(LinkClass::ScaleUp));
    linkClass_->addItem(tr("scale-out"), int(LinkClass::ScaleOut));
    linkClass_->addItem(tr("WAN"), int(LinkClass::Wan));
    bandwidth_ = new QDoubleSpinBox(linkPage);
    bandwidth_->setRange(0.001, 1e6);
    bandwidth_->setDecimals(3);
    bandwidth_->setSuffix(tr(" GB/s"));
    latency_ = new QDoubleSpinBox(linkPage);
    latency_->setRange(0, 1e6);
    latency_->setDecimals(2);
    latency_->setSuffix(tr(" µs"));
    linkForm->addRow(linkTitle_);
    linkForm->addRow(tr("Link class"), linkClass_);
    linkForm->addRow(tr("Bandwidth per direction"), bandwidth_);
    linkForm->addRow(tr("Latency"), latency_);
    pages_->addWidget(linkPage);

    auto* groupPage = new QWidget(this);
    auto* groupLayout = new QVBoxLayout(groupPage);
    groupTitle_ = new QLabel(groupPage);
    groupTitle_->setWordWrap(true);
    expand_ = new QPushButton(tr("Expand"), groupPage);
    collapse_ = new QPushButton(tr("Collapse parent"), groupPage);
    groupLayout->addWidget(groupTitle_);
    groupLayout->addWidget(expand_);
    groupLayout->addWidget(collapse_);
    groupLayout->addStretch();
    pages_->addWidget(groupPage);
    layout->addWidget(pages_);
    layout->addStretch();

    connect(label_, &QLineEdit::editingFinished, this, &TopologyPropertiesPanel::editNode);
    for (QSpinBox* s : {radix_, tier_, pod_})
        connect(s, &QSpinBox::valueChanged, this, &TopologyPropertiesPanel::editNode);
    connect(linkClass_, &QComboBox::currentIndexChanged, this, &TopologyPropertiesPanel::editLinks);
    for (QDoubleSpinBox* s : {bandwidth_, latency_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &TopologyPropertiesPanel::editLinks);
    connect(expand_, &QPushButton::clicked, this, [this] { scene_->setExpanded(group_, true); });
    connect(collapse_, &QPushButton::clicked, this, [this] {
        const int parent = group_ >= 0 ? scene_->hierarchy().groups[group_].parent : -1;
        scene_->setExpanded(parent, false);
    });
    connect(scene_, &QGraphicsScene::selectionChanged, this, &TopologyPropertiesPanel::refresh);
}

void TopologyPropertiesPanel::refresh() {
    const QList<QGraphicsItem*> selected = scene_->selectedItems();
    node_ = group_ = -1;
    links_.clear();
    if (selected.size() == 1 && selected.front()->type() == NodeItemType) {
        showNode(static_cast<NodeItem*>(selected.front())->node());
        return;
    }
    if (selected.size() == 1 && selected.front()->type() == GroupItemType) {
        group_ = static_cast<GroupItem*>(selected.front())->group();
        groupTitle_->setText(selected.front()->toolTip());
        collapse_->setEnabled(scene_->hierarchy().groups[group_].parent >= 0);
        pages_->setCurrentIndex(3);
        return;
    }
    std::vector<int> graphLinks;
    int edges = 0;
    const int hostLinks = scene_->model()->hostLinkCount();
    for (QGraphicsItem* item : selected)
        if (item->type() == EdgeItemType) {
            ++edges;
            for (int li : scene_->linksOf(static_cast<EdgeItem*>(item)))
                if (li >= hostLinks)
                    graphLinks.push_back(li - hostLinks);
        }
    if (edges == static_cast<int>(selected.size()) && !graphLinks.empty()) {
        showLinks(graphLinks, edges == 1
                                  ? selected.front()->toolTip()
                                  : tr("%n link(s) selected", nullptr, int(graphLinks.size())));
        return;
    }
    summary_->setText(selected.isEmpty()
                          ? tr("Select a node, a link or a group.")
                          : tr("%n item(s) selected", nullptr, int(selected.size())));
    pages_->setCurrentIndex(0);
}

void TopologyPropertiesPanel::showNode(int node) {
    loading_ = true;
    node_ = node;
    const GraphNode& n = scene_->model()->graph().nodes[node];
    nodeTitle_->setText(QStringLiteral("%1 (%2)").arg(
        QString::fromStdString(n.id),
        QString::fromLatin1(graphNodeKindName(n.kind).data(),
                            qsizetype(graphNodeKindName(n.kind).size()))));
    label_->setText(QString::fromStdString(n.label.value_or("")));
    const bool isSwitch = n.kind == GraphNodeKind::Switch ||
                          n.kind == GraphNodeKind::ScaleUpSwitch || n.kind == GraphNodeKind::Router;
    radix_->setEnabled(isSwitch);
    tier_->setEnabled(isSwitch);
    radix_->setValue(n.radix.value_or(0));
    tier_->setValue(n.tier.value_or(0));
    pod_->setValue(n.pod.value_or(0));
    pages_->setCurrentIndex(1);
    loading_ = false;
}

void TopologyPropertiesPanel::showLinks(const std::vector<int>& graphLinks, const QString& title) {
    loading_ = true;
    links_ = graphLinks;
    const GraphLink& l = scene_->model()->graph().links[graphLinks.front()];
    linkTitle_->setText(title);
    linkClass_->setCurrentIndex(linkClass_->findData(int(l.linkClass)));
    // Scale-up links stay scale-up (core's rule); network links may be scale-out or WAN.
    linkClass_->setEnabled(l.linkClass != LinkClass::ScaleUp);
    bandwidth_->setValue(l.gbPerS);
    latency_->setValue(l.latencyUs.value_or(0));
    pages_->setCurrentIndex(2);
    loading_ = false;
}

void TopologyPropertiesPanel::editNode() {
    if (loading_ || node_ < 0)
        return;
    TopologyGraphModel* m = scene_->model();
    GraphNode n = m->graph().nodes[node_];
    const std::string label = label_->text().toStdString();
    n.label = label.empty() ? std::nullopt : std::optional(label);
    if (radix_->isEnabled())
        n.radix = radix_->value() > 0 ? std::optional(radix_->value()) : std::nullopt;
    if (tier_->isEnabled())
        n.tier = tier_->value() > 0 ? std::optional(tier_->value()) : std::nullopt;
    n.pod = pod_->value() > 0 || n.pod ? std::optional(pod_->value()) : std::nullopt;
    QString reason;
    if (!m->setNode(n, &reason))
        summary_->setText(reason);
}

void TopologyPropertiesPanel::editLinks() {
    if (loading_ || links_.empty())
        return;
    TopologyGraphModel* m = scene_->model();
    std::vector<GraphLink> after;
    for (int i : links_) {
        GraphLink l = m->graph().links[i];
        if (l.linkClass != LinkClass::ScaleUp)
            l.linkClass = LinkClass(linkClass_->currentData().toInt());
        l.gbPerS = bandwidth_->value();
        l.latencyUs = latency_->value() > 0 ? std::optional(latency_->value()) : std::nullopt;
        after.push_back(std::move(l));
    }
    QString reason;
    if (!m->setLinks(links_, after, &reason))
        summary_->setText(reason);
}

} // namespace ts::gui
