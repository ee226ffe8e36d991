#pragma once
// Runs a plan search (core/search) off the UI thread, with progress and cancellation.
// Signals arrive on the thread that owns the runner.

#include "search/PlanSearch.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace ts::gui {

class SearchRunner : public QObject {
    Q_OBJECT
public:
    explicit SearchRunner(QObject* parent = nullptr);
    ~SearchRunner() override; // cancels a running search and waits for it

    // Starts searching a copy of `scenario`; false when a search is still running.
    bool start(const ResolvedScenario& scenario, SearchOptions options);
    void cancel();
    bool isRunning() const { return running_; }
    // Processes events until the search has delivered its result or `timeoutMs` passes.
    bool waitForFinished(int timeoutMs = 60000);

signals:
    void progress(double fraction, qint64 plans);
    // `result` is null with `error` set when the search refused its input.
    void finished(std::shared_ptr<const ts::SearchResult> result, const QString& error);

private:
    void join();
    std::thread thread_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};

} // namespace ts::gui
