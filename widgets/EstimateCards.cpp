#include "EstimateCards.h"

#include "EstimateBadge.h"

#include "MetricCard.h"
#include "QuantityText.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QStringList>

namespace ts::gui {

namespace {
const QString kNoValue = QStringLiteral("—");
}

EstimateCards::EstimateCards(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    for (auto& card : cards_) {
        card = new MetricCard(this);
        layout->addWidget(card, 1);
    }
    updateCards();
}

void EstimateCards::setEstimate(const Estimate* estimate, const QString& unavailableReason) {
    if (estimate)
        estimate_ = *estimate;
    else
        estimate_.reset();
    unavailableReason_ = unavailableReason;
    updateCards();
}

QString EstimateCards::valueText(Card which) const {
    return card(which)->value();
}
QString EstimateCards::valueToolTip(Card which) const {
    return card(which)->valueToolTip();
}
QString EstimateCards::detailText(Card which) const {
    return card(which)->detail();
}

void EstimateCards::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        updateCards();
    QWidget::changeEvent(event);
}

void EstimateCards::updateCards() {
    card(Card::StepTime)->setCaption(tr("Step time"));
    card(Card::Throughput)->setCaption(tr("Throughput per GPU"));
    card(Card::Mfu)->setCaption(tr("Model FLOPS utilization"));
    card(Card::Memory)->setCaption(tr("Peak memory per GPU"));

    if (!estimate_) {
        const QString reason =
            unavailableReason_.isEmpty() ? tr("not computed") : unavailableReason_;
        for (MetricCard* c : cards_) {
            c->setValue(kNoValue, reason);
            c->setDetail(QString());
            c->setFill(std::nullopt);
        }
        return;
    }
    const Estimate& e = *estimate_;
    const TimeBreakdown& t = e.time;

    QStringList timeParts;
    auto part = [&](const QString& name, double seconds) {
        if (seconds > 0)
            timeParts << tr("%1: %2").arg(name, secondsText(seconds));
    };
    part(tr("compute"), t.compute);
    part(tr("recompute"), t.recompute);
    part(tr("exposed TP communication"), t.tpExposed);
    part(tr("exposed CP communication"), t.cpExposed);
    part(tr("exposed EP communication"), t.epExposed);
    part(tr("exposed PP communication"), t.ppExposed);
    part(tr("pipeline bubble"), t.pipelineBubble);
    part(tr("exposed DP communication"), t.dpExposed);
    part(tr("optimizer step"), t.optimizer);
    part(tr("exposed offload"), t.offloadExposed);
    QString timeToolTip = timeParts.join(QLatin1Char('\n'));
    QStringList detail = {tr("per optimizer step")};
    if (const auto& band = e.expectedError) {
        // "−4 % … +6 % on 31 similar runs": how far off published runs like this one were.
        detail << tr("%1 on %n similar runs", nullptr, band->cases)
                      .arg(errorBandText(band->low, band->high));
        timeToolTip += QStringLiteral("\n\n") + EstimateBadge::expectedErrorToolTip(*band);
    } else {
        timeToolTip += QStringLiteral("\n\n") + EstimateBadge::noErrorBandToolTip();
    }
    if (e.trainDays)
        detail << tr("%1 days to train").arg(numberText(*e.trainDays));
    card(Card::StepTime)->setValue(secondsText(e.stepSeconds), timeToolTip);
    card(Card::StepTime)->setDetail(detail.join(QStringLiteral(" · ")));

    card(Card::Throughput)
        ->setValue(tr("%1 tokens/s").arg(numberText(e.tokensPerSPerGpu, 4)),
                   tr("Tokens per second per GPU; %1 tokens/s for the whole cluster")
                       .arg(siPrefixed(e.tokensPerS)));
    card(Card::Throughput)->setDetail(tr("%1 tokens/s in total").arg(siPrefixed(e.tokensPerS)));

    card(Card::Mfu)->setValue(percentText(e.mfu),
                              tr("Model FLOPS (6·N·tokens plus attention, no recompute) per "
                                 "second, as a share of the precision's dense peak"));
    card(Card::Mfu)->setDetail(
        tr("%1 of model FLOPS per GPU").arg(tflopsText(e.modelTflopsPerGpu)));

    const MemoryBreakdown& m = e.peakBreakdown;
    const QStringList memoryParts = {tr("weights: %1").arg(bytesText(m.weights)),
                                     tr("gradients: %1").arg(bytesText(m.gradients)),
                                     tr("optimizer states: %1").arg(bytesText(m.optimizer)),
                                     tr("activations: %1").arg(bytesText(m.activations)),
                                     tr("communication buffers: %1").arg(bytesText(m.commBuffers)),
                                     tr("framework overhead: %1").arg(bytesText(m.framework))};
    QString memoryToolTip = memoryParts.join(QLatin1Char('\n'));
    if (const auto& band = e.memoryExpectedError)
        memoryToolTip += QStringLiteral("\n\n") + EstimateBadge::memoryErrorToolTip(*band);
    else
        memoryToolTip += QStringLiteral("\n\n") + EstimateBadge::noMemoryErrorBandToolTip();
    card(Card::Memory)
        ->setValue(tr("%1 / %2").arg(bytesText(e.peakBytes), bytesText(e.capacityBytes)),
                   memoryToolTip);
    const double fill = e.capacityBytes > 0 ? e.peakBytes / e.capacityBytes : 0.0;
    card(Card::Memory)->setFill(fill);
    // A mark as well as the words, so the verdict reads at a glance in any palette.
    const QString verdict = e.fits ? tr("fits · %1 of capacity, peak on stage %2")
                                   : tr("does not fit · %1 of capacity, peak on stage %2");
    QString memoryDetail = (e.fits ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) +
                           verdict.arg(percentText(fill), // stages count from 0, as pipeline ranks
                                       countText(e.peakStage));
    // How far off published memory figures like this plan were (memory.expected_error).
    if (const auto& band = e.memoryExpectedError)
        memoryDetail += QStringLiteral(" · ") + errorBandText(band->low, band->high);
    card(Card::Memory)->setDetail(memoryDetail);
}

} // namespace ts::gui
