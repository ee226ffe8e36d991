#pragma once
// Runs the estimator off the UI thread. Each request supersedes the ones before it: a
// request still waiting is skipped, and a result that arrives after a newer request is
// dropped, so the window only ever shows the estimate of the scenario it shows. An estimate
// with a number that is not finite is refused with the CLI's message (estimate/EstimateFinite.h).

#include "common/Diagnostics.h"
#include "estimate/Estimate.h"
#include "estimate/Explain.h"
#include "scenario/ResolvedScenario.h"

#include <QObject>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace ts::gui {

using EstimateFunction =
    std::function<std::optional<Estimate>(const ResolvedScenario&, Diagnostics&)>;

struct EstimateResult {
    std::uint64_t generation = 0;
    std::optional<Estimate> estimate;
    Diagnostics diagnostics; // the estimator's errors and warnings
    double elapsedMs = 0;
    // Why the estimate is what it is (estimate/Explain.h), when the runner explains.
    std::optional<Explanation> explanation;
};

class EstimateRunner : public QObject {
    Q_OBJECT
public:
    explicit EstimateRunner(EstimateFunction estimator, QObject* parent = nullptr);
    ~EstimateRunner() override;

    bool hasEstimator() const { return bool(estimator_); }
    // Also explains every estimate (a dozen more estimates of edited plans, in the worker).
    void setExplain(bool explain) { explain_ = explain; }
    // Starts estimating `scenario` (copied). Returns the request's generation.
    std::uint64_t request(const ResolvedScenario& scenario);
    // Forgets pending work: nothing is delivered for requests made before.
    void cancel();
    bool isBusy() const { return delivered_ != requested_; }
    // Processes events until the latest request is delivered or `timeoutMs` passes.
    bool waitForIdle(int timeoutMs = 10000);

signals:
    void started();
    void finished(const std::shared_ptr<const ts::gui::EstimateResult>& result);

private:
    EstimateFunction estimator_;
    bool explain_ = false;
    QThread* thread_;
    QObject* worker_;
    std::shared_ptr<std::atomic<std::uint64_t>> latest_;
    std::uint64_t requested_ = 0;
    std::uint64_t delivered_ = 0;
};

} // namespace ts::gui
