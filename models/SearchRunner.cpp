#include "SearchRunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>
#include <QThread>

namespace ts::gui {

SearchRunner::SearchRunner(QObject* parent) : QObject(parent) {}

SearchRunner::~SearchRunner() {
    cancel();
    join();
}

void SearchRunner::join() {
    if (thread_.joinable())
        thread_.join();
}

bool SearchRunner::start(const ResolvedScenario& scenario, SearchOptions options) {
    if (running_)
        return false;
    join();
    cancel_ = false;
    running_ = true;
    options.cancel = &cancel_;
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
    thread_ = std::thread([this, self, scenario, options] {
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
                self->running_ = false;
                emit self->finished(result, error);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void SearchRunner::cancel() {
    cancel_ = true;
}

bool SearchRunner::waitForFinished(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (running_ && timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(5);
    }
    return !running_;
}

} // namespace ts::gui
