#pragma once
// The headline figures of one estimate: step time, throughput per GPU, MFU, and peak memory
// against capacity. With no estimate every card shows "—" and says why in its tooltip;
// a number is never shown that core did not compute.

#include "estimate/Estimate.h"

#include <QWidget>

#include <array>
#include <optional>

namespace ts::gui {

class MetricCard;

class EstimateCards : public QWidget {
    Q_OBJECT
public:
    enum class Card { StepTime, Throughput, Mfu, Memory };
    static constexpr int kCardCount = 4;

    explicit EstimateCards(QWidget* parent = nullptr);

    // nullptr: not available; `unavailableReason` (default "not computed") goes to the tooltips.
    void setEstimate(const Estimate* estimate, const QString& unavailableReason = {});
    bool hasEstimate() const { return estimate_.has_value(); }

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
    QString unavailableReason_;
};

} // namespace ts::gui
