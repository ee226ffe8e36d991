#include "TopologyCanvas.h"

#include "TopologyGraphModel.h"
#include "TopologyItems.h"
#include "TopologyScene.h"
#include "TopologyTools.h"

#include <QContextMenuEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace ts::gui {

TopologyCanvas::TopologyCanvas(TopologyScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), scene_(scene) {
    setRenderHint(QPainter::Antialiasing, false);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState |
                         QGraphicsView::DontAdjustForAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setBackgroundBrush(kCanvasBackground);
    setTool(std::make_unique<SelectTool>(this));
    connect(scene_, &TopologyScene::rebuilt, this, [this] { dragStart_.clear(); });
}

TopologyCanvas::~TopologyCanvas() = default;

TopologyGraphModel* TopologyCanvas::model() const {
    return scene_->model();
}

void TopologyCanvas::setTool(std::unique_ptr<CanvasTool> tool) {
    if (tool_)
        tool_->deactivate();
    tool_ = std::move(tool);
    setDragMode(tool_->rubberBand() ? QGraphicsView::RubberBandDrag : QGraphicsView::NoDrag);
    viewport()->setCursor(tool_->rubberBand() ? Qt::ArrowCursor : Qt::CrossCursor);
}

double TopologyCanvas::zoom() const {
    return transform().m11();
}

void TopologyCanvas::zoomBy(double factor) {
    const double next = std::clamp(zoom() * factor, 1e-5, 8.0);
    scale(next / zoom(), next / zoom());
}

void TopologyCanvas::fitAll() {
    const QRectF r = scene_->itemsBoundingRect();
    if (!r.isEmpty())
        fitInView(r.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
}

void TopologyCanvas::wheelEvent(QWheelEvent* event) {
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

EndpointItem* TopologyCanvas::endpointAt(const QPoint& viewPos) const {
    for (QGraphicsItem* item : items(viewPos))
        if (item->type() == NodeItemType || item->type() == GroupItemType)
            return static_cast<EndpointItem*>(item);
    return nullptr;
}

void TopologyCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton || (spaceHeld_ && event->button() == Qt::LeftButton)) {
        panning_ = true;
        panFrom_ = event->pos();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (tool_->press(event, mapToScene(event->pos())))
        return;
    QGraphicsView::mousePressEvent(event);
    dragStart_.clear();
    for (QGraphicsItem* item : scene_->selectedItems())
        if (item->type() == NodeItemType || item->type() == GroupItemType)
            dragStart_.push_back({static_cast<EndpointItem*>(item), item->pos()});
}

void TopologyCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (panning_) {
        const QPoint d = event->pos() - panFrom_;
        panFrom_ = event->pos();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        return;
    }
    if (tool_->move(event, mapToScene(event->pos())))
        return;
    QGraphicsView::mouseMoveEvent(event);
}

void TopologyCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_) {
        panning_ = false;
        viewport()->setCursor(tool_->rubberBand() ? Qt::ArrowCursor : Qt::CrossCursor);
        return;
    }
    if (tool_->release(event, mapToScene(event->pos())))
        return;
    QGraphicsView::mouseReleaseEvent(event);
    commitMoves();
}

void TopologyCanvas::commitMoves() {
    // Nodes take their item's position; a group's members move by the group's offset.
    std::vector<std::string> ids;
    std::vector<QPointF> positions;
    const ClusterGraph& g = model()->graph();
    for (const auto& [item, start] : dragStart_) {
        const QPointF delta = item->pos() - start;
        if (delta.manhattanLength() < 1e-9)
            continue;
        for (int v : scene_->nodesOf(item)) {
            ids.push_back(g.nodes[v].id);
            positions.push_back(item->type() == NodeItemType
                                    ? item->pos()
                                    : QPointF(g.nodes[v].x.value_or(0), g.nodes[v].y.value_or(0)) +
                                          delta);
        }
    }
    dragStart_.clear();
    if (!ids.empty())
        model()->moveNodes(ids, positions, ++dragId_);
}

void TopologyCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (EndpointItem* item = endpointAt(event->pos()); item && item->type() == GroupItemType) {
        scene_->setExpanded(static_cast<GroupItem*>(item)->group(), true);
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void TopologyCanvas::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        spaceHeld_ = true;
        viewport()->setCursor(Qt::OpenHandCursor);
    } else if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) {
        deleteSelection();
    } else if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) {
        zoomBy(1.25);
    } else if (event->key() == Qt::Key_Minus) {
        zoomBy(0.8);
    } else if (event->key() == Qt::Key_0 || event->key() == Qt::Key_Home) {
        fitAll();
    } else {
        QGraphicsView::keyPressEvent(event);
    }
}

void TopologyCanvas::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        spaceHeld_ = false;
        viewport()->setCursor(tool_->rubberBand() ? Qt::ArrowCursor : Qt::CrossCursor);
    }
    QGraphicsView::keyReleaseEvent(event);
}

void TopologyCanvas::contextMenuEvent(QContextMenuEvent* event) {
    QGraphicsItem* item = itemAt(event->pos());
    EndpointItem* end = endpointAt(event->pos());
    QMenu menu(this);
    if (end && end->type() == GroupItemType) {
        const int group = static_cast<GroupItem*>(end)->group();
        menu.addAction(tr("Expand"), this, [this, group] { scene_->setExpanded(group, true); });
    }
    if (end) {
        // Collapse the innermost group around what was clicked.
        const std::vector<int> nodes = scene_->nodesOf(end);
        int group = nodes.empty() ? -1 : scene_->hierarchy().groupOf[nodes.front()];
        if (end->type() == GroupItemType)
            group = scene_->hierarchy().groups[static_cast<GroupItem*>(end)->group()].parent;
        while (group >= 0 && !scene_->isExpanded(group))
            group = scene_->hierarchy().groups[group].parent;
        if (group >= 0)
            menu.addAction(
                tr("Collapse %1")
                    .arg(QString::fromStdString(scene_->hierarchy().groups[group].label)),
                this, [this, group] { scene_->setExpanded(group, false); });
    }
    if (item)
        menu.addAction(tr("Delete"), this, [this, item] { deleteItems({item}); });
    menu.addSeparator();
    menu.addAction(tr("Fit to window"), this, &TopologyCanvas::fitAll);
    menu.exec(event->globalPos());
}

void TopologyCanvas::deleteSelection() {
    deleteItems(scene_->selectedItems());
}

void TopologyCanvas::deleteItems(const QList<QGraphicsItem*>& items) {
    const ClusterGraph& g = model()->graph();
    const Topology& t = model()->topology();
    const int hostLinks = model()->hostLinkCount();
    std::vector<std::string> nodes;
    std::vector<int> links;
    std::vector<std::pair<std::string, std::string>> attachments;
    for (QGraphicsItem* item : items) {
        if (item->type() == NodeItemType || item->type() == GroupItemType) {
            for (int v : scene_->nodesOf(static_cast<EndpointItem*>(item)))
                nodes.push_back(g.nodes[v].id);
        } else if (item->type() == EdgeItemType) {
            for (int li : scene_->linksOf(static_cast<EdgeItem*>(item))) {
                if (li >= hostLinks) {
                    links.push_back(li - hostLinks);
                    continue;
                }
                const TopoLink& l = t.links[li];
                const bool aNic = t.nodes[l.a].kind == NodeKind::Nic;
                attachments.push_back({g.nodes[aNic ? l.a : l.b].id, g.nodes[aNic ? l.b : l.a].id});
            }
        }
    }
    if (!model()->removeItems(nodes, links, attachments) && !items.isEmpty())
        showMessage(tr("Nothing to delete"));
}

double TopologyCanvas::defaultBandwidth(const std::string& from, const std::string& to) const {
    const ClusterConfig c = model()->cluster();
    const ConnectionCheck check = model()->connectionPossible(from, to);
    if (check.linkClass == LinkClass::ScaleUp)
        return c.scaleUp.bandwidthGBps > 0 ? c.scaleUp.bandwidthGBps : 450;
    if (check.linkClass == LinkClass::Wan && c.scaleOut.wanGbitPerS > 0)
        return c.scaleOut.wanGbitPerS / 8;
    return c.scaleOut.nicGbitPerS > 0 ? c.scaleOut.nicGbitPerS / 8 : 50;
}

int TopologyCanvas::defaultRadix() const {
    const ClusterConfig c = model()->cluster();
    return c.scaleOut.switchRadix > 0 ? c.scaleOut.switchRadix : 64;
}

bool TopologyCanvas::exportSvg(const QString& path) const {
    const QRectF r = scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40);
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(r.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), r.size()));
    svg.setTitle(QStringLiteral("Trainscape topology"));
    QPainter painter;
    if (!painter.begin(&svg))
        return false;
    scene_->render(&painter, QRectF(QPointF(0, 0), r.size()), r);
    return painter.end();
}

bool TopologyCanvas::exportPng(const QString& path, int maxSide) const {
    const QRectF r = scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40);
    const double s = std::min(1.0, maxSide / std::max(r.width(), r.height()));
    QImage image(std::max(1, int(r.width() * s)), std::max(1, int(r.height() * s)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(kCanvasBackground);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    scene_->render(&painter, QRectF(image.rect()), r);
    painter.end();
    return image.save(path, "PNG");
}

} // namespace ts::gui
