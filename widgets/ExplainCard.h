#pragma once
// "Why?": what bounds the step (its largest part and the resource it waits on, each part's
// share, the communication that is exposed or hidden and the link class it crosses) and the
// edits that would change it most (the step time and peak memory of the plan with each
// degree and each link's bandwidth changed), from core's Explanation, worded in the UI
// language from its ids and numbers.

#include "estimate/Explain.h"

#include <QFrame>

#include <optional>

class QLabel;

namespace ts::gui {

class ExplainCard : public QFrame {
    Q_OBJECT
public:
    explicit ExplainCard(QWidget* parent = nullptr);

    // nullptr: nothing to explain, for `reason`.
    void setExplanation(const Explanation* explanation, const QString& reason = {});
    QString headline() const;
    QString bodyText() const; // the plain text of the body, for tests
    bool hasExplanation() const { return explanation_.has_value(); }

    // Names in the UI language for core's ids.
    static QString partName(const std::string& id);
    static QString resourceName(const std::string& id);
    static QString knobText(const Sensitivity& s);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateText();

    QLabel* title_;
    QLabel* headline_;
    QLabel* body_;
    std::optional<Explanation> explanation_;
    QString reason_;
};

} // namespace ts::gui
