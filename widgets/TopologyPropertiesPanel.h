#pragma once
// Properties of the canvas's selection: a node's label, radix, tier and pod; a link's class,
// bandwidth and latency (bundles of links: all of them at once); a group's contents with
// Expand / Collapse. Every change is an undo step through the graph model.

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace ts::gui {

class TopologyScene;

class TopologyPropertiesPanel : public QWidget {
    Q_OBJECT
public:
    explicit TopologyPropertiesPanel(TopologyScene* scene, QWidget* parent = nullptr);
    void refresh(); // from the scene's selection

private:
    void showNode(int node);
    void showLinks(const std::vector<int>& graphLinks, const QString& title);
    void editNode();
    void editLinks();

    TopologyScene* scene_;
    QStackedWidget* pages_;
    QLabel* summary_;
    // Node page.
    QLabel* nodeTitle_;
    QLineEdit* label_;
    QSpinBox *radix_, *tier_, *pod_;
    int node_ = -1;
    // Link page.
    QLabel* linkTitle_;
    QComboBox* linkClass_;
    QDoubleSpinBox *bandwidth_, *latency_;
    std::vector<int> links_;
    // Group page.
    QLabel* groupTitle_;
    QPushButton *expand_, *collapse_;
    int group_ = -1;
    bool loading_ = false;
};

} // namespace ts::gui
