#include "MetricCard.h"

#include <QLabel>
#include <QProgressBar>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::gui {

namespace {
constexpr int kFillSteps = 1000;
constexpr qreal kValueScale = 1.9; // value type size relative to the UI font
} // namespace

MetricCard::MetricCard(QWidget* parent)
    : QFrame(parent), caption_(new QLabel(this)), value_(new QLabel(this)),
      detail_(new QLabel(this)), fill_(new QProgressBar(this)) {
    setFrameShape(QFrame::StyledPanel);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    // Equal widths (the row's stretch decides) and the row's full height, so a row of cards
    // lines up whatever their text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setMinimumWidth(136); // four in a row fit the dashboard of a 1024-pixel window

    QFont captionFont = caption_->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 0.92);
    caption_->setFont(captionFont);
    caption_->setForegroundRole(QPalette::PlaceholderText);
    caption_->setWordWrap(true);

    QFont valueFont = value_->font();
    valueFont.setWeight(QFont::DemiBold);
    value_->setFont(valueFont);
    value_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    detail_->setForegroundRole(QPalette::PlaceholderText);
    detail_->setWordWrap(true);

    fill_->setRange(0, kFillSteps);
    fill_->setTextVisible(false);
    fill_->setFixedHeight(6);
    fill_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 10, 14, 12);
    layout->setSpacing(4);
    layout->addWidget(caption_);
    layout->addWidget(value_);
    layout->addWidget(fill_);
    layout->addWidget(detail_);
    layout->addStretch(1);
}

void MetricCard::setCaption(const QString& caption) {
    caption_->setText(caption.toUpper());
}

void MetricCard::setValue(const QString& value, const QString& toolTip) {
    value_->setText(value);
    value_->setToolTip(toolTip);
    setToolTip(toolTip);
    fitValueFont();
}

void MetricCard::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    fitValueFont();
}

void MetricCard::fitValueFont() {
    // Large type, but never clipped: shrink the value until it fits the card's width.
    const qreal base = font().pointSizeF();
    const int available = contentsRect().width() - 28;
    QFont valueFont = value_->font();
    for (qreal scale = kValueScale; scale >= 1.0; scale -= 0.1) {
        valueFont.setPointSizeF(base * scale);
        if (QFontMetrics(valueFont).horizontalAdvance(value_->text()) <= available)
            break;
    }
    value_->setFont(valueFont);
}

void MetricCard::setDetail(const QString& detail) {
    detail_->setText(detail);
}

void MetricCard::setFill(std::optional<double> fraction) {
    fill_->setVisible(fraction.has_value());
    if (fraction)
        fill_->setValue(int(std::clamp(*fraction, 0.0, 1.0) * kFillSteps));
}

QString MetricCard::value() const {
    return value_->text();
}
QString MetricCard::valueToolTip() const {
    return value_->toolTip();
}
QString MetricCard::detail() const {
    return detail_->text();
}
bool MetricCard::hasFill() const {
    return !fill_->isHidden();
}

} // namespace ts::gui
