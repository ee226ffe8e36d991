#pragma once
// Tools of the topology canvas, one class each (as Tiled's tools): select (rubber band,
// drag to move: one undo step per drag), add a GPU / NIC / switch / scale-up switch / WAN
// router where clicked, link two nodes (the model says whether they may be linked and with
// what class), delete what is clicked.

#include "scenario/ClusterGraph.h"

#include <QCoreApplication>
#include <QPointF>
#include <QString>

class QGraphicsLineItem;
class QMouseEvent;

namespace ts::gui {

class TopologyCanvas;

class CanvasTool {
public:
    explicit CanvasTool(TopologyCanvas* canvas) : canvas_(canvas) {}
    virtual ~CanvasTool() = default;
    virtual QString id() const = 0; // "select", "add-gpu", "link", "delete", ...
    virtual QString name() const = 0;
    // true: the tool took the event (else the view's own handling runs).
    virtual bool press(QMouseEvent*, QPointF) { return false; }
    virtual bool move(QMouseEvent*, QPointF) { return false; }
    virtual bool release(QMouseEvent*, QPointF) { return false; }
    virtual void deactivate() {}
    virtual bool rubberBand() const { return false; }

protected:
    TopologyCanvas* canvas_;
};

class SelectTool : public CanvasTool {
    Q_DECLARE_TR_FUNCTIONS(ts::gui::SelectTool)
public:
    using CanvasTool::CanvasTool;
    QString id() const override { return QStringLiteral("select"); }
    QString name() const override { return tr("Select"); }
    bool rubberBand() const override { return true; }
};

class AddNodeTool : public CanvasTool {
    Q_DECLARE_TR_FUNCTIONS(ts::gui::AddNodeTool)
public:
    AddNodeTool(TopologyCanvas* canvas, GraphNodeKind kind) : CanvasTool(canvas), kind_(kind) {}
    QString id() const override;
    QString name() const override;
    bool press(QMouseEvent* event, QPointF scenePos) override;

private:
    GraphNodeKind kind_;
};

class LinkTool : public CanvasTool {
    Q_DECLARE_TR_FUNCTIONS(ts::gui::LinkTool)
public:
    using CanvasTool::CanvasTool;
    ~LinkTool() override;
    QString id() const override { return QStringLiteral("link"); }
    QString name() const override { return tr("Link"); }
    bool press(QMouseEvent* event, QPointF scenePos) override;
    bool move(QMouseEvent* event, QPointF scenePos) override;
    bool release(QMouseEvent* event, QPointF scenePos) override;
    void deactivate() override;

private:
    std::string from_;
    QGraphicsLineItem* line_ = nullptr;
};

class DeleteTool : public CanvasTool {
    Q_DECLARE_TR_FUNCTIONS(ts::gui::DeleteTool)
public:
    using CanvasTool::CanvasTool;
    QString id() const override { return QStringLiteral("delete"); }
    QString name() const override { return tr("Delete"); }
    bool press(QMouseEvent* event, QPointF scenePos) override;
};

} // namespace ts::gui
