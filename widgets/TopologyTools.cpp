#include "TopologyTools.h"

#include "TopologyCanvas.h"
#include "TopologyGraphModel.h"
#include "TopologyItems.h"
#include "TopologyScene.h"

#include "scenario/ClusterGraphJson.h"

#include <QGraphicsLineItem>
#include <QMouseEvent>
#include <QPen>

namespace ts::gui {

QString AddNodeTool::id() const {
    return QStringLiteral("add-") + QString::fromLatin1(graphNodeKindName(kind_).data(),
                                                        qsizetype(graphNodeKindName(kind_).size()));
}

QString AddNodeTool::name() const {
    switch (kind_) {
    case GraphNodeKind::Gpu:
        return tr("Add GPU");
    case GraphNodeKind::Nic:
        return tr("Add NIC");
    case GraphNodeKind::ScaleUpSwitch:
        return tr("Add scale-up switch");
    case GraphNodeKind::Router:
        return tr("Add WAN router");
    case GraphNodeKind::Switch:
        break;
    }
    return tr("Add switch");
}

bool AddNodeTool::press(QMouseEvent* event, QPointF scenePos) {
    if (event->button() != Qt::LeftButton)
        return false;
    GraphNode node;
    node.kind = kind_;
    node.x = scenePos.x();
    node.y = scenePos.y();
    if (kind_ == GraphNodeKind::Switch)
        node.radix = canvas_->defaultRadix();
    QString reason;
    if (!canvas_->model()->addNode(node, &reason))
        canvas_->showMessage(reason);
    return true;
}

LinkTool::~LinkTool() {
    deactivate();
}

bool LinkTool::press(QMouseEvent* event, QPointF scenePos) {
    if (event->button() != Qt::LeftButton)
        return false;
    EndpointItem* item = canvas_->endpointAt(event->pos());
    if (!item)
        return true;
    if (item->type() != NodeItemType) {
        canvas_->showMessage(tr("Expand the group to link one of its members"));
        return true;
    }
    from_ = static_cast<NodeItem*>(item)->id();
    line_ = new QGraphicsLineItem(QLineF(item->scenePos(), scenePos));
    QPen pen(QColor(14, 165, 233), 2, Qt::DashLine);
    pen.setCosmetic(true);
    line_->setPen(pen);
    line_->setZValue(10);
    canvas_->topologyScene()->addItem(line_);
    return true;
}

bool LinkTool::move(QMouseEvent*, QPointF scenePos) {
    if (!line_)
        return false;
    line_->setLine(QLineF(line_->line().p1(), scenePos));
    return true;
}

bool LinkTool::release(QMouseEvent* event, QPointF) {
    if (!line_)
        return false;
    const std::string from = from_;
    deactivate();
    EndpointItem* item = canvas_->endpointAt(event->pos());
    if (!item)
        return true;
    if (item->type() != NodeItemType) {
        canvas_->showMessage(tr("Expand the group to link one of its members"));
        return true;
    }
    const std::string to = static_cast<NodeItem*>(item)->id();
    if (to == from)
        return true;
    QString reason;
    if (!canvas_->model()->connectNodes(from, to, canvas_->defaultBandwidth(from, to), &reason))
        canvas_->showMessage(tr("Not linked: %1").arg(reason));
    return true;
}

void LinkTool::deactivate() {
    if (line_) {
        delete line_;
        line_ = nullptr;
    }
    from_.clear();
}

bool DeleteTool::press(QMouseEvent* event, QPointF) {
    if (event->button() != Qt::LeftButton)
        return false;
    if (QGraphicsItem* item = canvas_->itemAt(event->pos()))
        canvas_->deleteItems({item});
    return true;
}

} // namespace ts::gui
