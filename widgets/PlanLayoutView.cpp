#include "PlanLayoutView.h"

#include "QuantityText.h"
#include "parallel/PipelineSchedule.h"

#include <QPainter>
#include <QPainterPath>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace ts::gui {

// Stages count from 0 everywhere (pipeline ranks, as in Megatron-LM and the charts).
QString PlanLayoutView::stageTitle(int stage, int stages, bool rest) {
    return rest ? tr("Stages %1–%2").arg(stage).arg(stages - 1) : tr("Stage %1").arg(stage);
}

namespace {
constexpr int kMaxStagesDrawn = 16; // beyond this, the last column stands for the rest
constexpr int kMaxCellsPerSide = 16;
constexpr qreal kMargin = 16;
constexpr qreal kGap = 10;
constexpr qreal kPadding = 8;
constexpr qreal kCellGap = 4;
constexpr qreal kGhostOffset = 6;
constexpr qreal kMinStageWidth = 120;
constexpr qreal kMinCell = 10;
constexpr qreal kMaxCell = 36;
} // namespace

PlanLayoutView::PlanLayoutView(QWidget* parent) : QWidget(parent) {
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PlanLayoutView::setScenario(const ResolvedScenario* scenario) {
    if (scenario)
        scenario_ = *scenario;
    else
        scenario_.reset();
    updateMinimumHeight();
    update();
}

QSize PlanLayoutView::sizeHint() const {
    return {720, 360};
}
QSize PlanLayoutView::minimumSizeHint() const {
    return {320, 200};
}

int PlanLayoutView::layersOfStage(const ParallelConfig& plan, int stage) {
    // pipeline_layers lists pp*vpp chunks in model order: chunk k runs on rank k % pp, or
    // with ZB-V on the rank of the V (parallel/PipelineSchedule.h modelChunkPlace).
    int layers = 0;
    for (std::size_t k = 0; k < plan.pipelineLayers.size(); ++k)
        if (plan.pp > 0 && modelChunkPlace(plan.schedule, plan.pp, plan.vpp, int(k)).stage == stage)
            layers += plan.pipelineLayers[k];
    return layers;
}

QColor PlanLayoutView::stageColor(int stage, int stages) const {
    // Hues spread from the palette's highlight; lightness follows the theme so cells read
    // on both light and dark backgrounds.
    const QColor highlight = palette().color(QPalette::Highlight);
    const bool dark = palette().color(QPalette::Base).lightnessF() < 0.5;
    const int hue = (std::max(0, highlight.hsvHue()) + stage * 360 / std::max(1, stages)) % 360;
    return QColor::fromHsvF(hue / 360.0, dark ? 0.55 : 0.45, dark ? 0.70 : 0.92);
}

QString PlanLayoutView::replicaText() const {
    const ParallelConfig& p = scenario_->parallel;
    return tr("× %1 data-parallel replicas of this pipeline").arg(countText(p.dp));
}

QString PlanLayoutView::domainText() const {
    const ParallelConfig& p = scenario_->parallel;
    const int group = p.tp * p.cp;
    const int domain = scenario_->cluster.scaleUp.domainGpus;
    if (group == 1)
        return tr("TP × CP = 1 GPU per stage replica: no tensor or context parallel traffic");
    if (group <= domain)
        return tr("TP × CP = %1 GPUs per stage replica, inside one %2-GPU scale-up domain")
            .arg(countText(group), countText(domain));
    return tr("TP × CP = %1 GPUs per stage replica, more than one %2-GPU scale-up domain: "
              "part of its traffic crosses the scale-out network")
        .arg(countText(group), countText(domain));
}

void PlanLayoutView::setPlaceholderText(const QString& text) {
    placeholderText_ = text;
    update();
}

void PlanLayoutView::paintEmpty(QPainter& painter) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect().adjusted(int(kMargin), 0, -int(kMargin), 0),
                     Qt::AlignCenter | Qt::TextWordWrap, placeholderText_);
}

qreal PlanLayoutView::stageTextHeight() const {
    return 3 * QFontMetricsF(font()).height() + 2 * kPadding + 6;
}

PlanLayoutView::Geometry PlanLayoutView::geometryFor(const QSizeF& size) const {
    const ParallelConfig& p = scenario_->parallel;
    const qreal line = QFontMetricsF(font()).height();
    Geometry g;
    g.area = QRectF(QPointF(0, 0), size).adjusted(kMargin, kMargin, -kMargin, -kMargin);
    g.ghosts = int(std::min<std::int64_t>(p.dp - 1, 3));
    g.stages = std::max(1, std::min(p.pp, kMaxStagesDrawn));
    g.top = g.area.top() + line * 3.2;
    const qreal rowWidth = g.area.width() - g.ghosts * kGhostOffset;
    g.perRow = std::clamp(int((rowWidth + kGap) / (kMinStageWidth + kGap)), 1, g.stages);
    g.stageRows = (g.stages + g.perRow - 1) / g.perRow;
    g.stageWidth = (rowWidth - (g.perRow - 1) * kGap) / g.perRow;

    // Cells as large as the box allows in both directions (within limits), so that the
    // drawing fills the view; below the smallest size the view asks for more height.
    const int columns = std::min(p.tp, kMaxCellsPerSide);
    const int rows = std::min(p.cp, kMaxCellsPerSide);
    const qreal footer = g.ghosts * kGhostOffset + line * 4.2; // arrow, caption, replicas
    const qreal heightBudget =
        (g.area.bottom() - g.top - footer - (g.stageRows - 1) * kGap) / g.stageRows;
    const qreal byWidth = (g.stageWidth - 2 * kPadding - (columns - 1) * kCellGap) / columns;
    const qreal byHeight = (heightBudget - stageTextHeight()) / rows - kCellGap;
    const qreal smallest = std::max(2.0, std::min(byWidth, kMinCell));
    g.cell = std::max(smallest, std::min({byWidth, byHeight, kMaxCell}));
    g.stageHeight = stageTextHeight() + rows * (g.cell + kCellGap);
    g.block = QRectF(g.area.left(), g.top, rowWidth,
                     g.stageRows * g.stageHeight + (g.stageRows - 1) * kGap);
    // The height the drawing needs with the smallest cells: below it, the view scrolls.
    const qreal smallestStage = stageTextHeight() + rows * (smallest + kCellGap);
    g.requiredHeight =
        g.top + g.stageRows * smallestStage + (g.stageRows - 1) * kGap + footer + kMargin;
    return g;
}

void PlanLayoutView::updateMinimumHeight() {
    setMinimumHeight(scenario_ ? int(std::ceil(geometryFor(QSizeF(size())).requiredHeight)) : 0);
}

void PlanLayoutView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateMinimumHeight();
}

void PlanLayoutView::paintStage(QPainter& painter, const QRectF& box, int stage) {
    const ParallelConfig& p = scenario_->parallel;
    const int stages = std::min(p.pp, kMaxStagesDrawn);
    const bool isRest = p.pp > kMaxStagesDrawn && stage == stages - 1;
    const QColor color = stageColor(stage, stages);
    const bool dark = palette().color(QPalette::Base).lightnessF() < 0.5;

    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(palette().color(QPalette::AlternateBase));
    painter.drawRoundedRect(box, 6, 6);

    const qreal line = QFontMetricsF(font()).height();
    const QRectF text = box.adjusted(kPadding, kPadding, -kPadding, 0);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(palette().color(QPalette::Text));
    QString title = stageTitle(stage, p.pp, isRest);
    // Pools of unlike GPUs: each stage's pool and its own tp (the first pipeline's placement).
    int tp = p.tp;
    if (scenario_->hetero && !isRest && !scenario_->hetero->pipelines.empty() &&
        stage < int(scenario_->hetero->pipelines[0].stages.size())) {
        const PipelineStageConfig& st = scenario_->hetero->pipelines[0].stages[std::size_t(stage)];
        title = tr("%1 · pool %2")
                    .arg(title,
                         QString::fromStdString(scenario_->hetero->pools[std::size_t(st.pool)].id));
        tp = st.tp;
    }
    painter.drawText(text, Qt::AlignLeft | Qt::AlignTop, title);
    painter.setFont(font());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    QString layers = tr("…");
    if (!isRest)
        layers = p.vpp > 1 ? tr("%1 layers in %2 chunks")
                                 .arg(countText(layersOfStage(p, stage)), countText(p.vpp))
                           : tr("%1 layers").arg(countText(layersOfStage(p, stage)));
    painter.drawText(text.translated(0, line), Qt::AlignLeft | Qt::AlignTop, layers);
    painter.drawText(text.translated(0, 2 * line), Qt::AlignLeft | Qt::AlignTop,
                     tr("TP %1 × CP %2").arg(countText(tp), countText(p.cp)));

    // The TP x CP GPUs of one replica of this stage: TP along a row, CP down the rows.
    const int columns = std::min(tp, kMaxCellsPerSide);
    const int rows = std::min(p.cp, kMaxCellsPerSide);
    const qreal cell = geometryFor(QSizeF(size())).cell;
    const QPointF origin(box.left() + kPadding, box.top() + kPadding + 3 * line + 6);
    painter.setPen(QPen(dark ? color.lighter(130) : color.darker(130), 1));
    painter.setBrush(color);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            painter.drawRoundedRect(QRectF(origin.x() + c * (cell + kCellGap),
                                           origin.y() + r * (cell + kCellGap), cell, cell),
                                    2, 2);
}

void PlanLayoutView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!scenario_) {
        paintEmpty(painter);
        return;
    }
    const ParallelConfig& p = scenario_->parallel;
    const qreal line = QFontMetricsF(font()).height();
    const QRectF area = QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin);
    QFont heading = font();
    heading.setBold(true);
    painter.setFont(heading);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(area, Qt::AlignLeft | Qt::AlignTop,
                     tr("Plan layout: TP %1 × PP %2 × CP %3 × DP %4 = %5 GPUs")
                         .arg(countText(p.tp), countText(p.pp), countText(p.cp), countText(p.dp),
                              countText(std::int64_t(p.tp) * p.pp * p.cp * p.dp)));
    painter.setFont(font());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(area.translated(0, line * 1.3), Qt::AlignLeft | Qt::AlignTop, domainText());

    // One pipeline (all stages, wrapped into rows when narrow) in front; the data-parallel
    // replicas stacked behind it.
    const Geometry g = geometryFor(QSizeF(size()));
    const int ghosts = g.ghosts;
    const int stages = g.stages;
    const int perRow = g.perRow;
    const int stageRows = g.stageRows;
    const qreal width = g.stageWidth;
    const qreal height = g.stageHeight;
    const qreal top = g.top;
    const QRectF& block = g.block;
    for (int i = ghosts; i >= 1; --i) {
        painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
        painter.setBrush(palette().color(QPalette::Base));
        painter.drawRoundedRect(block.translated(i * kGhostOffset, i * kGhostOffset)
                                    .adjusted(-kGap / 2, -kGap / 2, kGap / 2, kGap / 2),
                                8, 8);
    }
    if (ghosts > 0) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(palette().color(QPalette::Base));
        painter.drawRoundedRect(block.adjusted(-kGap / 2, -kGap / 2, kGap / 2, kGap / 2), 8, 8);
    }
    for (int s = 0; s < stages; ++s)
        paintStage(painter,
                   QRectF(area.left() + (s % perRow) * (width + kGap),
                          top + (s / perRow) * (height + kGap), width, height),
                   s);

    // Pipeline direction under the stages, then the data-parallel repetition.
    const qreal arrowY = block.bottom() + ghosts * kGhostOffset + line;
    const QColor mid = palette().color(QPalette::Mid);
    const qreal from = area.left() + width / 2;
    const qreal to = area.left() + (std::min(stages, perRow) - 1) * (width + kGap) + width / 2;
    if (stages > 1 && stageRows == 1) {
        painter.setPen(QPen(mid, 1.5));
        painter.drawLine(QPointF(from, arrowY), QPointF(to, arrowY));
        QPainterPath head;
        head.moveTo(to, arrowY);
        head.lineTo(to - 8, arrowY - 4);
        head.lineTo(to - 8, arrowY + 4);
        head.closeSubpath();
        painter.fillPath(head, mid);
    }
    if (stages > 1) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(
            QRectF(area.left(), arrowY + 2, area.width(), line * 1.2),
            (stageRows == 1 ? Qt::AlignHCenter : Qt::AlignLeft) | Qt::AlignTop,
            tr("pipeline: forward pass from stage 0 to stage %1").arg(countText(p.pp - 1)));
    }
    painter.setPen(palette().color(QPalette::Text));
    QString footer = replicaText();
    if (p.ep > 1)
        footer += QStringLiteral("  ·  ") +
                  tr("MoE layers: experts split %1 ways (EP) across the data-parallel GPUs")
                      .arg(countText(p.ep));
    painter.drawText(QRectF(area.left(), arrowY + line * 1.6, area.width(), line * 1.4),
                     Qt::AlignLeft | Qt::AlignTop, footer);
}

} // namespace ts::gui
