#pragma once
// Runs a capacity plan (core/search/CapacityPlanner.h) off the UI thread, with progress and
// cancellation. Signals arrive on the thread that owns the runner.

#include "search/CapacityPlanner.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace ts::gui {

class CapacityRunner : public QObject {
    Q_OBJECT
public:
    explicit CapacityRunner(QObject* parent = nullptr);
    ~CapacityRunner() override; // cancels a running plan and waits for it

    // Plans for a copy of `base` against the built-in catalog and the standard calibration
    // profiles (those the document resolves with); false when a plan is still running.
    bool start(const Scenario& base, CapacityRequest request);
    void cancel();
    bool isRunning() const { return running_; }
    // Processes events until the plan has delivered its result or `timeoutMs` passes.
    bool waitForFinished(int timeoutMs = 60000);

signals:
    // `gpu` is being sized at `numGpus`; `fraction` of the whole is done (roughly).
    void progress(double fraction, const QString& gpu, qint64 numGpus);
    // `result` is null with `error` set when the planner refused its input.
    void finished(std::shared_ptr<const ts::CapacityResult> result, const QString& error);

private:
    void join();
    std::thread thread_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};

} // namespace ts::gui
