#include "EstimateBadge.h"

#include "QuantityText.h"

#include <QEvent>

namespace ts::gui {

EstimateBadge::EstimateBadge(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("estimateBadge"));
    setContentsMargins(10, 2, 10, 2);
    setTextFormat(Qt::PlainText);
    updateText();
}

void EstimateBadge::setEstimate(const Estimate* estimate, const QString& reason) {
    if (estimate)
        estimate_ = *estimate;
    else
        estimate_.reset();
    reason_ = reason;
    busy_ = false;
    updateText();
}

void EstimateBadge::setBusy(bool busy) {
    if (busy_ == busy)
        return;
    busy_ = busy;
    updateText();
}

void EstimateBadge::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        updateText();
    QLabel::changeEvent(event);
}

QString EstimateBadge::expectedErrorToolTip(const ExpectedError& band) {
    return tr("Step time within %1 of the measured one for 80% of the %n most similar published "
              "runs (%2)",
              nullptr, band.cases)
        .arg(errorBandText(band.low, band.high), QString::fromStdString(band.basis));
}

QString EstimateBadge::memoryErrorToolTip(const ExpectedError& band) {
    return tr("Peak memory within %1 of the measured figure for 80% of the %n most similar "
              "published memory figures (%2)",
              nullptr, band.cases)
        .arg(errorBandText(band.low, band.high), QString::fromStdString(band.basis));
}

QString EstimateBadge::noMemoryErrorBandToolTip() {
    return tr("No memory error band: too few published memory figures are like this plan "
              "(none was published for a Megatron-LM run)");
}

QString EstimateBadge::noErrorBandToolTip() {
    return tr("No error band: too few published runs are like this one");
}

void EstimateBadge::updateText() {
    QPalette p = palette();
    QColor color = palette().color(QPalette::PlaceholderText);
    if (!estimate_) {
        // A long reason would push the toolbar's actions aside: the first words, the rest in
        // the tooltip.
        QString shortReason = reason_;
        if (shortReason.size() > 48)
            shortReason = shortReason.left(47) + QStringLiteral("…");
        setText(reason_.isEmpty() ? tr("no estimate") : tr("no estimate: %1").arg(shortReason));
        setToolTip(reason_);
    } else {
        const Estimate& e = *estimate_;
        constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
        const QString verdict = e.fits ? tr("✔ fits") : tr("✘ does not fit");
        const QString memory = numberText(e.peakBytes / kGiB);
        const QString capacity = numberText(e.capacityBytes / kGiB);
        QString toolTip = tr("Peak memory on stage %1 against the GPU's capacity, the time of one "
                             "optimizer step, and model FLOPS utilization")
                              .arg(e.peakStage);
        if (const auto& band = e.expectedError) {
            setText(tr("%1 %2/%3 GiB · %4/step (%5) · MFU %6")
                        .arg(verdict, memory, capacity, secondsText(e.stepSeconds),
                             errorBandText(band->low, band->high), percentText(e.mfu)));
            toolTip += QLatin1Char('\n') + expectedErrorToolTip(*band);
        } else {
            setText(tr("%1 %2/%3 GiB · %4/step · MFU %5")
                        .arg(verdict, memory, capacity, secondsText(e.stepSeconds),
                             percentText(e.mfu)));
            toolTip += QLatin1Char('\n') + noErrorBandToolTip();
        }
        setToolTip(toolTip);
        const bool dark = palette().color(QPalette::Window).lightnessF() < 0.5;
        color = e.fits ? (dark ? QColor(110, 200, 120) : QColor(0, 120, 40))
                       : (dark ? QColor(255, 110, 100) : QColor(190, 30, 30));
    }
    if (busy_)
        setText(text() + QStringLiteral(" …"));
    p.setColor(QPalette::WindowText, color);
    setPalette(p);
    QFont f = font();
    f.setWeight(QFont::DemiBold);
    setFont(f);
}

} // namespace ts::gui
