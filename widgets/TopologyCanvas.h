#pragma once
// The topology canvas's view: zoom (wheel, about the mouse), pan (middle button, or Space and
// drag), rubber-band selection, the current tool (TopologyTools.h), a drag of nodes or groups
// as one undo step, double-click to expand a group, a context menu to expand, collapse and
// delete, and export of the drawing as SVG or PNG.

#include <QGraphicsView>

#include <memory>
#include <string>

namespace ts::gui {

class CanvasTool;
class EndpointItem;
class TopologyGraphModel;
class TopologyScene;

class TopologyCanvas : public QGraphicsView {
    Q_OBJECT
public:
    TopologyCanvas(TopologyScene* scene, QWidget* parent = nullptr);
    ~TopologyCanvas() override;

    TopologyScene* topologyScene() const { return scene_; }
    TopologyGraphModel* model() const;
    void setTool(std::unique_ptr<CanvasTool> tool);
    CanvasTool* tool() const { return tool_.get(); }

    void zoomBy(double factor);
    void fitAll();
    double zoom() const;
    void deleteItems(const QList<QGraphicsItem*>& items);
    void deleteSelection();
    EndpointItem* endpointAt(const QPoint& viewPos) const;
    // Defaults for what the tools create: the cluster's rates and radix.
    double defaultBandwidth(const std::string& from, const std::string& to) const;
    int defaultRadix() const;
    void showMessage(const QString& text) { emit message(text); }

    bool exportSvg(const QString& path) const;
    bool exportPng(const QString& path, int maxSide = 4096) const;

signals:
    void message(const QString& text);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void commitMoves();

    TopologyScene* scene_;
    std::unique_ptr<CanvasTool> tool_;
    bool panning_ = false;
    bool spaceHeld_ = false;
    QPoint panFrom_;
    int dragId_ = 0;
    std::vector<std::pair<EndpointItem*, QPointF>> dragStart_;
};

} // namespace ts::gui
