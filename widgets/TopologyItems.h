#pragma once
// The topology canvas's items: a node (GPU, NIC, switch, scale-up switch, WAN router), a
// collapsed group (pod, unit, domain, server, switch block) and an edge (one link, or the
// bundle of links between two things drawn). Items paint by level of detail: zoomed out, a
// node is a filled rectangle and text is skipped, so that thousands of items paint in a frame.

#include "scenario/ClusterGraph.h"

#include <QColor>
#include <QGraphicsItem>
#include <QString>

#include <optional>
#include <vector>

namespace ts::gui {

class EdgeItem;

// The canvas's background (TopologyCanvas); zoomed-out edges are drawn opaque over it.
inline const QColor kCanvasBackground(248, 250, 252);

enum TopologyItemType {
    NodeItemType = QGraphicsItem::UserType + 1,
    GroupItemType,
    EdgeItemType,
};

// Highlight state shared by nodes and groups.
struct ItemMarks {
    bool lit = false; // in the group overlay
    QString error;    // a validation message: red outline, tooltip
};

// A drawn thing an edge can end on.
class EndpointItem : public QGraphicsItem {
public:
    void addEdge(EdgeItem* edge) { edges_.push_back(edge); }
    const std::vector<EdgeItem*>& edges() const { return edges_; }
    ItemMarks marks;
    void setMarks(const ItemMarks& m);
    virtual QString baseToolTip() const = 0;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
    std::vector<EdgeItem*> edges_;
};

class NodeItem : public EndpointItem {
public:
    NodeItem(int node, const GraphNode& data);
    int type() const override { return NodeItemType; }
    int node() const { return node_; }
    const std::string& id() const { return id_; }
    GraphNodeKind kind() const { return kind_; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    QString baseToolTip() const override;
    static QColor color(GraphNodeKind kind);

private:
    int node_;
    std::string id_;
    QString label_;
    GraphNodeKind kind_;
    std::optional<QColor> groupColor_; // a pool's GPUs: the pool's colour
    QRectF rect_;
};

class GroupItem : public EndpointItem {
public:
    // `rect` in scene coordinates; the item sits at its top-left corner.
    GroupItem(int group, const QString& key, const QString& title, const QString& detail,
              const QRectF& rect);
    int type() const override { return GroupItemType; }
    int group() const { return group_; }
    const QString& key() const { return key_; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    QString baseToolTip() const override;

private:
    int group_;
    QString key_, title_, detail_;
    QRectF rect_; // local
};

class EdgeItem : public QGraphicsItem {
public:
    enum class Style { ScaleUp, ScaleOut, Wan, Host };
    EdgeItem(int edge, EndpointItem* a, EndpointItem* b, Style style, int links);
    int type() const override { return EdgeItemType; }
    int edge() const { return edge_; }
    EndpointItem* endA() const { return a_; }
    EndpointItem* endB() const { return b_; }
    void updateGeometry();
    // Heat: utilisation 0..1 (negative: no heat map); lit: in the group overlay.
    void setHeat(double utilisation);
    void setLit(bool lit);
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    static QColor heatColor(double utilisation);

private:
    QPen pen() const;
    int edge_;
    EndpointItem *a_, *b_;
    Style style_;
    int links_;
    double heat_ = -1;
    bool lit_ = false;
    QLineF line_;
};

} // namespace ts::gui
