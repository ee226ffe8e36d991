#include "search/CapacityPlanner.h"

#include "scenario/ScenarioResolver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts {

namespace {

// Sizes past the fewest that meets the deadline, for the scaling table and the cheapest.
constexpr int kSizesPastFewest = 2;

std::string fixed1(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// A plan the resolver accepts at `n` GPUs (the search then replaces it): the widest tensor
// parallelism inside a node and the shallowest pipeline whose data parallelism divides the
// batch. nullopt when none does.
std::optional<ParallelInput> seedPlan(const ModelConfig& m, std::int64_t gb, int gpusPerNode,
                                      std::int64_t n, const std::optional<ParallelInput>& base) {
    for (int tp = gpusPerNode; tp >= 1; --tp) {
        if (n % tp || m.heads % tp || m.ffnHidden % tp ||
            !(m.mla || m.kvHeads % tp == 0 || tp % m.kvHeads == 0))
            continue;
        for (std::int64_t pp = 1; pp <= std::min<std::int64_t>(m.layers, n / tp); ++pp) {
            if ((n / tp) % pp)
                continue;
            const std::int64_t dp = n / tp / pp;
            if (gb % dp)
                continue;
            ParallelInput p;
            p.tp = tp;
            p.pp = static_cast<int>(pp);
            if (base) { // execution choices the search does not make
                p.cpComm = base->cpComm;
                p.moeDispatchFp8 = base->moeDispatchFp8;
            }
            return p;
        }
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>>
gpuKinds(const Catalog& catalog, const CapacityRequest& request, CapacityResult& result) {
    std::vector<std::pair<std::string, std::string>> kinds; // gpu, cluster preset
    const auto presetOf = [&](const std::string& gpu) -> std::string {
        for (const auto& [id, preset] : catalog.clusters())
            if (preset.gpuId == gpu)
                return id;
        return {};
    };
    if (request.gpus.empty()) {
        for (const auto& entry : catalog.clusters()) {
            // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
            const std::string& gpuId = entry.second.gpuId;
            if (std::none_of(kinds.begin(), kinds.end(),
                             [&](const auto& k) { return k.first == gpuId; }))
                kinds.emplace_back(gpuId, presetOf(gpuId));
        }
        return kinds;
    }
    for (const std::string& gpu : request.gpus) {
        const std::string preset = presetOf(gpu);
        if (preset.empty()) {
            CapacityGpu g;
            g.gpu = gpu;
            g.impossible = catalog.gpus().count(gpu)
                               ? "no cluster preset in the catalog carries " + gpu
                               : "not a GPU of the catalog (trainscape-cli catalog list gpus)";
            result.gpus.push_back(g);
            continue;
        }
        kinds.emplace_back(gpu, preset);
    }
    return kinds;
}

struct SizeRun {
    const Scenario& base;
    const Catalog& catalog;
    const CalibrationRegistry& calibrations;
    const CapacityRequest& request;
    const ModelConfig& model;
    const std::string& baseGpu; // the base scenario's GPU (catalog id; "" for its own object)
};

CapacityRow runSize(const SizeRun& run, const std::string& preset, std::int64_t n) {
    CapacityRow row;
    row.numGpus = n;
    Scenario s = run.base;
    s.cluster = ClusterInput{};
    s.cluster.preset = preset;
    s.cluster.numGpus = n;
    s.training.tokens = run.request.tokens;
    const ClusterPreset& cluster = run.catalog.clusters().at(preset);
    // The scenario's GPU-hour price is of its own GPU: another kind is priced at the catalog's.
    if (s.costs && (run.baseGpu.empty() || cluster.gpuId != run.baseGpu))
        s.costs->gpuHourUsd.reset();
    const int gpn = cluster.gpusPerNode;
    s.parallelism = seedPlan(run.model, *s.training.globalBatch, gpn, n, run.base.parallelism);
    if (!s.parallelism) {
        row.note = "global_batch " + std::to_string(*s.training.globalBatch) +
                   " cannot be split over " + std::to_string(n) + " GPUs";
        return row;
    }
    Diagnostics diags;
    const auto resolved = resolveScenario(s, run.catalog, run.calibrations, diags);
    if (!resolved) {
        row.note = diags.errors().empty() ? "does not resolve" : diags.errors().front().toString();
        return row;
    }
    SearchOptions so = run.request.search;
    so.objective = SearchObjective::TimeToTrain;
    so.topK = 1;
    so.pareto = false;
    so.constraints.budgetUsd = run.request.budgetUsd;
    so.constraints.deadlineDays.reset();
    Diagnostics searchDiags;
    auto found = searchPlans(*resolved, so, searchDiags);
    if (!found || found->plans.empty()) {
        row.note = found && found->plansFitting == 0
                       ? "fits nowhere below " +
                             std::to_string(int(100 * so.constraints.memoryHeadroom + 0.5)) +
                             "% memory"
                       : "no plan within the budget";
        return row;
    }
    row.best = found->plans.front();
    const Estimate& e = row.best->estimate;
    row.meetsDeadline = e.trainDays && *e.trainDays <= run.request.deadlineDays;
    return row;
}

void summarise(CapacityGpu& g, const CapacityRequest& request) {
    for (std::size_t i = 0; i < g.scaling.size(); ++i) {
        const CapacityRow& r = g.scaling[i];
        if (!r.meetsDeadline)
            continue;
        if (!g.fewest)
            g.fewest = i;
        const auto usd = [&](std::size_t k) {
            return g.scaling[k].best->estimate.trainUsd.value_or(0.0);
        };
        if (!g.cheapest || usd(i) < usd(*g.cheapest))
            g.cheapest = i;
    }
    if (g.fewest)
        return;
    const CapacityRow* fastest = nullptr;
    for (const CapacityRow& r : g.scaling)
        if (r.best &&
            (!fastest || *r.best->estimate.trainDays < *fastest->best->estimate.trainDays))
            fastest = &r;
    if (!fastest) {
        g.impossible = g.scaling.empty() ? "no cluster size to try"
                                         : g.scaling.back().note + " (tried up to " +
                                               std::to_string(g.scaling.back().numGpus) + " GPUs)";
        return;
    }
    const double days = *fastest->best->estimate.trainDays;
    g.impossible = "the deadline of " + fixed1(request.deadlineDays) + " days needs " +
                   fixed1(days / request.deadlineDays) + "x the fastest size tried (" +
                   std::to_string(fastest->numGpus) + " GPUs: " + fixed1(days) + " days)";
    if (request.budgetUsd)
        g.impossible += " within the budget";
}

void reportProgress(const CapacityRequest& request, std::size_t kind, std::size_t kinds,
                    const std::string& gpu, int gpusPerNode, std::int64_t n) {
    if (!request.progress)
        return;
    CapacityProgress p;
    p.gpuIndex = kind;
    p.gpuKinds = kinds;
    p.gpu = gpu;
    p.numGpus = n;
    const double sizes = std::log2(std::max(1.0, double(request.maxGpus) / gpusPerNode)) + 1;
    const double tried = std::log2(double(n) / gpusPerNode);
    p.fraction =
        (double(kind) + std::min(1.0, tried / sizes)) / double(std::max<std::size_t>(1, kinds));
    request.progress(p);
}

} // namespace

SearchDomain capacityDomain() {
    SearchDomain d;
    d.offloadOptimizer = {OffloadTarget::None};
    d.offloadParams = {OffloadTarget::None};
    d.offloadActivations = {OffloadTarget::None};
    d.dpShard = {0};
    d.recomputeLayers = {0};
    d.microBatch = {1, 2, 4};
    return d;
}

std::optional<CapacityResult> planCapacity(const Scenario& base, const Catalog& catalog,
                                           const CalibrationRegistry& calibrations,
                                           const CapacityRequest& request, Diagnostics& diags) {
    if (!(request.tokens > 0) || !(request.deadlineDays > 0)) {
        diags.error(request.tokens > 0 ? "--deadline-days" : "--tokens", "must be positive");
        return std::nullopt;
    }
    const auto resolvedBase = resolveScenario(base, catalog, calibrations, diags);
    if (!resolvedBase)
        return std::nullopt;
    CapacityResult result;
    const SizeRun run{
        base, catalog, calibrations, request, resolvedBase->model, resolvedBase->cluster.gpuId};
    const auto cancelled = [&] { return request.search.cancel && request.search.cancel->load(); };
    const auto kinds = gpuKinds(catalog, request, result);
    for (std::size_t kind = 0; kind < kinds.size(); ++kind) {
        const auto& [gpu, preset] = kinds[kind];
        CapacityGpu g;
        g.gpu = gpu;
        g.clusterPreset = preset;
        int past = 0;
        const int gpn = catalog.clusters().at(preset).gpusPerNode;
        for (std::int64_t n = gpn; n <= request.maxGpus && past <= kSizesPastFewest; n *= 2) {
            if (cancelled())
                break;
            reportProgress(request, kind, kinds.size(), gpu, gpn, n);
            g.scaling.push_back(runSize(run, preset, n));
            if (cancelled()) { // a size searched in part says nothing
                g.scaling.pop_back();
                break;
            }
            if (g.scaling.back().meetsDeadline || past > 0)
                ++past;
        }
        summarise(g, request);
        if (cancelled() && !g.fewest)
            g.impossible = "cancelled before a size met the deadline";
        result.gpus.push_back(std::move(g));
        if (cancelled())
            break;
    }
    result.cancelled = cancelled();
    return result;
}

} // namespace ts
