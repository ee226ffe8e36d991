#include "TopologyItems.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ts::gui {

namespace {

const QColor kLit(255, 196, 0);
const QColor kError(220, 38, 38);

qreal detail(const QStyleOptionGraphicsItem* option, QPainter* painter) {
    return option->levelOfDetailFromTransform(painter->worldTransform());
}

// `c` as it looks over `background`, without alpha.
QColor opaqueOver(const QColor& c, const QColor& background) {
    const double a = c.alphaF();
    const auto mix = [a](double fg, double bg) { return a * fg + (1 - a) * bg; };
    return QColor::fromRgbF(mix(c.redF(), background.redF()), mix(c.greenF(), background.greenF()),
                            mix(c.blueF(), background.blueF()));
}

QPointF centerOf(const QGraphicsItem* item) {
    return item->mapToScene(item->boundingRect().center());
}

} // namespace

void EndpointItem::setMarks(const ItemMarks& m) {
    if (m.lit == marks.lit && m.error == marks.error)
        return;
    marks = m;
    setToolTip(marks.error.isEmpty() ? baseToolTip() : baseToolTip() + "\n" + marks.error);
    update();
}

QVariant EndpointItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    if (change == ItemPositionHasChanged)
        for (EdgeItem* e : edges_)
            e->updateGeometry();
    return QGraphicsItem::itemChange(change, value);
}

NodeItem::NodeItem(int node, const GraphNode& data)
    : node_(node), id_(data.id), label_(QString::fromStdString(data.label.value_or(data.id))),
      kind_(data.kind) {
    // GPUs of a pool (hetero/PoolsGraph.h: labelled with the pool, grouped by `pod`) take the
    // pool's colour, so that each pool reads as one group.
    if (kind_ == GraphNodeKind::Gpu && data.pod && data.label) {
        static const QColor pools[] = {QColor(118, 185, 0), QColor(20, 184, 166),
                                       QColor(234, 179, 8), QColor(236, 72, 153)};
        groupColor_ = pools[std::size_t(*data.pod) % std::size(pools)];
    }
    switch (kind_) {
    case GraphNodeKind::Gpu:
        rect_ = QRectF(-12, -12, 24, 24);
        break;
    case GraphNodeKind::Nic:
        rect_ = QRectF(-10, -6, 20, 12);
        break;
    case GraphNodeKind::ScaleUpSwitch:
        rect_ = QRectF(-22, -8, 44, 16);
        break;
    case GraphNodeKind::Router:
        rect_ = QRectF(-18, -18, 36, 36);
        break;
    case GraphNodeKind::Switch:
        rect_ = QRectF(-20, -9, 40, 18);
        break;
    }
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
    setPos(data.x.value_or(0), data.y.value_or(0));
    setZValue(2);
    setToolTip(baseToolTip());
}

QColor NodeItem::color(GraphNodeKind kind) {
    switch (kind) {
    case GraphNodeKind::Gpu:
        return QColor(118, 185, 0);
    case GraphNodeKind::Nic:
        return QColor(59, 130, 246);
    case GraphNodeKind::ScaleUpSwitch:
        return QColor(147, 51, 234);
    case GraphNodeKind::Router:
        return QColor(234, 88, 12);
    case GraphNodeKind::Switch:
        break;
    }
    return QColor(71, 85, 105);
}

QRectF NodeItem::boundingRect() const {
    return rect_.adjusted(-3, -3, 3, 3);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const qreal lod = detail(option, painter);
    const QColor fill = groupColor_.value_or(color(kind_));
    if (lod < 0.25) { // a dot-sized shape: one fill, no outline
        painter->fillRect(rect_, marks.error.isEmpty() ? (marks.lit ? kLit : fill) : kError);
        return;
    }
    QPen pen(isSelected() ? QColor(14, 165, 233) : fill.darker(140), isSelected() ? 3 : 1);
    if (!marks.error.isEmpty())
        pen = QPen(kError, 3);
    else if (marks.lit)
        pen = QPen(kLit, 3);
    painter->setPen(pen);
    painter->setBrush(marks.lit ? fill.lighter(130) : fill);
    if (kind_ == GraphNodeKind::Router)
        painter->drawEllipse(rect_);
    else
        painter->drawRoundedRect(rect_, 3, 3);
    if (lod > 1.2) {
        QFont f = painter->font();
        f.setPointSizeF(6);
        painter->setFont(f);
        painter->setPen(Qt::white);
        painter->drawText(rect_, Qt::AlignCenter, label_.right(6));
    }
}

QString NodeItem::baseToolTip() const {
    return label_;
}

GroupItem::GroupItem(int group, const QString& key, const QString& title, const QString& detailText,
                     const QRectF& rect)
    : group_(group), key_(key), title_(title), detail_(detailText),
      rect_(QPointF(0, 0), rect.size()) {
    setPos(rect.topLeft());
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
    setZValue(1);
    // Its text is laid out once per zoom level, not once per frame.
    setCacheMode(DeviceCoordinateCache);
    setToolTip(baseToolTip());
}

QRectF GroupItem::boundingRect() const {
    return rect_.adjusted(-4, -4, 4, 4);
}

void GroupItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const qreal lod = detail(option, painter);
    QColor fill(226, 232, 240);
    if (marks.lit)
        fill = QColor(254, 240, 138);
    QPen pen(QColor(100, 116, 139), 0);
    if (isSelected())
        pen = QPen(QColor(14, 165, 233), 0);
    if (!marks.error.isEmpty())
        pen = QPen(kError, 0);
    pen.setWidthF(std::max(1.0, 2.0 / std::max(lod, 0.01)));
    painter->setPen(pen);
    painter->setBrush(fill);
    painter->drawRect(rect_);
    // Text at a readable size whatever the zoom, when the box is large enough on screen.
    const qreal onScreenWidth = rect_.width() * lod;
    if (onScreenWidth < 40)
        return;
    painter->save();
    painter->translate(rect_.topLeft());
    painter->scale(1 / lod, 1 / lod);
    QFont f = painter->font();
    f.setPointSizeF(8);
    painter->setFont(f);
    painter->setPen(QColor(30, 41, 59));
    // A line each, cut with an ellipsis: wrapping a narrow box's title pushed its detail out.
    const QFontMetrics metrics(f);
    const qreal width = rect_.width() * lod - 8;
    const QString text[2] = {title_, detail_};
    // The title keeps its end ("...unit 100"), the detail its start; a line whose baseline
    // falls inside the box is drawn.
    const Qt::TextElideMode mode[2] = {Qt::ElideLeft, Qt::ElideRight};
    for (int i = 0; i < 2; ++i) {
        const qreal baseline = 2 + metrics.ascent() + i * metrics.height();
        if (i > 0 && baseline > rect_.height() * lod)
            break;
        painter->drawText(QPointF(4, baseline), metrics.elidedText(text[i], mode[i], int(width)));
    }
    painter->restore();
}

QString GroupItem::baseToolTip() const {
    return title_ + "\n" + detail_;
}

EdgeItem::EdgeItem(int edge, EndpointItem* a, EndpointItem* b, Style style, int links)
    : edge_(edge), a_(a), b_(b), style_(style), links_(links) {
    setFlags(ItemIsSelectable);
    setZValue(style == Style::Host ? -1 : 0);
    a->addEdge(this);
    b->addEdge(this);
    updateGeometry();
}

void EdgeItem::updateGeometry() {
    prepareGeometryChange();
    line_ = QLineF(centerOf(a_), centerOf(b_));
}

void EdgeItem::setHeat(double utilisation) {
    if (heat_ != utilisation) {
        heat_ = utilisation;
        update();
    }
}

void EdgeItem::setLit(bool lit) {
    if (lit_ != lit) {
        lit_ = lit;
        setZValue(lit ? 0.5 : (style_ == Style::Host ? -1 : 0));
        update();
    }
}

QColor EdgeItem::heatColor(double u) {
    // Cool (idle) to hot (at line rate and above): blue, green, yellow, red.
    const double t = std::clamp(u, 0.0, 1.0);
    const QColor stops[] = {QColor(59, 130, 246), QColor(34, 197, 94), QColor(250, 204, 21),
                            QColor(239, 68, 68)};
    const double x = t * 3;
    const int i = std::min(2, static_cast<int>(x));
    const double f = x - i;
    const QColor &c0 = stops[i], &c1 = stops[i + 1];
    return QColor::fromRgbF(c0.redF() + f * (c1.redF() - c0.redF()),
                            c0.greenF() + f * (c1.greenF() - c0.greenF()),
                            c0.blueF() + f * (c1.blueF() - c0.blueF()));
}

QPen EdgeItem::pen() const {
    QColor c;
    switch (style_) {
    case Style::ScaleUp:
        c = QColor(147, 51, 234, 150);
        break;
    case Style::ScaleOut:
        c = QColor(71, 85, 105, 120);
        break;
    case Style::Wan:
        c = QColor(234, 88, 12, 200);
        break;
    case Style::Host:
        c = QColor(148, 163, 184, 120);
        break;
    }
    if (heat_ >= 0)
        c = heatColor(heat_);
    if (lit_)
        c = kLit;
    if (isSelected())
        c = QColor(14, 165, 233);
    // Wider for bundles: 1 link 1 px, 64 links ~ 4 px (cosmetic pens: on screen).
    QPen p(c, 1.0 + std::log2(double(std::max(1, links_))) / 2 + (lit_ || heat_ >= 0.5 ? 1 : 0));
    p.setCosmetic(true);
    return p;
}

QRectF EdgeItem::boundingRect() const {
    return QRectF(line_.p1(), line_.p2()).normalized().adjusted(-4, -4, 4, 4);
}

QPainterPath EdgeItem::shape() const {
    QPainterPath path(line_.p1());
    path.lineTo(line_.p2());
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    return stroker.createStroke(path);
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    QPen p = pen();
    // Zoomed out, hairlines: a wide pen goes through the stroker, ten times slower per line.
    // Opaque too: Qt's raster engine blends a translucent line span by span and hands long
    // lines' spans to its thread pool (profiled: QRasterPaintEngine::stroke ->
    // QThreadPool::start), which cost a fitted 32k-GPU frame 76 ms against 10 ms opaque
    // (bench_topology_canvas).
    if (!lit_ && !isSelected() && detail(option, painter) < 0.5) {
        p.setWidth(0);
        p.setColor(opaqueOver(p.color(), kCanvasBackground));
    }
    painter->setPen(p);
    painter->drawLine(line_);
}

} // namespace ts::gui
