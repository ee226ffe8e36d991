#include "accuracy/PublishedRuns.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

namespace ts {

namespace {

std::string reasons(const Diagnostics& diags) {
    std::string why;
    for (const auto& d : diags.errors())
        why += (why.empty() ? "" : "; ") + d.toString();
    return why.empty() ? "not estimated" : why;
}

} // namespace

PublishedRuns estimatePublishedRuns(const nlohmann::json& cases) {
    PublishedRuns out;
    for (const nlohmann::json& c : cases) {
        const nlohmann::json& step = c.at("measured").at("step_s");
        if (!step.is_number() || step.get<double>() <= 0)
            continue;
        const std::string id = c.at("id").get<std::string>();
        Diagnostics diags;
        const auto scenario = scenarioFromJson(nlohmann::ordered_json(c.at("scenario")), diags);
        std::optional<ResolvedScenario> resolved;
        if (scenario)
            resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
        std::optional<Estimate> estimate;
        if (resolved)
            estimate = estimatePlan(*resolved, diags);
        if (!estimate || !(estimate->stepSeconds > 0)) {
            out.notEstimated.push_back(id + ": " + reasons(diags));
            continue;
        }
        out.runs.push_back({id, runTraitsOf(*resolved), step.get<double>(), estimate->stepSeconds});
    }
    return out;
}

} // namespace ts
