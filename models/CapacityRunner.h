#pragma once
// Runs a capacity plan (core/search/CapacityPlanner.h) off the UI thread, with progress and
// cancellation. Signals arrive on the thread that owns the runner.

#include "hetero/InventoryPlanner.h"
#include "search/CapacityPlanner.h"

#include "WorkerThread.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ts::gui {

class CapacityRunner : public QObject {
    Q_OBJECT
public:
    explicit CapacityRunner(QObject* parent = nullptr);
    // Destroying it cancels a running job and waits for it (WorkerThread).
    // Plans for a copy of `base` against the built-in catalog and the standard calibration
    // profiles (those the document resolves with); false when a plan is still running.
    // With an `inventory`, the plan over those GPUs follows (hetero/InventoryPlanner.h) and
    // arrives by inventoryFinished before finished.
    bool start(const Scenario& base, CapacityRequest request,
               std::vector<InventoryHolding> inventory = {});
    void cancel() { worker_.cancel(); }
    bool isRunning() const { return worker_.isRunning(); }
    // Processes events until the plan has delivered its result or `timeoutMs` passes.
    bool waitForFinished(int timeoutMs = 60000) { return worker_.waitForFinished(timeoutMs); }

signals:
    // `gpu` is being sized at `numGpus`; `fraction` of the whole is done (roughly).
    void progress(double fraction, const QString& gpu, qint64 numGpus);
    // `result` is null with `error` set when the planner refused its input.
    void finished(std::shared_ptr<const ts::CapacityResult> result, const QString& error);
    void inventoryFinished(std::shared_ptr<const ts::InventoryResult> result);

private:
    WorkerThread worker_;
};

} // namespace ts::gui
