#pragma once
// The Topology tab: the canvas (TopologyCanvas) with its tools, templates, properties and the
// network's bill of materials beside it, and the estimate on the drawing: the heat map of one
// step's bytes per link and the GPUs and links of one TP, CP, EP, DP or PP group. Routes are
// traced off the UI thread; a 32,768-GPU heat map routes a sample of ranks (said on hover).

#include "estimate/Estimate.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QSpinBox;
class QTabWidget;
class QToolBar;

namespace ts::gui {

class NetworkBomPanel;
class ScenarioDocument;
class TopologyCanvas;
class TopologyGraphModel;
class TopologyPropertiesPanel;
class TopologyScene;
class TopologyTemplatePanel;

class TopologyView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyView(ScenarioDocument* document, QWidget* parent = nullptr);
    ~TopologyView() override;

    TopologyGraphModel* model() const { return model_; }
    TopologyScene* scene() const { return scene_; }
    TopologyCanvas* canvas() const { return canvas_; }
    TopologyTemplatePanel* templates() const { return templates_; }
    NetworkBomPanel* bom() const { return bom_; }

    // The estimate of the document as it now stands (nullptr: none).
    void setEstimate(const Estimate* estimate);
    void setHeatMapShown(bool shown);
    // Overlay of one group: "tp", "cp", "ep", "dp", "pp" or "" (off), and its index.
    void setOverlay(const QString& dimension, int index);
    int overlayGroupCount() const;
    // Tools by id: "select", "add-gpu", "add-nic", "add-switch", "add-scale-up-switch",
    // "add-router", "link", "delete".
    bool selectTool(const QString& id);
    // Processes events until the heat map and the overlay are traced.
    bool waitForOverlays(int timeoutMs = 60000);
    QString statusText() const;
    // The status line under the canvas: the heat map's or the overlay's last message.
    QString statusLine() const;

private:
    void createToolBar();
    void structureChanged();
    void refreshValidation();
    void startHeat();
    void startOverlay();
    void exportDrawing(bool svg);

    ScenarioDocument* document_;
    TopologyGraphModel* model_;
    TopologyScene* scene_;
    TopologyCanvas* canvas_;
    QToolBar* toolBar_ = nullptr;
    QActionGroup* tools_ = nullptr;
    QAction* heatAction_ = nullptr;
    QComboBox* overlayDim_ = nullptr;
    QSpinBox* overlayIndex_ = nullptr;
    QTabWidget* side_ = nullptr;
    TopologyTemplatePanel* templates_ = nullptr;
    TopologyPropertiesPanel* properties_ = nullptr;
    NetworkBomPanel* bom_ = nullptr;
    QLabel* legend_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<Estimate> estimate_;
    std::shared_ptr<std::atomic<int>> generation_;
    int pending_ = 0;
    QString validation_;
};

} // namespace ts::gui
