#pragma once
// The frame every dashboard chart shares: a QCustomPlot styled from the palette (so that it
// follows light and dark themes), a title, hover tooltips with value and unit over any
// drawn element, and export of the chart as PNG, SVG or PDF (context menu, or exportTo()).

#include "estimate/Estimate.h"
#include "scenario/ResolvedScenario.h"

#include <QRectF>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPAxis;
class QLabel;
class QStackedLayout;
class QMenu;
class QMouseEvent;

namespace ts::gui {

class EstimateChart : public QWidget {
    Q_OBJECT
public:
    explicit EstimateChart(QWidget* parent = nullptr);
    ~EstimateChart() override;

    // nullptr clears the chart and shows `reason` in its place.
    void setEstimate(const Estimate* estimate, const ResolvedScenario* scenario,
                     const QString& reason = {});

    QCustomPlot* plot() const { return plot_; }
    QString title() const;
    // The tooltip text for a point in plot coordinates (key, value); empty: nothing there.
    QString hoverTextAt(double key, double value) const;
    int hoverRegionCount() const { return int(hover_.size()); }

    // The chart's menu (Export Chart…), opened at `globalPos`; right-click anywhere on the
    // chart opens it. It deletes itself when closed.
    QMenu* showContextMenu(const QPoint& globalPos);

    // By the file's suffix: .png (at 2x), .svg or .pdf. Returns false with `error` set.
    bool exportTo(const QString& path, QString* error = nullptr) const;

protected:
    // Subclasses draw the estimate (the plot is cleared before) and register hover regions.
    virtual void draw(const Estimate& estimate, const ResolvedScenario& scenario) = 0;
    virtual QString chartTitle() const = 0;

    void addHover(const QRectF& keyValueRect, const QString& text);
    // Series colours from a fixed, colour-blind-safe set (Okabe–Ito), one per index.
    static QColor seriesColor(int index);
    QColor textColor() const;
    QColor gridColor() const;
    void styleAxis(QCPAxis* axis) const;
    // The legend in one row of `columns` entries under the plot, so that it hides no data.
    void placeLegendBelow(int columns);

    void changeEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();
    void applyPalette();
    void showHover(QMouseEvent* event);
    void exportFromDialog();

    QLabel* title_;
    QCustomPlot* plot_;
    QLabel* placeholder_;
    QStackedLayout* stack_;
    std::optional<Estimate> estimate_;
    std::optional<ResolvedScenario> scenario_;
    QString reason_;
    struct HoverRegion {
        QRectF rect; // in (key, value) coordinates; normalized
        QString text;
    };
    std::vector<HoverRegion> hover_;
};

} // namespace ts::gui
