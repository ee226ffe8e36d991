#include "RunCostCards.h"

#include "MetricCard.h"
#include "QuantityText.h"

#include <QEvent>
#include <QHBoxLayout>

namespace ts::gui {

RunCostCards::RunCostCards(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    for (auto& card : cards_) {
        card = new MetricCard(this);
        layout->addWidget(card, 1);
    }
    updateCards();
}

void RunCostCards::setEstimate(const Estimate* estimate) {
    if (estimate)
        estimate_ = *estimate;
    else
        estimate_.reset();
    updateCards();
}

QString RunCostCards::valueText(Card which) const {
    return card(which)->value();
}

QString RunCostCards::valueToolTip(Card which) const {
    return card(which)->valueToolTip();
}

QString RunCostCards::detailText(Card which) const {
    return card(which)->detail();
}

void RunCostCards::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        updateCards();
    QWidget::changeEvent(event);
}

void RunCostCards::updateCards() {
    card(Card::Days)->setCaption(tr("Time to train"));
    card(Card::Cost)->setCaption(tr("Cost"));
    card(Card::Energy)->setCaption(tr("Energy"));
    card(Card::Carbon)->setCaption(tr("CO₂ emitted"));
    const QString noValue = QStringLiteral("—");
    const Estimate* e = estimate_ ? &*estimate_ : nullptr;
    // Why a figure is missing: no estimate, no tokens to train (the run's totals need
    // them), or the energy and cost model left it out for this plan.
    const QString missing =
        !e               ? tr("no estimate")
        : !e->trainSteps ? tr("not computed: set the tokens to train (Training dock) for the "
                              "run's totals")
                         : tr("not computed: the energy and cost model has not produced this "
                              "figure for the plan");
    auto show = [&](Card which, bool present, const QString& text, const QString& detail,
                    const QString& toolTip = {}) {
        if (present) {
            card(which)->setValue(text, toolTip);
            card(which)->setDetail(detail);
        } else {
            card(which)->setValue(noValue, missing);
            card(which)->setDetail(detail);
        }
    };
    const std::optional<double> none;
    const auto days = e ? e->trainDays : none;
    // Without tokens the totals are not "not computed" but waiting for one figure: say which.
    const QString needsTokens =
        e && !e->trainSteps ? tr("set Tokens to train (Training dock)") : QString();
    show(Card::Days, days.has_value(), days ? tr("%1 days").arg(numberText(*days)) : QString(),
         e && e->trainSteps ? tr("%1 steps").arg(siPrefixed(*e->trainSteps)) : needsTokens);
    const auto usd = e ? e->trainUsd : none;
    show(Card::Cost, usd.has_value(), usd ? tr("$%1").arg(siPrefixed(*usd)) : QString(),
         e && e->usdPerMillionTokens
             ? tr("$%1 per million tokens").arg(numberText(*e->usdPerMillionTokens))
             : QString());
    const auto kwh = e ? e->trainKwh : none;
    show(Card::Energy, kwh.has_value(),
         // A small run (a LoRA on one GPU) in kWh, not "0.004 MWh".
         kwh ? (*kwh >= 1000.0 ? tr("%1 MWh").arg(numberText(*kwh / 1000.0))
                               : tr("%1 kWh").arg(numberText(*kwh)))
             : QString(),
         e && e->stepJoules ? tr("%1 kWh per step").arg(numberText(*e->stepJoules / 3.6e6))
                            : QString(),
         e && e->avgPowerW ? tr("average power %1").arg(wattsText(*e->avgPowerW)) : QString());
    const auto co2 = e ? e->trainCo2Kg : none;
    show(Card::Carbon, co2.has_value(),
         co2 ? (*co2 >= 1000.0 ? tr("%1 t").arg(numberText(*co2 / 1000.0))
                               : tr("%1 kg").arg(numberText(*co2)))
             : QString(),
         co2 ? QString() : needsTokens);
}

} // namespace ts::gui
