#include "InventoryCapacity.h"

#include "estimate/EstimateJson.h"
#include "scenario/ScenarioIO.h"

namespace ts::cli {

namespace {

nlohmann::ordered_json optionJson(const InventoryOption& o) {
    const Estimate& e = o.plan.estimate;
    nlohmann::ordered_json j;
    j["source"] = "inventory";
    j["objective"] = o.objective;
    j["gpu"] = o.used.empty() ? std::string() : o.used.front().gpu;
    j["num_gpus"] = e.hetero ? e.hetero->usedGpus : 0;
    if (o.used.size() > 1) {
        nlohmann::ordered_json pools = nlohmann::ordered_json::array();
        for (const InventoryHolding& h : o.used)
            pools.push_back({{"gpu", h.gpu}, {"num_gpus", h.numGpus}, {"site", nullptr}});
        j["pools"] = std::move(pools);
    }
    j["days"] = e.trainDays ? nlohmann::ordered_json(*e.trainDays) : nullptr;
    j["train_usd"] = e.trainUsd ? nlohmann::ordered_json(*e.trainUsd) : nullptr;
    j["meets_deadline"] = o.meetsDeadline;
    j["plan"] = o.plan.description;
    j["scenario"] = scenarioToJson(o.plan.scenario);
    j["estimate"] = estimateToJson(e);
    return j;
}

} // namespace

std::optional<nlohmann::ordered_json>
inventoryCapacity(const Scenario& base, const Catalog& catalog,
                  const CalibrationRegistry& calibrations, const std::string& file,
                  const InventoryRequest& req, Diagnostics& diags) {
    Diagnostics inv;
    std::optional<std::vector<InventoryHolding>> holdings;
    if (auto text = readTextFile(file, inv))
        holdings = readInventory(*text, catalog, inv);
    if (!holdings) {
        for (const Diagnostic& d : inv.all())
            diags.error("--inventory " + file + (d.path.empty() ? "" : " " + d.path), d.message);
        return std::nullopt;
    }
    auto result = planInventory(base, *holdings, req, catalog, calibrations, diags);
    if (!result)
        return std::nullopt;
    nlohmann::ordered_json out;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const InventoryHolding& h : *holdings)
        list.push_back({{"gpu", h.gpu}, {"num_gpus", h.numGpus}, {"site", nullptr}});
    out["inventory"] = std::move(list);
    out["options"] = nlohmann::ordered_json::array();
    for (const InventoryOption& o : result->options)
        out["options"].push_back(optionJson(o));
    out["alone"] = nlohmann::ordered_json::array();
    for (const InventoryOption& o : result->alone) {
        nlohmann::ordered_json a = optionJson(o);
        a["pool"] = o.objective;
        a["objective"] = "fastest";
        out["alone"].push_back(std::move(a));
    }
    out["impossible"] = nlohmann::ordered_json::array();
    for (const auto& [objective, reason] : result->impossible)
        out["impossible"].push_back({{"objective", objective}, {"reason", reason}});
    return out;
}

} // namespace ts::cli
