#include "EstimateRunner.h"

#include "calibration/CalibrationRegistry.h"
#include "catalog/Catalog.h"
#include "estimate/EstimateFinite.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>

#include <exception>

namespace ts::gui {

namespace {

// An estimate with a number that is not finite is refused, with the CLI's message
// (estimate/EstimateFinite.h): the window never shows "inf s" or a NaN share.
void refuseNonFinite(EstimateResult& result) {
    if (!result.estimate)
        return;
    if (const auto refused = nonFiniteEstimateError(*result.estimate)) {
        result.estimate.reset();
        result.diagnostics.error("", *refused);
    }
}

} // namespace

EstimateRunner::EstimateRunner(EstimateFunction estimator, QObject* parent)
    : QObject(parent), estimator_(std::move(estimator)), thread_(new QThread(this)),
      worker_(new QObject), latest_(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    thread_->setObjectName(QStringLiteral("trainscape-estimator"));
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_->start();
}

EstimateRunner::~EstimateRunner() {
    latest_->store(~std::uint64_t(0)); // every queued request is now stale
    thread_->quit();
    thread_->wait();
}

std::uint64_t EstimateRunner::request(const ResolvedScenario& scenario) {
    const std::uint64_t generation = ++requested_;
    latest_->store(generation);
    emit started();
    QMetaObject::invokeMethod(
        worker_,
        [this, generation, scenario, estimator = estimator_, latest = latest_, explain = explain_] {
            if (latest->load() != generation)
                return; // superseded while waiting
            auto result = std::make_shared<EstimateResult>();
            result->generation = generation;
            QElapsedTimer timer;
            timer.start();
            if (!estimator) {
                result->diagnostics.error("", "no estimator");
            } else {
                try {
                    result->estimate = estimator(scenario, result->diagnostics);
                    result->elapsedMs = double(timer.nsecsElapsed()) / 1e6;
                    refuseNonFinite(*result);
                    if (explain && result->estimate && latest->load() == generation)
                        result->explanation =
                            explainEstimate(scenario, *result->estimate, Catalog::builtIn(),
                                            CalibrationRegistry::standard());
                } catch (const std::exception& e) {
                    // Nothing may throw through an event loop: report it as an error.
                    result->diagnostics.error("", std::string("estimator failed: ") + e.what());
                }
            }
            if (result->elapsedMs == 0)
                result->elapsedMs = double(timer.nsecsElapsed()) / 1e6;
            if (latest->load() != generation)
                return;
            // Back on the UI thread; `this` outlives the worker (the destructor waits).
            QMetaObject::invokeMethod(
                this,
                [this, result] {
                    if (result->generation != requested_)
                        return;
                    delivered_ = result->generation;
                    emit finished(result);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return generation;
}

void EstimateRunner::cancel() {
    ++requested_;
    latest_->store(requested_);
    delivered_ = requested_;
}

bool EstimateRunner::waitForIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (isBusy() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return !isBusy();
}

} // namespace ts::gui
