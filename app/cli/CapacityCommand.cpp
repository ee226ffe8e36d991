// capacity FILE --tokens N --deadline-days D [--budget-usd B] [--gpus ID,ID...] [--json]
// [--max-gpus N] [--threads N] [--memory-headroom F] [--pin SPEC]...

#include "CliCommands.h"
#include "InventoryCapacity.h"
#include "PlanReport.h"

#include "export/Exporter.h"
#include "export/LaunchTargets.h"
#include "scenario/PoolResolver.h"
#include "scenario/ScenarioIO.h"
#include "search/CapacityPlanner.h"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace ts::cli {

namespace {

struct CapacityArgs {
    double tokens = 0;
    double deadlineDays = 0;
    std::optional<double> budgetUsd;
    std::vector<std::string> gpus;
    std::int64_t maxGpus = kCapacityMaxGpus;
    int threads = 0;
    double headroom = 0.9;
    std::vector<std::string> pins;
    std::string inventory;      // --inventory INV.json (InventoryCapacity.h)
    std::string target = "any"; // as search --target (export/LaunchTargets.h)
};

nlohmann::ordered_json rowJson(const CapacityRow& r) {
    nlohmann::ordered_json j;
    j["num_gpus"] = r.numGpus;
    if (!r.best) {
        j["plan"] = nullptr;
        j["note"] = r.note;
        return j;
    }
    const Estimate& e = r.best->estimate;
    j["days"] = e.trainDays ? nlohmann::ordered_json(*e.trainDays) : nullptr;
    j["train_usd"] = e.trainUsd ? nlohmann::ordered_json(*e.trainUsd) : nullptr;
    j["train_kwh"] = e.trainKwh ? nlohmann::ordered_json(*e.trainKwh) : nullptr;
    j["mfu"] = e.mfu;
    j["tokens_per_s_per_gpu"] = e.tokensPerSPerGpu;
    j["meets_deadline"] = r.meetsDeadline;
    j["plan"] = describePlan(r.best->plan);
    return j;
}

// One "options" entry: the size's numbers and the scenario, as the spec names them.
std::optional<nlohmann::ordered_json> optionJson(const CapacityGpu& g, const CapacityRow& r,
                                                 const ScenarioInputs& inputs) {
    std::string error;
    auto report = planReportJson(r.best->scenario, inputs, error);
    if (!report) {
        std::fprintf(stderr, "trainscape-cli capacity: %s: %s\n", g.gpu.c_str(), error.c_str());
        return std::nullopt;
    }
    const auto& est = (*report)["estimate"];
    nlohmann::ordered_json j;
    j["gpu"] = g.gpu;
    j["num_gpus"] = r.numGpus;
    j["days"] = est["train"]["days"];
    j["train_usd"] = est["cost"]["train_usd"];
    j["cluster_preset"] = g.clusterPreset;
    j["scenario"] = (*report)["scenario"];
    j["estimate"] = est;
    return j;
}

void printText(const CapacityResult& result) {
    for (const CapacityGpu& g : result.gpus) {
        std::printf("%s (%s):\n", g.gpu.c_str(), g.clusterPreset.c_str());
        for (const CapacityRow& r : g.scaling) {
            std::printf("  %7s GPUs", withThousands(r.numGpus).c_str());
            if (!r.best) {
                std::printf("  %s\n", r.note.c_str());
                continue;
            }
            const Estimate& e = r.best->estimate;
            std::printf("  %8.1f days  $%13s  %9.0f MWh  %5.1f%% MFU %s  %s\n", *e.trainDays,
                        withThousands(static_cast<long long>(e.trainUsd.value_or(0))).c_str(),
                        e.trainKwh.value_or(0) / 1000, 100 * e.mfu, r.meetsDeadline ? "✔" : " ",
                        describePlan(r.best->plan).c_str());
        }
        if (g.fewest)
            std::printf("  fewest: %s GPUs; cheapest: %s GPUs\n",
                        withThousands(g.scaling[*g.fewest].numGpus).c_str(),
                        withThousands(g.scaling[*g.cheapest].numGpus).c_str());
        else
            std::printf("  impossible: %s\n", g.impossible.c_str());
    }
}

// The inventory's options and each pool alone, before the rented kinds.
void printInventory(const nlohmann::ordered_json& inv) {
    std::printf("with the inventory:\n");
    auto line = [](const nlohmann::ordered_json& o, const std::string& label) {
        const double days = o["days"].is_number() ? o["days"].get<double>() : 0.0;
        const double usd = o["train_usd"].is_number() ? o["train_usd"].get<double>() : 0.0;
        std::printf("  %-10s %7lld GPUs  %8.1f days  $%13s  %s\n", label.c_str(),
                    static_cast<long long>(o["num_gpus"].get<std::int64_t>()), days,
                    withThousands(static_cast<long long>(usd)).c_str(),
                    o["plan"].get<std::string>().c_str());
    };
    for (const auto& o : inv["options"])
        line(o, o["objective"].get<std::string>());
    for (const auto& o : inv["alone"])
        line(o, o["pool"].get<std::string>() + " alone");
    for (const auto& o : inv["impossible"])
        std::printf("  %s: %s\n", o["objective"].get<std::string>().c_str(),
                    o["reason"].get<std::string>().c_str());
}

int runCapacity(const Options& options, const CapacityArgs& args) {
    int exitCode = kExitOk;
    auto inputs = loadScenarioInputs(options, "capacity", exitCode);
    if (!inputs)
        return exitCode;
    Diagnostics diags;
    auto scenario = loadScenarioFile(inputs->file, diags);
    if (scenario && scenario->cluster.pools) { // renting one kind sizes a uniform cluster
        scenario = poolUniformInput(*scenario, inputs->catalog, 0); // the first pool's cluster
    }
    CapacityRequest req;
    req.tokens = args.tokens;
    req.deadlineDays = args.deadlineDays;
    req.budgetUsd = args.budgetUsd;
    req.gpus = args.gpus;
    std::optional<nlohmann::ordered_json> inventory;
    if (!args.inventory.empty()) {
        const auto file = loadScenarioFile(inputs->file, diags);
        InventoryRequest ir;
        ir.tokens = args.tokens;
        ir.deadlineDays = args.deadlineDays;
        ir.budgetUsd = args.budgetUsd;
        ir.search.threads = args.threads;
        ir.search.constraints.memoryHeadroom = args.headroom;
        ir.search.domain = capacityDomain();
        for (const std::string& pin : args.pins)
            parseSearchPins(pin, ir.search.domain, diags);
        if (file && !diags.hasErrors())
            inventory = inventoryCapacity(*file, inputs->catalog, inputs->calibrations,
                                          args.inventory, ir, diags);
        if (!inventory) {
            printDiagnostics(inputs->file, diags);
            return kExitBadInput;
        }
        // Renting: the kinds the user has, unless --gpus names others.
        if (req.gpus.empty())
            for (const auto& h : (*inventory)["inventory"])
                if (std::find(req.gpus.begin(), req.gpus.end(), h["gpu"]) == req.gpus.end())
                    req.gpus.push_back(h["gpu"]);
    }
    req.maxGpus = args.maxGpus;
    req.search.domain = capacityDomain();
    for (const std::string& pin : args.pins)
        parseSearchPins(pin, req.search.domain, diags);
    req.search.threads = args.threads;
    req.search.constraints.memoryHeadroom = args.headroom;
    // As search --target: each size ranks only plans the target launches as they are.
    if (args.target != "any" && args.target != "none" && !findExporter(args.target))
        diags.error("--target", "\"" + args.target +
                                    "\" is not an export target: give any, none "
                                    "or one of " +
                                    exporterIds());
    if (args.target != "none") {
        const std::string target = args.target;
        req.search.accept = [target](const ResolvedScenario& plan) {
            return launches(plan, target);
        };
    }
    auto progress = std::make_shared<TerminalProgress>("capacity");
    req.search.progress = [progress](const SearchProgress& p) {
        progress->show(p.fraction(), p.plansSeen);
    };
    std::optional<CapacityResult> result;
    if (scenario && !diags.hasErrors())
        result = planCapacity(*scenario, inputs->catalog, inputs->calibrations, req, diags);
    const auto noneLaunch = [](const CapacityResult& r) {
        return std::all_of(r.gpus.begin(), r.gpus.end(),
                           [](const CapacityGpu& g) { return !g.fewest.has_value(); });
    };
    if (result && args.target == "any" && noneLaunch(*result)) {
        std::fprintf(stderr, "trainscape-cli capacity: no export target launches a plan that "
                             "meets the deadline as it is: sized without the launcher filter\n");
        req.search.accept = nullptr;
        result = planCapacity(*scenario, inputs->catalog, inputs->calibrations, req, diags);
    }
    progress.reset();
    if (!result) {
        printDiagnostics(inputs->file, diags);
        return kExitBadInput;
    }
    if (!options.json) {
        if (inventory)
            printInventory(*inventory);
        printText(*result);
        return kExitOk;
    }
    nlohmann::ordered_json out;
    out["format"] = "trainscape.capacity/1";
    out["options"] = inventory ? (*inventory)["options"] : nlohmann::ordered_json::array();
    out["impossible"] = inventory ? (*inventory)["impossible"] : nlohmann::ordered_json::array();
    if (inventory) {
        out["inventory"] = (*inventory)["inventory"];
        out["alone"] = (*inventory)["alone"];
    }
    out["scaling"] = nlohmann::ordered_json::array();
    bool ok = true;
    for (const CapacityGpu& g : result->gpus) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const CapacityRow& r : g.scaling)
            rows.push_back(rowJson(r));
        out["scaling"].push_back({{"gpu", g.gpu}, {"rows", rows}});
        if (!g.fewest) {
            out["impossible"].push_back({{"gpu", g.gpu}, {"reason", g.impossible}});
            continue;
        }
        auto option = optionJson(g, g.scaling[*g.fewest], *inputs);
        if (!option) {
            ok = false;
            continue;
        }
        (*option)["cheapest_num_gpus"] = g.scaling[*g.cheapest].numGpus;
        if (inventory)
            (*option)["source"] = "rent";
        out["options"].push_back(std::move(*option));
    }
    std::printf("%s\n", out.dump(2).c_str());
    return ok ? kExitOk : kExitFailure;
}

} // namespace

void addCapacityCommand(CLI::App& app, Options& options, CommandRunner& run) {
    CLI::App* sub = addScenarioFileCommand(
        app, "capacity",
        "How many GPUs of each kind train the scenario's model by a deadline, within a budget",
        options);
    auto args = std::make_shared<CapacityArgs>();
    sub->add_option("--tokens", args->tokens, "Tokens to train")
        ->required()
        ->check(CLI::PositiveNumber);
    sub->add_option("--deadline-days", args->deadlineDays, "Days the run may take")
        ->required()
        ->check(CLI::PositiveNumber);
    sub->add_option("--budget-usd", args->budgetUsd, "Most the run may cost")
        ->check(CLI::PositiveNumber);
    sub->add_option("--gpus", args->gpus,
                    "GPU kinds to size (catalog ids, comma-separated; default: every GPU a "
                    "cluster preset carries)")
        ->delimiter(',')
        ->type_name("ID,ID...");
    sub->add_option("--max-gpus", args->maxGpus, "Largest cluster to try (default 65536)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--threads", args->threads, "Worker threads (default: every core)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--memory-headroom", args->headroom,
                    "Largest estimated peak as a fraction of GPU memory (default 0.9)")
        ->check(CLI::Range(0.01, 1.0));
    sub->add_option("--pin", args->pins,
                    "Fix or widen plan fields, as for search (default: no offload, full "
                    "sharding, micro-batch 1|2|4)")
        ->type_name("SPEC");
    sub->add_option("--target", args->target,
                    "Size with plans this export target launches as they are: a target id, any "
                    "(default) or none")
        ->type_name("T");
    sub->add_option("--inventory", args->inventory,
                    "The GPUs you have: a JSON list of {\"gpu\", \"num_gpus\", \"site\"}; "
                    "plans over them as pools (fastest, cheapest, each pool alone) beside "
                    "renting one kind")
        ->type_name("INV.json");
    setRunner(sub, run, [&options, args] { return runCapacity(options, *args); });
}

} // namespace ts::cli
