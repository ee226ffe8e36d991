#pragma once
// Runs a plan search (core/search) off the UI thread, with progress and cancellation.
// Signals arrive on the thread that owns the runner.

#include "search/PlanSearch.h"

#include "WorkerThread.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>
#include <optional>

namespace ts::gui {

class SearchRunner : public QObject {
    Q_OBJECT
public:
    explicit SearchRunner(QObject* parent = nullptr);
    // Destroying it cancels a running job and waits for it (WorkerThread).
    // Starts searching a copy of `scenario`; false when a search is still running.
    bool start(const ResolvedScenario& scenario, SearchOptions options);
    // A scenario with cluster.pools: the search over pools (core/hetero/HeteroSearch.h), its
    // plans delivered as the uniform search's are (SearchedPlan::pooled).
    bool startPooled(const Scenario& scenario, SearchOptions options);
    void cancel() { worker_.cancel(); }
    bool isRunning() const { return worker_.isRunning(); }
    // Processes events until the search has delivered its result or `timeoutMs` passes.
    bool waitForFinished(int timeoutMs = 60000) { return worker_.waitForFinished(timeoutMs); }

signals:
    void progress(double fraction, qint64 plans);
    // `result` is null with `error` set when the search refused its input.
    void finished(std::shared_ptr<const ts::SearchResult> result, const QString& error);

private:
    // From the worker thread: hands the result to the runner's thread (`self`, taken there) and
    // emits finished.
    void deliver(QPointer<SearchRunner> self, std::optional<SearchResult> found,
                 const Diagnostics& diags);

    WorkerThread worker_;
};

} // namespace ts::gui
