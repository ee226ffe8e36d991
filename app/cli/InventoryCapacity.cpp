#include "InventoryCapacity.h"

#include "common/JsonObjectReader.h"
#include "estimate/EstimateJson.h"
#include "hetero/HeteroSearch.h"
#include "scenario/ScenarioIO.h"

#include <map>

namespace ts::cli {

namespace {

struct Holding {
    std::string gpu;
    std::int64_t gpus = 0;
    std::optional<std::string> site;
};

std::optional<std::vector<Holding>> readInventory(const std::string& file, const Catalog& catalog,
                                                  Diagnostics& diags) {
    auto text = readTextFile(file, diags);
    if (!text)
        return std::nullopt;
    auto doc = parseJsonText(*text, diags);
    if (!doc)
        return std::nullopt;
    if (!doc->is_array() || doc->empty()) {
        diags.error("", "an inventory is a non-empty JSON list of {\"gpu\", \"num_gpus\", \"site\"}");
        return std::nullopt;
    }
    std::vector<Holding> out;
    for (std::size_t i = 0; i < doc->size(); ++i) {
        JsonObjectReader r((*doc)[i], "/" + std::to_string(i), diags);
        if (!r.valid())
            continue;
        r.require("gpu", "a catalog GPU id, e.g. \"a100-sxm-80gb\"");
        r.require("num_gpus", "how many of them, e.g. 256");
        Holding h;
        const auto gpu = r.string("gpu", 200);
        const auto n = r.integer("num_gpus", 1, 1'000'000);
        if (r.isNull("site"))
            h.site.reset();
        else
            h.site = r.string("site", 64);
        r.finish();
        if (gpu && !catalog.gpu(*gpu)) {
            diags.error(r.childPath("gpu"), "unknown GPU id \"" + *gpu + "\"");
            continue;
        }
        if (h.site) {
            diags.error(r.childPath("site"),
                        "sites are not modelled yet (cluster.sites): give null for one site");
            continue;
        }
        if (gpu && n)
            out.push_back({*gpu, *n, h.site});
    }
    if (diags.hasErrors())
        return std::nullopt;
    return out;
}

// The base scenario over the inventory's pools, with no plan: what the search chooses.
Scenario pooledBase(const Scenario& base, const std::vector<Holding>& inv, double tokens) {
    Scenario s = base;
    ClusterInput c;
    std::vector<PoolInput> pools;
    std::map<std::string, int> seen;
    for (const Holding& h : inv) {
        PoolInput p;
        const int k = seen[h.gpu]++;
        p.id = k ? h.gpu + "-" + std::to_string(k + 1) : h.gpu;
        p.gpu = GpuInput{h.gpu, std::nullopt};
        p.numGpus = h.gpus;
        pools.push_back(p);
    }
    c.pools = std::move(pools);
    c.scaleOut = base.cluster.scaleOut;
    s.cluster = std::move(c);
    ParallelInput p;
    if (base.parallelism)
        p.offload = base.parallelism->offload;
    s.parallelism = p;
    s.training.tokens = tokens;
    return s;
}

nlohmann::ordered_json optionJson(const char* kind, const HeteroPlan& p) {
    const Estimate& e = p.estimate;
    nlohmann::ordered_json pools = nlohmann::ordered_json::array();
    std::map<std::string, std::int64_t> used;
    for (const PipelineEntryInput& entry : *p.scenario.parallelism->pipelines)
        for (const PipelineStageInput& st : *entry.stages)
            used[*st.pool] += std::int64_t(entry.count.value_or(1)) * st.tp.value_or(1) *
                              p.scenario.parallelism->cp.value_or(1);
    std::string first;
    for (const PoolInput& pool : *p.scenario.cluster.pools)
        if (used.count(*pool.id)) {
            if (first.empty())
                first = *pool.gpu->catalogId;
            pools.push_back({{"gpu", *pool.gpu->catalogId}, {"num_gpus", used[*pool.id]},
                             {"site", nullptr}});
        }
    nlohmann::ordered_json j;
    j["source"] = "inventory";
    j["objective"] = kind;
    j["gpu"] = first;
    j["num_gpus"] = e.hetero ? e.hetero->usedGpus : 0;
    if (pools.size() > 1)
        j["pools"] = std::move(pools);
    j["days"] = e.trainDays ? nlohmann::ordered_json(*e.trainDays) : nullptr;
    j["train_usd"] = e.trainUsd ? nlohmann::ordered_json(*e.trainUsd) : nullptr;
    j["plan"] = p.description;
    j["scenario"] = scenarioToJson(p.scenario);
    j["estimate"] = estimateToJson(e);
    return j;
}

} // namespace

std::optional<nlohmann::ordered_json> inventoryCapacity(const Scenario& base, const Catalog& catalog,
                                                        const CalibrationRegistry& calibrations,
                                                        const InventoryRequest& req,
                                                        Diagnostics& diags) {
    Diagnostics inv;
    auto holdings = readInventory(req.file, catalog, inv);
    if (!holdings) {
        for (const Diagnostic& d : inv.all())
            diags.error("--inventory " + req.file + (d.path.empty() ? "" : " " + d.path), d.message);
        return std::nullopt;
    }
    const Scenario pooled = pooledBase(base, *holdings, req.tokens);
    nlohmann::ordered_json out;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Holding& h : *holdings)
        list.push_back({{"gpu", h.gpu}, {"num_gpus", h.gpus}, {"site", nullptr}});
    out["inventory"] = std::move(list);
    out["options"] = nlohmann::ordered_json::array();
    out["alone"] = nlohmann::ordered_json::array();
    out["impossible"] = nlohmann::ordered_json::array();
    struct Goal {
        const char* kind;
        SearchObjective objective;
    };
    for (const Goal g : {Goal{"fastest", SearchObjective::TimeToTrain},
                         Goal{"cheapest", SearchObjective::CostPerRun}}) {
        SearchOptions so = req.search;
        so.objective = g.objective;
        so.topK = 64; // enough to hold each pool's best alone
        // The fastest plan is searched without the deadline, so that each pool alone shows its
        // days even when it misses it; the cheapest must meet it.
        if (g.objective == SearchObjective::CostPerRun)
            so.constraints.deadlineDays = req.deadlineDays;
        so.constraints.budgetUsd = req.budgetUsd;
        auto r = searchHeteroPlans(pooled, catalog, calibrations, so, diags);
        if (!r)
            return std::nullopt;
        if (r->plans.empty()) {
            out["impossible"].push_back(
                {{"objective", g.kind},
                 {"reason", "no plan over the inventory trains the tokens within the deadline"
                            " (and budget)"}});
            continue;
        }
        nlohmann::ordered_json best = optionJson(g.kind, r->plans.front());
        const std::optional<double> days = r->plans.front().estimate.trainDays;
        best["meets_deadline"] = days && *days <= req.deadlineDays;
        if (best["meets_deadline"] == true)
            out["options"].push_back(std::move(best));
        else
            out["impossible"].push_back(
                {{"objective", g.kind},
                 {"reason", "the fastest plan over the inventory takes " +
                                (days ? std::to_string(*days) : std::string("?")) +
                                " days, beyond the deadline"}});
        if (g.objective != SearchObjective::TimeToTrain)
            continue;
        // Each pool alone, for "how many days do the other pools save".
        for (const HeteroPlan& p : r->alone) {
            nlohmann::ordered_json a = optionJson("fastest", p);
            a["pool"] = p.description.substr(0, p.description.find(" only: "));
            a["meets_deadline"] = p.estimate.trainDays && *p.estimate.trainDays <= req.deadlineDays;
            out["alone"].push_back(std::move(a));
        }
    }
    return out;
}

} // namespace ts::cli
