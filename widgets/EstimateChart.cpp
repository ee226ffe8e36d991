#include "EstimateChart.h"

#include <qcustomplot.h>

#include <QAbstractScrollArea>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QScopeGuard>
#include <QScrollBar>
#include <QStackedLayout>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>

namespace ts::gui {

EstimateChart::EstimateChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    title_ = new QLabel(this);
    QFont font = title_->font();
    font.setWeight(QFont::DemiBold);
    title_->setFont(font);
    title_->setContentsMargins(4, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(200);
    // The chart's menu anywhere on the plot, not only on its title.
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this,
            [this](const QPoint& pos) { showContextMenu(plot_->mapToGlobal(pos)); });
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    placeholder_ = new QLabel(this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);
    stack_ = new QStackedLayout;
    stack_->addWidget(plot_);
    stack_->addWidget(placeholder_);
    layout->addWidget(title_);
    layout->addLayout(stack_, 1);
    connect(plot_, &QCustomPlot::mouseMove, this, &EstimateChart::showHover);
    applyPalette();
}

EstimateChart::~EstimateChart() = default;

void EstimateChart::setEstimate(const Estimate* estimate, const ResolvedScenario* scenario,
                                const QString& reason) {
    if (estimate && scenario) {
        estimate_ = *estimate;
        scenario_ = *scenario;
    } else {
        estimate_.reset();
        scenario_.reset();
    }
    reason_ = reason;
    redraw();
}

QString EstimateChart::title() const {
    return title_->text();
}

void EstimateChart::redraw() {
    title_->setText(chartTitle());
    plot_->clearPlottables();
    plot_->clearItems();
    hover_.clear();
    if (!estimate_) {
        placeholder_->setText(reason_.isEmpty() ? tr("No estimate") : reason_);
        stack_->setCurrentWidget(placeholder_);
        return;
    }
    stack_->setCurrentWidget(plot_);
    for (QCPAxis* axis : plot_->axisRect()->axes())
        styleAxis(axis);
    draw(*estimate_, *scenario_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void EstimateChart::addHover(const QRectF& keyValueRect, const QString& text) {
    hover_.push_back({keyValueRect.normalized(), text});
}

QString EstimateChart::hoverTextAt(double key, double value) const {
    for (const HoverRegion& region : hover_) {
        const QRectF& r = region.rect;
        if (key >= r.left() && key <= r.right() && value >= r.top() && value <= r.bottom())
            return region.text;
    }
    return {};
}

void EstimateChart::showHover(QMouseEvent* event) {
    QCPAxis* keyAxis = plot_->xAxis;
    QCPAxis* valueAxis = plot_->yAxis;
    const QPointF pos = event->position();
    // Horizontal bar charts put the keys on the y axis: subclasses register them that way
    // round, so try both orientations.
    QString text = hoverTextAt(keyAxis->pixelToCoord(pos.x()), valueAxis->pixelToCoord(pos.y()));
    if (text.isEmpty())
        text = hoverTextAt(valueAxis->pixelToCoord(pos.y()), keyAxis->pixelToCoord(pos.x()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

QColor EstimateChart::seriesColor(int index) {
    static const QColor colors[] = {
        QColor(0, 114, 178),  QColor(230, 159, 0), QColor(0, 158, 115),  QColor(204, 121, 167),
        QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66), QColor(150, 150, 150)};
    return colors[index % 8];
}

QColor EstimateChart::textColor() const {
    return palette().color(QPalette::WindowText);
}

QColor EstimateChart::gridColor() const {
    QColor c = palette().color(QPalette::WindowText);
    c.setAlphaF(0.15f);
    return c;
}

void EstimateChart::styleAxis(QCPAxis* axis) const {
    const QColor text = textColor();
    QColor line = text;
    line.setAlphaF(0.6f);
    axis->setBasePen(QPen(line));
    axis->setTickPen(QPen(line));
    axis->setSubTickPen(QPen(line));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->setTickLabelFont(font());
    axis->setLabelFont(font());
    axis->grid()->setPen(QPen(gridColor(), 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

void EstimateChart::placeLegendBelow(int columns) {
    QCPLegend* legend = plot_->legend;
    if (legend->layout() == plot_->axisRect()->insetLayout()) {
        plot_->axisRect()->insetLayout()->take(legend);
        plot_->plotLayout()->addElement(1, 0, legend);
        plot_->plotLayout()->setRowStretchFactor(1, 0.001);
        plot_->plotLayout()->setRowSpacing(2);
        legend->setMargins(QMargins(4, 2, 4, 2));
    }
    legend->setVisible(true);
    // The wrap first: setFillOrder() rearranges the entries with the wrap then in force.
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setTextColor(textColor());
    legend->setFont(font());
}

void EstimateChart::applyPalette() {
    plot_->setBackground(palette().brush(QPalette::Base));
    plot_->axisRect()->setBackground(palette().brush(QPalette::Base));
    if (plot_->legend) {
        plot_->legend->setBrush(palette().brush(QPalette::Base));
        plot_->legend->setTextColor(textColor());
        plot_->legend->setBorderPen(QPen(gridColor()));
        plot_->legend->setFont(font());
    }
}

void EstimateChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange) {
        applyPalette();
        redraw();
    }
    QWidget::changeEvent(event);
}

void EstimateChart::contextMenuEvent(QContextMenuEvent* event) {
    showContextMenu(event->globalPos());
}

QMenu* EstimateChart::showContextMenu(const QPoint& globalPos) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Export Chart…"), this, &EstimateChart::exportFromDialog);
    menu->popup(globalPos);
    return menu;
}

// A chart that does not zoom passes the mouse wheel on to the dashboard, which scrolls.
bool EstimateChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Wheel &&
        !plot_->interactions().testFlag(QCP::iRangeZoom)) {
        for (QWidget* w = parentWidget(); w; w = w->parentWidget()) {
            if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
                QCoreApplication::sendEvent(area->verticalScrollBar(), event);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool EstimateChart::exportTo(const QString& path, QString* error) const {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const int w = std::max(plot_->width(), 640);
    const int h = std::max(plot_->height(), 360) + 30;
    // An exported chart stands alone: its title goes inside the picture for the export.
    QCPLayoutGrid* layout = plot_->plotLayout();
    layout->insertRow(0);
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);
    auto* heading = new QCPTextElement(plot_, chartTitle(), titleFont);
    heading->setTextColor(textColor());
    layout->addElement(0, 0, heading);
    const auto removeHeading = qScopeGuard([&] {
        layout->remove(heading);
        layout->simplify();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = plot_->savePng(path, w, h, 2.0);
    } else if (suffix == QLatin1String("pdf")) {
        ok = plot_->savePdf(path, w, h, QCP::epNoCosmetic, QStringLiteral("Trainscape"),
                            chartTitle());
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(QSize(w, h));
        generator.setViewBox(QRect(0, 0, w, h));
        generator.setTitle(chartTitle());
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            plot_->toPainter(&painter, w, h);
            ok = painter.end();
        }
    } else {
        if (error)
            *error = tr("unknown format \"%1\": choose .png, .svg or .pdf").arg(suffix);
        return false;
    }
    if (!ok && error)
        *error = tr("cannot write %1").arg(path);
    return ok;
}

void EstimateChart::exportFromDialog() {
    QString selected;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chart"), chartTitle(),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
                : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                          : QStringLiteral(".png");
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export Chart"), error);
}

} // namespace ts::gui
