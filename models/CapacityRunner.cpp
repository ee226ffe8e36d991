#include "CapacityRunner.h"

#include "catalog/Catalog.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>
#include <QThread>

namespace ts::gui {

CapacityRunner::CapacityRunner(QObject* parent) : QObject(parent) {}

CapacityRunner::~CapacityRunner() {
    cancel();
    join();
}

void CapacityRunner::join() {
    if (thread_.joinable())
        thread_.join();
}

bool CapacityRunner::start(const Scenario& base, CapacityRequest request) {
    if (running_)
        return false;
    join();
    cancel_ = false;
    running_ = true;
    request.search.cancel = &cancel_;
    request.search.progress = nullptr; // per size; the planner's own progress says more
    QPointer<CapacityRunner> self(this);
    request.progress = [self](const CapacityProgress& p) {
        // Queued to the runner's thread; a runner that is gone receives nothing.
        QMetaObject::invokeMethod(
            self,
            [self, fraction = p.fraction, gpu = QString::fromStdString(p.gpu), n = p.numGpus] {
                if (self)
                    emit self->progress(fraction, gpu, n);
            },
            Qt::QueuedConnection);
    };
    thread_ = std::thread([this, self, base, request] {
        Diagnostics diags;
        auto found =
            planCapacity(base, Catalog::builtIn(), CalibrationRegistry::standard(), request, diags);
        std::shared_ptr<const CapacityResult> result;
        QString error;
        if (found)
            result = std::make_shared<const CapacityResult>(std::move(*found));
        else if (!diags.errors().empty())
            error = QString::fromStdString(diags.errors().front().toString());
        else
            error = tr("The capacity plan did not run");
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

void CapacityRunner::cancel() {
    cancel_ = true;
}

bool CapacityRunner::waitForFinished(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (running_ && timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(5);
    }
    return !running_;
}

} // namespace ts::gui
