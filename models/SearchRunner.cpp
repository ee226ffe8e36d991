#include "SearchRunner.h"

#include "catalog/Catalog.h"
#include "hetero/HeteroSearch.h"
#include "scenario/ScenarioResolver.h"

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
        if (found && found->plans.empty() && options.accept && !found->cancelled) {
            // No plan of the space is launched as it is: ranked without the launcher filter,
            // and said so (search --target any).
            SearchOptions open = options;
            open.accept = nullptr;
            found = searchPlans(scenario, open, diags);
            if (found)
                found->notes.push_back("no launcher runs a plan of this space as it is: ranked "
                                       "without the launcher filter");
        }
        deliver(self, std::move(found), diags);
    });
}

bool SearchRunner::startPooled(const Scenario& scenario, SearchOptions options) {
    if (worker_.isRunning())
        return false;
    options.cancel = worker_.cancelFlag();
    options.progress = nullptr;
    options.pareto = false; // a front over pools is not computed
    options.keepPoints = 0;
    options.rankCurrentPlan = false;
    QPointer<SearchRunner> self(this);
    return worker_.start([this, self, scenario, options] {
        Diagnostics diags;
        const Catalog& catalog = Catalog::builtIn();
        const CalibrationRegistry& calibrations = CalibrationRegistry::standard();
        auto found = searchHeteroPlans(scenario, catalog, calibrations, options, diags);
        std::optional<SearchResult> converted; // as the uniform search reports its plans
        if (found) {
            SearchResult r;
            r.plansInSpace = found->plansInSpace;
            r.plansEvaluated = found->plansEvaluated;
            r.plansFitting = found->plansFitting;
            r.fullEstimates = std::int64_t(found->plans.size());
            r.seconds = found->seconds;
            r.notes = found->notes;
            for (HeteroPlan& p : found->plans) {
                Diagnostics d;
                auto resolved = resolveScenario(p.scenario, catalog, calibrations, d);
                if (!resolved)
                    continue;
                SearchedPlan sp;
                sp.plan = planChoiceOf(*resolved);
                sp.scenario = std::move(*resolved);
                sp.estimate = std::move(p.estimate);
                sp.objective = p.objective;
                sp.description = p.description;
                sp.pooled = std::move(p.scenario);
                r.plans.push_back(std::move(sp));
            }
            converted = std::move(r);
        }
        deliver(self, std::move(converted), diags);
    });
}

void SearchRunner::deliver(QPointer<SearchRunner> self, std::optional<SearchResult> found,
                           const Diagnostics& diags) {
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
}

} // namespace ts::gui
