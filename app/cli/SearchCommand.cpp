// search FILE [--json] [--top K] [--threads N] [--objective NAME] [--pin SPEC]...
// [--memory-headroom F] [--deadline-days D] [--budget-usd B] [--pareto]

#include "CliCommands.h"
#include "HeteroSearch.h"
#include "PlanReport.h"

#include "export/Exporter.h"
#include "export/LaunchTargets.h"
#include "export/PlanAdaptation.h"
#include "scenario/ScenarioIO.h"
#include "scenario/ScenarioResolver.h"
#include "search/PlanSearch.h"

#include <cstdio>
#include <memory>

namespace ts::cli {

namespace {

struct SearchArgs {
    int top = 10;
    int threads = 0;
    std::string objective = "step-time";
    std::vector<std::string> pins;
    double headroom = 0.9;
    std::optional<double> deadlineDays;
    std::optional<double> budgetUsd;
    bool pareto = false;
    bool rankCurrent = false;
    std::string target = "any"; // an export target, "any" or "none" (export/LaunchTargets.h)
};

nlohmann::ordered_json currentJson(const SearchResult& r) {
    const CurrentPlanRank& c = *r.current;
    nlohmann::ordered_json j;
    j["rank"] = c.better + 1;
    j["better_plans"] = c.better;
    j["uncertain_plans"] = c.uncertain;
    j["of"] = r.plansFitting;
    j["objective"] = c.objective;
    j["step_s"] = c.estimate.stepSeconds;
    j["fits"] = c.estimate.peakBytes <= c.estimate.capacityBytes;
    if (!r.plans.empty())
        j["best_step_s"] = r.plans.front().estimate.stepSeconds;
    return j;
}

nlohmann::ordered_json plansJson(const std::vector<SearchedPlan>& plans,
                                 const ScenarioInputs& inputs, bool& ok) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const SearchedPlan& p : plans) {
        std::string error;
        auto j = planReportJson(p.scenario, inputs, error);
        if (!j) {
            std::fprintf(stderr, "trainscape-cli search: %s: %s\n", describePlan(p.plan).c_str(),
                         error.c_str());
            ok = false;
            continue;
        }
        (*j)["targets"] = launchTargets(p.scenario);
        out.push_back(std::move(*j));
    }
    return out;
}

void printText(const SearchResult& r, SearchObjective objective) {
    std::printf("%s plans in the space, %s timed, %s within the memory headroom, %s full "
                "estimates, %.2f s\n",
                withThousands(r.plansInSpace).c_str(), withThousands(r.plansEvaluated).c_str(),
                withThousands(r.plansFitting).c_str(), withThousands(r.fullEstimates).c_str(),
                r.seconds);
    std::printf("best by %s:\n", searchObjectiveName(objective).c_str());
    int rank = 0;
    for (const SearchedPlan& p : r.plans) {
        const Estimate& e = p.estimate;
        std::printf("%3d. %8.3f s/step  %5.1f%% MFU  %6.1f GiB", ++rank, e.stepSeconds, 100 * e.mfu,
                    e.peakBytes / double(1ull << 30));
        if (e.trainDays)
            std::printf("  %7.1f days", *e.trainDays);
        if (e.trainUsd)
            std::printf("  $%s", withThousands(static_cast<long long>(*e.trainUsd)).c_str());
        std::string targets; // the export targets that launch it as it is
        for (const std::string& t : launchTargets(p.scenario))
            targets += (targets.empty() ? "" : ",") + t;
        std::printf("  %s  [%s]\n", describePlan(p.plan).c_str(),
                    targets.empty() ? "no launcher" : targets.c_str());
    }
    if (r.plans.empty())
        std::printf("no plan fits the constraints\n");
    if (r.current)
        std::printf("the scenario's own plan: %.3f s/step, rank %s of %s (%s uncertain)\n",
                    r.current->estimate.stepSeconds, withThousands(r.current->better + 1).c_str(),
                    withThousands(r.plansFitting).c_str(),
                    withThousands(r.current->uncertain).c_str());
}

// The options from the command line; nullopt after printing why they do not read.
std::optional<SearchOptions> searchOptions(const SearchArgs& args) {
    SearchOptions so;
    const auto objective = searchObjectiveFromName(args.objective);
    Diagnostics diags;
    if (args.target != "any" && args.target != "none" && !findExporter(args.target))
        diags.error("--target", "\"" + args.target +
                                    "\" is not an export target: give any, none "
                                    "or one of " +
                                    exporterIds());
    if (!objective)
        diags.error("--objective", "\"" + args.objective +
                                       "\" is not one of step-time, tokens-per-s, time-to-train, "
                                       "cost-per-token, cost-per-run, energy-per-run");
    for (const std::string& pin : args.pins)
        parseSearchPins(pin, so.domain, diags);
    if (diags.hasErrors()) {
        printDiagnostics("search", diags);
        return std::nullopt;
    }
    so.objective = *objective;
    so.topK = args.top;
    so.threads = args.threads;
    so.pareto = args.pareto;
    so.rankCurrentPlan = args.rankCurrent;
    so.constraints.memoryHeadroom = args.headroom;
    so.constraints.deadlineDays = args.deadlineDays;
    so.constraints.budgetUsd = args.budgetUsd;
    if (args.target != "none") {
        const std::string target = args.target;
        so.accept = [target](const ResolvedScenario& plan) { return launches(plan, target); };
    }
    return so;
}

// A scenario with cluster.pools: the plans over the pools (app/cli/HeteroSearch.h).
std::optional<Scenario> pooledScenario(const Options& options) {
    if (options.positional.size() != 1)
        return std::nullopt;
    Diagnostics diags;
    auto s = loadScenarioFile(options.positional[0], diags);
    if (!s || !s->cluster.pools)
        return std::nullopt;
    return s;
}

int runSearch(const Options& options, const SearchArgs& args) {
    if (auto pooled = pooledScenario(options)) {
        auto so = searchOptions(args); // each pool's uniform search takes the pins
        return so ? runHeteroSearch(options, *pooled, *so) : kExitBadInput;
    }
    int exitCode = kExitOk;
    auto inputs = loadScenarioInputs(options, "search", exitCode);
    if (!inputs)
        return exitCode;
    // --target T: the settings the search does not vary (a schedule, overlap or dispatch flags)
    // first become the nearest ones T runs (export/PlanAdaptation.h), as `export --adapt` makes
    // them; the search then ranks only what T launches as it is.
    if (const Exporter* target = findExporter(args.target)) {
        Diagnostics read;
        if (auto doc = loadScenarioFile(inputs->file, read)) {
            const AdaptedExport adapted =
                adaptAndExport(scenarioToJson(*doc), *target, inputs->catalog, {});
            if (adapted.ok() && !adapted.changes.empty()) {
                Diagnostics again;
                auto s = scenarioFromJson(adapted.scenario, again);
                auto r = s ? resolveScenario(*s, inputs->catalog, inputs->calibrations, again)
                           : std::nullopt;
                if (r) {
                    inputs->scenario = std::move(*r);
                    std::fprintf(stderr,
                                 "trainscape-cli search: the fields the search keeps were adapted "
                                 "to %s first (%zu changes, as export --adapt lists them)\n",
                                 args.target.c_str(), adapted.changes.size());
                }
            }
        }
    }
    auto parsed = searchOptions(args);
    if (!parsed)
        return kExitBadInput;
    SearchOptions so = std::move(*parsed);
    Diagnostics diags;
    auto progress = std::make_shared<TerminalProgress>("search");
    so.progress = [progress](const SearchProgress& p) {
        progress->show(p.fraction(), p.plansSeen);
    };
    auto result = searchPlans(inputs->scenario, so, diags);
    if (result && result->plans.empty() && so.accept && args.target == "any") {
        std::fprintf(stderr, "trainscape-cli search: no export target launches any plan of this "
                             "space as it is: ranked without the launcher filter\n");
        so.accept = nullptr;
        result = searchPlans(inputs->scenario, so, diags);
    }
    progress.reset();
    if (!result) {
        printDiagnostics(inputs->file, diags);
        return kExitBadInput;
    }
    if (!options.json) {
        printText(*result, so.objective);
        return kExitOk;
    }
    bool ok = true;
    nlohmann::ordered_json out;
    out["format"] = "trainscape.search/1";
    out["objective"] = searchObjectiveName(so.objective);
    out["plans_in_space"] = result->plansInSpace;
    out["plans_evaluated"] = result->plansEvaluated;
    out["plans_fitting"] = result->plansFitting;
    out["full_estimates"] = result->fullEstimates;
    out["seconds"] = result->seconds;
    out["plans"] = plansJson(result->plans, *inputs, ok);
    if (result->current)
        out["current_plan"] = currentJson(*result);
    if (args.pareto) {
        nlohmann::ordered_json fronts = nlohmann::ordered_json::object();
        for (const ParetoFront& f : result->fronts)
            fronts[f.name] = plansJson(f.plans, *inputs, ok);
        out["pareto"] = std::move(fronts);
    }
    std::printf("%s\n", out.dump(2).c_str());
    return ok ? kExitOk : kExitFailure;
}

} // namespace

void addSearchCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* sub = addScenarioFileCommand(
        app, "search",
        "Search every valid parallel plan of a scenario for the best ones (full estimates)",
        options);
    auto args = std::make_shared<SearchArgs>();
    sub->add_option("--top", args->top, "How many plans to report, best first (default 10)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--threads", args->threads, "Worker threads (default: every core)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--objective", args->objective,
                    "step-time (default), tokens-per-s, time-to-train, cost-per-token, "
                    "cost-per-run or energy-per-run");
    sub->add_option("--pin", args->pins,
                    "Fix fields or allow lists, e.g. tp=8,pp=4|8,recompute=full (scenario "
                    "field names; repeatable)")
        ->type_name("SPEC");
    sub->add_option("--memory-headroom", args->headroom,
                    "Largest estimated peak as a fraction of GPU memory (default 0.9)")
        ->check(CLI::Range(0.01, 1.0));
    sub->add_option("--deadline-days", args->deadlineDays,
                    "Only plans that train training.tokens within this many days");
    sub->add_option("--budget-usd", args->budgetUsd, "Only plans whose run costs at most this");
    sub->add_flag("--pareto", args->pareto,
                  "Also print the Pareto fronts of time against cost, energy and peak memory");
    sub->add_option("--target", args->target,
                    "Rank only plans this export target launches as they are: a target id, "
                    "any (default: at least one target) or none (no launcher filter)")
        ->type_name("T");
    sub->add_flag("--rank-current", args->rankCurrent,
                  "Also rank the scenario's own plan among the space's (full estimates)");
    setRunner(sub, run, [&options, args] { return runSearch(options, *args); });
}

} // namespace ts::cli
