#include "ChangeScenarioValue.h"

#include "ScenarioDocument.h"
#include "UndoCommandIds.h"

#include <QElapsedTimer>

namespace ts::gui {

namespace {

qint64 monotonicMs() {
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.elapsed();
}

} // namespace

ChangeScenarioValue::ChangeScenarioValue(ScenarioDocument* document,
                                         std::vector<ScenarioValueChange> changes,
                                         const QString& text, bool mergeable)
    : QUndoCommand(text), document_(document), after_(std::move(changes)), mergeable_(mergeable),
      lastEditMs_(monotonicMs()) {
    for (const ScenarioValueChange& change : after_)
        before_.push_back({change.pointer, document_->explicitValue(change.pointer)});
}

void ChangeScenarioValue::undo() {
    // In reverse, so that a change nested inside an earlier one comes back right.
    for (auto it = before_.rbegin(); it != before_.rend(); ++it)
        document_->applyValue(*it);
    document_->notifyChanged();
}

void ChangeScenarioValue::redo() {
    for (const ScenarioValueChange& change : after_)
        document_->applyValue(change);
    document_->notifyChanged();
}

int ChangeScenarioValue::id() const {
    return mergeable_ ? ChangeScenarioValueId : -1;
}

bool ChangeScenarioValue::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const ChangeScenarioValue*>(other);
    if (!next->mergeable_ || next->document_ != document_ || next->after_.size() != after_.size() ||
        next->lastEditMs_ - lastEditMs_ > kMergeWindowMs)
        return false;
    for (std::size_t i = 0; i < after_.size(); ++i)
        if (next->after_[i].pointer != after_[i].pointer)
            return false;
    after_ = next->after_;
    lastEditMs_ = next->lastEditMs_;
    // "TP 8 → 4" then "TP 4 → 2" is "TP 8 → 2".
    const QString arrow = QStringLiteral(" → ");
    const qsizetype mine = text().indexOf(arrow), theirs = next->text().indexOf(arrow);
    setText(mine >= 0 && theirs >= 0 ? text().left(mine) + next->text().mid(theirs) : next->text());
    // Stepped back to where it started: the step disappears from the stack.
    bool unchanged = true;
    for (std::size_t i = 0; i < after_.size(); ++i)
        unchanged = unchanged && after_[i].value == before_[i].value;
    setObsolete(unchanged);
    return true;
}

} // namespace ts::gui
