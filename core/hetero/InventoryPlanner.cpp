#include "hetero/InventoryPlanner.h"

#include "common/JsonObjectReader.h"
#include "scenario/ScenarioIO.h"

#include <map>

namespace ts {

std::optional<std::vector<InventoryHolding>>
readInventory(std::string_view text, const Catalog& catalog, Diagnostics& diags) {
    auto doc = parseJsonText(text, diags);
    if (!doc)
        return std::nullopt;
    if (!doc->is_array() || doc->empty()) {
        diags.error("",
                    "an inventory is a non-empty JSON list of {\"gpu\", \"num_gpus\", \"site\"}");
        return std::nullopt;
    }
    std::vector<InventoryHolding> out;
    for (std::size_t i = 0; i < doc->size(); ++i) {
        JsonObjectReader r((*doc)[i], "/" + std::to_string(i), diags);
        if (!r.valid())
            continue;
        r.require("gpu", "a catalog GPU id, e.g. \"a100-sxm-80gb\"");
        r.require("num_gpus", "how many of them, e.g. 256");
        const auto gpu = r.string("gpu", 200);
        const auto n = r.integer("num_gpus", 1, 1'000'000);
        std::optional<std::string> site;
        if (!r.isNull("site"))
            site = r.string("site", 64);
        r.finish();
        if (gpu && !catalog.gpu(*gpu)) {
            diags.error(r.childPath("gpu"), "unknown GPU id \"" + *gpu + "\"");
            continue;
        }
        if (site) {
            diags.error(r.childPath("site"),
                        "sites are not modelled yet (cluster.sites): give null for one site");
            continue;
        }
        if (gpu && n)
            out.push_back({*gpu, *n});
    }
    if (diags.hasErrors())
        return std::nullopt;
    return out;
}

Scenario inventoryScenario(const Scenario& base, const std::vector<InventoryHolding>& inv,
                           double tokens) {
    Scenario s = base;
    ClusterInput c;
    std::vector<PoolInput> pools;
    std::map<std::string, int> seen;
    for (const InventoryHolding& h : inv) {
        PoolInput p;
        const int k = seen[h.gpu]++;
        p.id = k ? h.gpu + "-" + std::to_string(k + 1) : h.gpu;
        p.gpu = GpuInput{h.gpu, std::nullopt};
        p.numGpus = h.numGpus;
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

namespace {

InventoryOption option(std::string objective, const HeteroPlan& p, double deadlineDays) {
    InventoryOption o;
    o.objective = std::move(objective);
    o.plan = p;
    o.meetsDeadline = p.estimate.trainDays && *p.estimate.trainDays <= deadlineDays;
    std::map<std::string, std::int64_t> used;
    const ParallelInput& par = *p.scenario.parallelism;
    for (const PipelineEntryInput& e : *par.pipelines)
        for (const PipelineStageInput& st : *e.stages)
            used[*st.pool] +=
                std::int64_t(e.count.value_or(1)) * st.tp.value_or(1) * par.cp.value_or(1);
    for (const PoolInput& pool : *p.scenario.cluster.pools)
        if (used.count(*pool.id))
            o.used.push_back({*pool.gpu->catalogId, used[*pool.id]});
    return o;
}

} // namespace

std::optional<InventoryResult> planInventory(const Scenario& base,
                                             const std::vector<InventoryHolding>& inventory,
                                             const InventoryRequest& req, const Catalog& catalog,
                                             const CalibrationRegistry& calibrations,
                                             Diagnostics& diags) {
    const Scenario pooled = inventoryScenario(base, inventory, req.tokens);
    InventoryResult out;
    // The fastest plan is searched without the deadline, so that each pool alone shows its
    // days even when it misses it; the cheapest must meet it.
    for (const bool cheapest : {false, true}) {
        SearchOptions so = req.search;
        so.objective = cheapest ? SearchObjective::CostPerRun : SearchObjective::TimeToTrain;
        so.topK = 64;
        if (cheapest)
            so.constraints.deadlineDays = req.deadlineDays;
        so.constraints.budgetUsd = req.budgetUsd;
        auto r = searchHeteroPlans(pooled, catalog, calibrations, so, diags);
        if (!r)
            return std::nullopt;
        const char* kind = cheapest ? "cheapest" : "fastest";
        if (r->plans.empty()) {
            out.impossible.push_back({kind, "no plan over the inventory trains the tokens "
                                            "within the deadline (and budget)"});
            continue;
        }
        InventoryOption best = option(kind, r->plans.front(), req.deadlineDays);
        if (best.meetsDeadline)
            out.options.push_back(std::move(best));
        else
            out.impossible.push_back(
                {kind, "the fastest plan over the inventory takes " +
                           std::to_string(best.plan.estimate.trainDays.value_or(0)) +
                           " days, beyond the deadline"});
        if (cheapest)
            continue;
        for (const HeteroPlan& p : r->alone)
            out.alone.push_back(option(p.description.substr(0, p.description.find(" only: ")), p,
                                       req.deadlineDays));
    }
    return out;
}

} // namespace ts
