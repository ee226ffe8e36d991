#pragma once
// How the plan lays the model over the GPUs: one column per pipeline stage with the layers
// it holds, the TP x CP GPUs of one stage replica drawn as cells, and how many data-parallel
// replicas repeat it. Counting only; the estimate is core's.

#include "scenario/ResolvedScenario.h"

#include <QWidget>

#include <optional>

namespace ts::gui {

class PlanLayoutView : public QWidget {
    Q_OBJECT
public:
    // "Stage 3", or "Stages 3–15" for the stages drawn as one box (counted from 0).
    static QString stageTitle(int stage, int stages, bool rest);
    explicit PlanLayoutView(QWidget* parent = nullptr);

    void setScenario(const ResolvedScenario* scenario);
    // What the view says while it has no scenario.
    void setPlaceholderText(const QString& text);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Transformer layers held by pipeline rank `stage` (all its virtual chunks), 0-based.
    static int layersOfStage(const ParallelConfig& plan, int stage);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QColor stageColor(int stage, int stages) const;
    void paintEmpty(QPainter& painter);
    void paintStage(QPainter& painter, const QRectF& box, int stage);
    struct Geometry {
        QRectF area;  // inside the margins
        QRectF block; // the front pipeline: all stage boxes
        qreal top = 0;
        qreal stageWidth = 0;
        qreal stageHeight = 0;
        qreal cell = 0; // side of one GPU cell
        qreal requiredHeight = 0;
        int ghosts = 0; // data-parallel replicas drawn behind the front pipeline
        int stages = 0;
        int perRow = 0;
        int stageRows = 0;
    };
    Geometry geometryFor(const QSizeF& size) const;
    qreal stageTextHeight() const;
    // Asks for the height the drawing needs at this width (a scroll area provides it).
    void updateMinimumHeight();
    QString replicaText() const;
    QString domainText() const;

    std::optional<ResolvedScenario> scenario_;
    QString placeholderText_;
};

} // namespace ts::gui
