// search FILE on a scenario with cluster.pools (core/hetero/HeteroSearch.h): the plans over
// the pools, best first, each as a complete pools scenario and its estimate.

#include "HeteroSearch.h"
#include "PlanReport.h"

#include "common/TextFormat.h"
#include "estimate/EstimateJson.h"
#include "export/LaunchTargets.h"
#include "hetero/HeteroSearch.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"

#include <cstdio>

namespace ts::cli {

int runHeteroSearch(const Options& options, const Scenario& scenario, const SearchOptions& so) {
    Catalog catalog;
    CalibrationRegistry calibrations;
    if (!loadCatalog(options, catalog) || !loadCalibrations(options, calibrations))
        return kExitBadInput;
    Diagnostics diags;
    auto result = searchHeteroPlans(scenario, catalog, calibrations, so, diags);
    if (result && result->plans.empty() && so.accept) {
        std::fprintf(stderr, "trainscape-cli search: no plan over the pools that fits is launched "
                             "as it is by the chosen target: ranked without the launcher filter\n");
        SearchOptions open = so;
        open.accept = nullptr;
        result = searchHeteroPlans(scenario, catalog, calibrations, open, diags);
    }
    if (!result) {
        printDiagnostics(options.positional[0], diags);
        return kExitBadInput;
    }
    if (!options.json) {
        std::printf("%s plans in the space, %s timed or estimated, %s within the memory "
                    "headroom, %.2f s\n",
                    withThousands(result->plansInSpace).c_str(),
                    withThousands(result->plansEvaluated).c_str(),
                    withThousands(result->plansFitting).c_str(), result->seconds);
        std::printf("best by %s:\n", searchObjectiveName(so.objective).c_str());
        int rank = 0;
        for (const HeteroPlan& p : result->plans) {
            const Estimate& e = p.estimate;
            std::printf("%3d. %8.3f s/step  %5.1f%% MFU  %6.1f GiB  %lld GPUs", ++rank,
                        e.stepSeconds, 100 * e.mfu, e.peakBytes / double(1ull << 30),
                        static_cast<long long>(e.hetero ? e.hetero->usedGpus : 0));
            if (e.trainDays)
                std::printf("  %7.1f days", *e.trainDays);
            std::printf("  %s\n", p.description.c_str());
        }
        if (result->plans.empty())
            std::printf("no plan fits the constraints\n");
        for (const std::string& n : result->notes)
            std::printf("note: %s\n", n.c_str());
        return kExitOk;
    }
    nlohmann::ordered_json out;
    out["format"] = "trainscape.search/1";
    out["objective"] = searchObjectiveName(so.objective);
    out["plans_in_space"] = result->plansInSpace;
    out["plans_evaluated"] = result->plansEvaluated;
    out["plans_fitting"] = result->plansFitting;
    out["seconds"] = result->seconds;
    nlohmann::ordered_json plans = nlohmann::ordered_json::array();
    bool ok = true;
    for (const HeteroPlan& p : result->plans) {
        std::string error; // re-read and re-estimated, as `estimate` prints it
        auto j = scenarioReportJson(p.scenario, catalog, calibrations, error);
        if (!j) {
            std::fprintf(stderr, "trainscape-cli search: %s: %s\n", p.description.c_str(),
                         error.c_str());
            ok = false;
            continue;
        }
        nlohmann::ordered_json entry;
        entry["description"] = p.description;
        entry["scenario"] = (*j)["scenario"];
        entry["estimate"] = (*j)["estimate"];
        Diagnostics d;
        if (auto r = resolveScenario(p.scenario, catalog, calibrations, d))
            entry["targets"] = launchTargets(*r);
        plans.push_back(std::move(entry));
    }
    out["plans"] = std::move(plans);
    out["notes"] = result->notes;
    std::printf("%s\n", out.dump(2).c_str());
    return ok ? kExitOk : kExitFailure;
}

} // namespace ts::cli
