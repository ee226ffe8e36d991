#include "SearchRunner.h"

#include <QMetaObject>
#include <QPointer>

namespace ts::gui {

SearchRunner::SearchRunner(QObject* parent) : QObject(parent) {}

bool SearchRunner::start(const ResolvedScenario& scenario, SearchOptions options) {
    if (worker_.isRunning())
        return false;
    options.cancel = worker_.cancelFlag();
    QPointer<SearchRunner> self(this);
    options.progress = [self](const SearchProgress& p) {
        // Queued to the runner's thread; a runner that is gone receives nothing.
        QMetaObject::invokeMethod(
            self,
            [self, fraction = p.fraction(), plans = p.plansSeen] {
                if (self)
                    emit self->progress(fraction, plans);
            },
            Qt::QueuedConnection);
    };
    return worker_.start([this, self, scenario, options] {
        Diagnostics diags;
        auto found = searchPlans(scenario, options, diags);
        std::shared_ptr<const SearchResult> result;
        QString error;
        if (found)
            result = std::make_shared<const SearchResult>(std::move(*found));
        else if (!diags.errors().empty())
            error = QString::fromStdString(diags.errors().front().toString());
        QMetaObject::invokeMethod(
            this,
            [self, result, error] {
                if (!self)
                    return;
                self->worker_.done();
                emit self->finished(result, error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace ts::gui
