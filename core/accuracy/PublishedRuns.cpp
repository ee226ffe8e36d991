#include "accuracy/PublishedRuns.h"

#include "catalog/Catalog.h"
#include "estimate/Estimator.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

namespace ts {

namespace {

constexpr double kBytesPerGiB = double(1ull << 30); // measured.peak_memory_gib is in GiB

std::string reasons(const Diagnostics& diags) {
    std::string why;
    for (const auto& d : diags.errors())
        why += (why.empty() ? "" : "; ") + d.toString();
    return why.empty() ? "not estimated" : why;
}

std::optional<Estimate> estimateCase(const nlohmann::json& c,
                                     std::optional<ResolvedScenario>& resolved,
                                     Diagnostics& diags) {
    const auto scenario = scenarioFromJson(nlohmann::ordered_json(c.at("scenario")), diags);
    if (scenario)
        resolved = resolveScenario(*scenario, Catalog::builtIn(), diags);
    return resolved ? estimatePlan(*resolved, diags) : std::nullopt;
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
        std::optional<ResolvedScenario> resolved;
        const std::optional<Estimate> estimate = estimateCase(c, resolved, diags);
        if (!estimate || !(estimate->stepSeconds > 0)) {
            out.notEstimated.push_back(id + ": " + reasons(diags));
            continue;
        }
        out.runs.push_back({id, runTraitsOf(*resolved), step.get<double>(), estimate->stepSeconds});
    }
    return out;
}

bool pagedOptimizerCase(const Estimate& e) {
    return e.peakBreakdown.weights + e.peakBreakdown.optimizer > e.capacityBytes;
}

double peakMemoryForMetric(const Estimate& e, const std::string& metric) {
    if (metric == "allocated")
        return e.peakAllocatedBytes;
    if (metric == "active")
        return e.peakActiveBytes;
    if (metric == "reserved")
        return e.peakReservedBytes;
    return e.peakBytes;
}

PublishedMemory estimatePublishedMemory(const std::vector<nlohmann::json>& caseArrays,
                                        const nlohmann::json& inconsistent) {
    PublishedMemory out;
    for (const nlohmann::json& cases : caseArrays)
        for (const nlohmann::json& c : cases) {
            const nlohmann::json& measured = c.at("measured");
            const auto gib = measured.find("peak_memory_gib");
            if (gib == measured.end() || !gib->is_number() || gib->get<double>() <= 0)
                continue;
            const std::string id = c.at("id").get<std::string>();
            if (inconsistent.contains(id)) {
                out.leftOut.push_back(id + ": " + inconsistent.at(id).get<std::string>());
                continue;
            }
            Diagnostics diags;
            std::optional<ResolvedScenario> resolved;
            const std::optional<Estimate> estimate = estimateCase(c, resolved, diags);
            if (!estimate || !(estimate->peakBytes > 0)) {
                out.notEstimated.push_back(id + ": " + reasons(diags));
                continue;
            }
            if (pagedOptimizerCase(*estimate)) {
                out.leftOut.push_back(id + ": weights and optimizer states alone exceed the "
                                           "GPU, yet the run fit (a paged optimizer)");
                continue;
            }
            const auto metric = measured.find("memory_metric");
            const std::string m =
                metric != measured.end() && metric->is_string() ? metric->get<std::string>() : "";
            out.runs.push_back({id, runTraitsOf(*resolved), gib->get<double>() * kBytesPerGiB,
                                peakMemoryForMetric(*estimate, m)});
        }
    return out;
}

} // namespace ts
