#pragma once
// The toolbar's one-line verdict: whether the plan fits, peak against capacity, the step
// time with its error band and MFU ("✔ fits 71.2/80 GiB · 8.41 s/step (−4 % … +6 %) · MFU 41 %"),
// coloured by the verdict.

#include "estimate/Estimate.h"

#include <QLabel>

namespace ts::gui {

class EstimateBadge : public QLabel {
    Q_OBJECT
public:
    explicit EstimateBadge(QWidget* parent = nullptr);
    // nullptr: `reason` says why there is none; `busy`: an estimate is being computed.
    void setEstimate(const Estimate* estimate, const QString& reason = {});
    void setBusy(bool busy);
    // "Step time within −4 % … +6 % of the measured one for 80% of the 31 most similar
    // published runs (basis)": time.expected_error in words (the cards' tooltip says the same).
    static QString expectedErrorToolTip(const ExpectedError& band);
    // The same for the peak memory (memory.expected_error).
    static QString memoryErrorToolTip(const ExpectedError& band);
    static QString noMemoryErrorBandToolTip();
    static QString noErrorBandToolTip();

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateText();

    std::optional<Estimate> estimate_;
    QString reason_;
    bool busy_ = false;
};

} // namespace ts::gui
