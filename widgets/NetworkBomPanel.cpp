#include "NetworkBomPanel.h"

#include "QuantityText.h"

#include "catalog/Catalog.h"
#include "topology/NetworkBom.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

QString usdText(double usd) {
    return QStringLiteral("$") + siPrefixed(usd);
}

} // namespace

NetworkBomPanel::NetworkBomPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    totals_ = new QLabel(this);
    totals_->setWordWrap(true);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(0, 5, this);
    table_->setHorizontalHeaderLabels(
        {tr("Item"), tr("Count"), tr("Unit price"), tr("Price"), tr("Power")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    notes_ = new QLabel(this);
    notes_->setWordWrap(true);
    notes_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(totals_);
    layout->addWidget(table_, 1);
    layout->addWidget(notes_);
}

QString NetworkBomPanel::totalsText() const {
    return totals_->text();
}

void NetworkBomPanel::setTopology(const Topology& topology) {
    const NetworkBom bom = networkBom(topology, Catalog::builtIn().network());
    const QString unknown = tr("unknown");
    QString capex = bom.capexUsd
                        ? usdText(*bom.capexUsd)
                        : tr("%1 (known part %2)").arg(unknown, usdText(bom.knownCapexUsd));
    QString power = bom.powerW ? wattsText(*bom.powerW)
                               : tr("%1 (known part %2)").arg(unknown, wattsText(bom.knownPowerW));
    totals_->setText(tr("Network capital cost: %1\nNetwork power: %2\n%3 switches, %4 "
                        "transceivers, %5 cables, %6 NICs")
                         .arg(capex, power, countText(bom.switches), countText(bom.transceivers),
                              countText(bom.cables), countText(bom.nics)));
    table_->setRowCount(static_cast<int>(bom.lines.size()));
    for (int r = 0; r < static_cast<int>(bom.lines.size()); ++r) {
        const BomLine& l = bom.lines[r];
        const QString item = QString::fromStdString(l.description.empty() ? l.item : l.description);
        const QString cells[] = {
            item, countText(l.count), l.unitPriceUsd ? usdText(*l.unitPriceUsd) : unknown,
            l.priceUsd ? usdText(*l.priceUsd) : unknown, l.powerW ? wattsText(*l.powerW) : unknown};
        for (int c = 0; c < 5; ++c)
            table_->setItem(r, c, new QTableWidgetItem(cells[c]));
    }
    QStringList notes;
    for (const std::string& n : bom.notes)
        notes << QString::fromStdString(n);
    notes_->setText(notes.join('\n'));
}

} // namespace ts::gui
