#pragma once
// The drawn network's bill of materials (core/topology/NetworkBom.h): switches, transceivers,
// cables and NICs with unit and total price and power from the catalog, and the network's
// capital cost and power; a unit figure the catalog lacks shows as "unknown" (with the known
// part and the reason), never as zero.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ts {
struct Topology;
}

namespace ts::gui {

class NetworkBomPanel : public QWidget {
    Q_OBJECT
public:
    explicit NetworkBomPanel(QWidget* parent = nullptr);
    void setTopology(const Topology& topology);
    QString totalsText() const;

private:
    QLabel* totals_;
    QTableWidget* table_;
    QLabel* notes_;
};

} // namespace ts::gui
