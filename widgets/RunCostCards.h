#pragma once
// The run's totals: days to train the scenario's tokens, money, energy and CO2. Each shows
// "—" with the reason in its tooltip while the estimator leaves it uncomputed.

#include "estimate/Estimate.h"

#include <QWidget>

#include <array>
#include <optional>

namespace ts::gui {

class MetricCard;

class RunCostCards : public QWidget {
    Q_OBJECT
public:
    enum class Card { Days, Cost, Energy, Carbon };
    static constexpr int kCardCount = 4;

    explicit RunCostCards(QWidget* parent = nullptr);
    void setEstimate(const Estimate* estimate);

    QString valueText(Card card) const;
    QString valueToolTip(Card card) const;
    QString detailText(Card card) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateCards();
    MetricCard* card(Card which) const { return cards_[std::size_t(which)]; }

    std::array<MetricCard*, kCardCount> cards_{};
    std::optional<Estimate> estimate_;
};

} // namespace ts::gui
