#include "hetero/HeteroSearch.h"

#include "estimate/Estimator.h"
#include "scenario/PoolResolver.h"
#include "scenario/ScenarioResolver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>

namespace ts {

namespace {

constexpr int kMaxStages = 16;         // pp up to 16 (issue 32's search benchmark)
constexpr std::size_t kMaxOrdered = 3; // pools in one pipeline: up to 3 in any order
// The prune's steady-state bound takes the per-layer time of a whole model on one stage
// (embedding and output layer spread over the layers): a stage of middle layers runs a little
// faster, so the bound is relaxed by this margin before it is compared with the best plan.
constexpr double kBoundMargin = 0.9;

struct PoolProbe {
    bool ok = false;
    double layerSeconds = 0;  // forward + backward of one layer and micro-batch
    double stateBytes = 0;    // weights + gradients + optimizer of one layer, unsharded
    double capacityBytes = 0; // the GPU's memory
};

struct PoolInfo {
    std::string id;
    std::int64_t gpus = 0;
    int gpusPerNode = 8;
    std::map<int, PoolProbe> probe; // by tp
    std::optional<SearchResult> uniform;
};

struct Search {
    const Scenario& s;
    const Catalog& catalog;
    const CalibrationRegistry& calibrations;
    const SearchOptions& options;
    HeteroSearchResult out;
    std::vector<PoolInfo> pools;
    PlanChoice inner; // the fastest pool's best uniform plan's shared fields
    int layers = 0;
    std::int64_t batch = 0;
    double best = std::numeric_limits<double>::infinity(); // step seconds of the best fitting
};

std::string joinStages(const PipelineEntryInput& e) {
    std::string out;
    std::string prev;
    int run = 0, tp = 0;
    auto flush = [&] {
        if (run)
            out += (out.empty() ? "" : " + ") + prev + " tp " + std::to_string(tp) + " x" +
                   std::to_string(run);
    };
    for (const PipelineStageInput& st : *e.stages) {
        if (*st.pool == prev && *st.tp == tp) {
            ++run;
            continue;
        }
        flush();
        prev = *st.pool;
        tp = *st.tp;
        run = 1;
    }
    flush();
    return out;
}

Scenario candidateScenario(const Search& x, const PlanChoice& plan,
                           std::vector<PipelineEntryInput> entries,
                           std::optional<std::vector<int>> layerSplit) {
    Scenario v = x.s;
    ParallelInput p = x.s.parallelism.value_or(ParallelInput{});
    p.tp.reset();
    p.pp.reset();
    p.dp.reset();
    p.dpShard.reset();
    p.cp = plan.cp;
    if (x.s.model.moe || plan.ep > 1)
        p.ep = plan.ep;
    p.vpp = plan.vpp;
    p.schedule = plan.schedule;
    p.zero = plan.zero;
    bool tpAll = true;
    for (const PipelineEntryInput& e : entries)
        for (const PipelineStageInput& st : *e.stages)
            tpAll = tpAll && st.tp.value_or(1) > 1;
    p.sequenceParallel = plan.sequenceParallel && tpAll;
    p.recompute = plan.recompute;
    if (plan.recompute == RecomputeMode::Full && plan.recomputeLayers > 0)
        p.recomputeLayers = std::optional<int>{plan.recomputeLayers};
    else
        p.recomputeLayers.reset();
    p.offload = OffloadInput{plan.offload.optimizer, plan.offload.params, plan.offload.activations};
    p.overlap = OverlapInput{plan.overlap.tp, plan.overlap.dp, plan.overlap.pp, plan.overlap.ep};
    if (layerSplit)
        p.pipelineLayers = std::optional<std::vector<int>>{*layerSplit};
    else
        p.pipelineLayers.reset();
    p.pipelines = std::move(entries);
    v.parallelism = p;
    v.training.microBatch = plan.microBatch;
    return v;
}

PipelineEntryInput entry(int count, std::vector<std::pair<std::string, int>> stages,
                         std::optional<std::int64_t> sequences = std::nullopt) {
    PipelineEntryInput e;
    e.count = count;
    std::vector<PipelineStageInput> list;
    for (auto& [pool, tp] : stages)
        list.push_back({pool, tp});
    e.stages = std::move(list);
    if (sequences)
        e.sequences = std::optional<std::int64_t>{*sequences};
    return e;
}

// Estimates a candidate in full; false when it does not resolve or estimate.
bool evaluate(Search& x, Scenario candidate, std::string description,
              std::optional<HeteroPlan>* kept = nullptr) {
    Diagnostics diags;
    auto r = resolveScenario(candidate, x.catalog, x.calibrations, diags);
    if (!r)
        return false;
    EstimatorSettings set = defaultEstimatorSettings(*r);
    set.recordTimeline = false;
    auto e = estimatePlan(*r, set, diags);
    ++x.out.plansEvaluated;
    if (!e || !e->hetero)
        return false;
    for (const PoolMemory& pm : e->hetero->perPool)
        if (pm.peakBytes > x.options.constraints.memoryHeadroom * pm.capacityBytes)
            return false;
    const SearchConstraints& c = x.options.constraints;
    if (c.deadlineDays && (!e->trainDays || *e->trainDays > *c.deadlineDays))
        return false;
    if (c.budgetUsd && (!e->trainUsd || *e->trainUsd > *c.budgetUsd))
        return false;
    const std::optional<double> objective = objectiveValue(x.options.objective, *e);
    if (!objective || (x.options.accept && !x.options.accept(*r)))
        return false;
    ++x.out.plansFitting;
    x.best = std::min(x.best, e->stepSeconds);
    HeteroPlan plan{std::move(candidate), std::move(*e), *objective, std::move(description)};
    if (kept && (!*kept || plan.objective < (*kept)->objective))
        *kept = plan;
    auto& plans = x.out.plans;
    plans.insert(std::upper_bound(plans.begin(), plans.end(), plan,
                                  [](const HeteroPlan& a, const HeteroPlan& b) {
                                      return a.objective < b.objective;
                                  }),
                 std::move(plan));
    if (plans.size() > std::size_t(std::max(1, x.options.topK)))
        plans.pop_back();
    return true;
}

// Each pool alone: the uniform search, its best plans as one-pool pipelines.
void searchEachPool(Search& x) {
    for (std::size_t i = 0; i < x.pools.size(); ++i) {
        Scenario u = poolUniformInput(x.s, x.catalog, i);
        ParallelInput p = u.parallelism.value_or(ParallelInput{});
        p.tp.reset();
        p.pp.reset();
        p.dp = std::optional<std::int64_t>{};
        u.parallelism = p;
        Diagnostics d;
        auto r = resolveScenario(u, x.catalog, x.calibrations, d);
        if (!r) {
            x.out.notes.push_back(
                "pool '" + x.pools[i].id + "' alone: " +
                (d.errors().empty() ? "does not resolve" : d.errors().front().toString()));
            continue;
        }
        SearchOptions o = x.options;
        o.pareto = false;
        o.keepPoints = 0;
        o.rankCurrentPlan = false;
        o.progress = nullptr;
        auto res = searchPlans(*r, o, d);
        if (!res)
            continue;
        x.out.plansInSpace += res->plansInSpace;
        x.out.plansEvaluated += res->plansEvaluated;
        std::optional<HeteroPlan> alone;
        for (const SearchedPlan& sp : res->plans) {
            const PlanChoice& c = sp.plan;
            std::vector<std::pair<std::string, int>> stages(std::size_t(c.pp),
                                                            {x.pools[i].id, c.tp});
            Scenario cand = candidateScenario(
                x, c, {entry(int(c.dp), stages)},
                c.pp * c.vpp > 1
                    ? std::optional<std::vector<int>>(sp.scenario.parallel.pipelineLayers)
                    : std::nullopt);
            // Hybrid sharding and the dp_shard degree stay as the uniform plan had them.
            if (c.dpShard > 0 && c.dpShard != c.dp)
                cand.parallelism->dpShard = std::optional<std::int64_t>{c.dpShard};
            evaluate(x, std::move(cand), x.pools[i].id + " only: " + describePlan(c), &alone);
        }
        if (alone)
            x.out.alone.push_back(std::move(*alone));
        x.out.bestAlone.push_back(
            {x.pools[i].id, res->plans.empty() ? 0.0 : res->plans.front().estimate.stepSeconds});
        if (!res->plans.empty())
            x.out.notes.push_back("pool '" + x.pools[i].id + "' alone: best " +
                                  std::to_string(res->plans.front().estimate.stepSeconds) +
                                  " s/step (" + describePlan(res->plans.front().plan) + ")");
        x.pools[i].uniform = std::move(*res);
    }
}

// One layer's time and states on pool i at tp (one stage holding the whole model, one replica,
// one micro-batch).
PoolProbe probe(Search& x, std::size_t i, int tp) {
    PoolProbe pr;
    Scenario v = candidateScenario(x, x.inner, {entry(1, {{x.pools[i].id, tp}})}, std::nullopt);
    v.training.globalBatch = x.inner.microBatch;
    v.parallelism->zero = 0;
    Diagnostics d;
    auto r = resolveScenario(v, x.catalog, x.calibrations, d);
    if (!r)
        return pr;
    EstimatorSettings set = defaultEstimatorSettings(*r);
    set.recordTimeline = false;
    auto e = estimatePlan(*r, set, d);
    if (!e || e->stageTimes.empty())
        return pr;
    const ModelConfig& m = r->model;
    const double embed = double(m.vocab) * double(m.hidden) * (m.tiedEmbeddings ? 1.0 : 2.0);
    const double total = embed + double(m.layers) * 12.0 * double(m.hidden) * double(m.hidden);
    const double layerShare = std::clamp(1.0 - embed / std::max(total, 1.0), 0.0, 1.0);
    const MemoryBreakdown& b = e->peakBreakdown;
    pr.ok = true;
    pr.layerSeconds = (e->stageTimes[0].forwardSeconds + e->stageTimes[0].backwardSeconds) /
                      double(std::max(1, m.layers));
    pr.stateBytes =
        (b.weights + b.gradients + b.optimizer) * layerShare / double(std::max(1, m.layers));
    pr.capacityBytes = e->capacityBytes;
    return pr;
}

// The lower bound of a layer's states on a GPU: optimizer (ZeRO >= 1), gradients (>= 2) and
// weights (3) sharded over the replicas; taken as the same shares of the unsharded states.
double stateLowerBound(const Search& x, const PoolProbe& p, int stageLayers, int replicas) {
    const double shard = x.inner.zero >= 1 ? 1.0 / replicas : 1.0;
    return p.stateBytes * stageLayers * (x.inner.zero >= 3 ? shard : std::max(shard, 0.25));
}

// Layers per stage in proportion to each stage's speed (1 / per-layer time), each at least
// one, summing to the model's layers (largest remainder).
std::vector<int> balancedLayers(int layers, const std::vector<double>& layerSeconds) {
    const std::size_t n = layerSeconds.size();
    double sum = 0;
    for (double t : layerSeconds)
        sum += 1.0 / t;
    std::vector<int> out(n, 1);
    std::vector<std::pair<double, std::size_t>> rest;
    int given = int(n);
    for (std::size_t j = 0; j < n; ++j) {
        const double share = (layers - int(n)) * (1.0 / layerSeconds[j]) / sum;
        out[j] += int(std::floor(share));
        given += int(std::floor(share));
        rest.push_back({share - std::floor(share), j});
    }
    std::sort(rest.rbegin(), rest.rend());
    for (std::size_t k = 0; given < layers; ++k, ++given)
        out[rest[k % n].second] += 1;
    return out;
}

std::int64_t replicasDividing(std::int64_t most, std::int64_t batch, std::int64_t micro) {
    for (std::int64_t r = most; r >= 1; --r)
        if (batch % r == 0 && (batch / r) % micro == 0)
            return r;
    return 0;
}

// Pipelines across pools: each used pool a contiguous block of stages, in every order.
void searchMixedPipelines(Search& x) {
    const std::size_t n = x.pools.size();
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    const int cp = x.inner.cp;
    // Every ordered selection of 2..kMaxOrdered pools.
    std::function<void(std::vector<std::size_t>&)> orders = [&](std::vector<std::size_t>& chosen) {
        if (chosen.size() >= 2) {
            // tp per chosen pool, then stages per chosen pool.
            std::vector<int> tps(chosen.size(), 1), counts(chosen.size(), 1);
            std::function<void(std::size_t)> pickTp = [&](std::size_t k) {
                if (k == chosen.size()) {
                    std::function<void(std::size_t, int)> pickCount = [&](std::size_t c, int used) {
                        if (c == chosen.size()) {
                            std::int64_t most = std::numeric_limits<std::int64_t>::max();
                            for (std::size_t q = 0; q < chosen.size(); ++q)
                                most = std::min(most, x.pools[chosen[q]].gpus /
                                                          (std::int64_t(counts[q]) * tps[q] * cp));
                            const std::int64_t r =
                                replicasDividing(most, x.batch, x.inner.microBatch);
                            ++x.out.plansInSpace;
                            if (r < 1)
                                return;
                            std::vector<double> times;
                            std::vector<std::pair<std::string, int>> stages;
                            std::vector<const PoolProbe*> probes;
                            for (std::size_t q = 0; q < chosen.size(); ++q)
                                for (int s = 0; s < counts[q]; ++s) {
                                    const PoolProbe& p = x.pools[chosen[q]].probe.at(tps[q]);
                                    times.push_back(p.layerSeconds);
                                    probes.push_back(&p);
                                    stages.push_back({x.pools[chosen[q]].id, tps[q]});
                                }
                            if (int(times.size()) > x.layers)
                                return;
                            const std::vector<int> split = balancedLayers(x.layers, times);
                            const double micro = double(x.batch / r) / double(x.inner.microBatch);
                            double bound = 0;
                            for (std::size_t j = 0; j < split.size(); ++j) {
                                bound = std::max(bound, micro * split[j] * times[j]);
                                if (stateLowerBound(x, *probes[j], split[j], int(r)) >
                                    x.options.constraints.memoryHeadroom * probes[j]->capacityBytes)
                                    return;
                            }
                            if (bound * kBoundMargin >= x.best)
                                return;
                            PipelineEntryInput e = entry(int(r), stages);
                            std::string d = joinStages(e) + " · dp " + std::to_string(r);
                            evaluate(x, candidateScenario(x, x.inner, {e}, split), d);
                            return;
                        }
                        for (int k2 = 1; used + k2 <= kMaxStages; ++k2) {
                            counts[c] = k2;
                            pickCount(c + 1, used + k2);
                        }
                    };
                    pickCount(0, 0);
                    return;
                }
                for (const auto& [tp, p] : x.pools[chosen[k]].probe)
                    if (p.ok) {
                        tps[k] = tp;
                        pickTp(k + 1);
                    }
            };
            pickTp(0);
        }
        if (chosen.size() == std::min(n, kMaxOrdered))
            return;
        for (std::size_t i : idx)
            if (std::find(chosen.begin(), chosen.end(), i) == chosen.end()) {
                chosen.push_back(i);
                orders(chosen);
                chosen.pop_back();
            }
    };
    std::vector<std::size_t> chosen;
    orders(chosen);
}

// Data parallelism across pools: each pool's replicas with the same pp, the batch split in
// proportion to their speed.
void searchMixedReplicas(Search& x) {
    const int cp = x.inner.cp;
    for (std::size_t a = 0; a < x.pools.size(); ++a)
        for (std::size_t b = a + 1; b < x.pools.size(); ++b)
            for (int pp = 1; pp <= std::min(kMaxStages, x.layers); pp *= 2)
                for (const auto& [tpa, pa] : x.pools[a].probe)
                    for (const auto& [tpb, pb] : x.pools[b].probe) {
                        ++x.out.plansInSpace;
                        if (!pa.ok || !pb.ok)
                            continue;
                        const std::int64_t ra = x.pools[a].gpus / (std::int64_t(pp) * tpa * cp);
                        const std::int64_t rb = x.pools[b].gpus / (std::int64_t(pp) * tpb * cp);
                        if (ra < 1 || rb < 1)
                            continue;
                        const double sa = 1.0 / pa.layerSeconds, sb = 1.0 / pb.layerSeconds;
                        const std::int64_t mb = x.inner.microBatch;
                        std::int64_t qa = std::int64_t(std::floor(double(x.batch) * sa /
                                                                  (ra * sa + rb * sb) / mb)) *
                                          mb;
                        std::int64_t qb = 0;
                        for (; qa >= mb; qa -= mb) {
                            const std::int64_t left = x.batch - ra * qa;
                            if (left > 0 && left % rb == 0 && (left / rb) % mb == 0) {
                                qb = left / rb;
                                break;
                            }
                        }
                        if (qb < mb)
                            continue;
                        const int perStage = (x.layers + pp - 1) / pp;
                        const double bound = std::max(double(qa) / mb * perStage * pa.layerSeconds,
                                                      double(qb) / mb * perStage * pb.layerSeconds);
                        if (bound * kBoundMargin >= x.best ||
                            stateLowerBound(x, pa, perStage, int(ra + rb)) >
                                x.options.constraints.memoryHeadroom * pa.capacityBytes ||
                            stateLowerBound(x, pb, perStage, int(ra + rb)) >
                                x.options.constraints.memoryHeadroom * pb.capacityBytes)
                            continue;
                        std::vector<std::pair<std::string, int>> sa_(std::size_t(pp),
                                                                     {x.pools[a].id, tpa});
                        std::vector<std::pair<std::string, int>> sb_(std::size_t(pp),
                                                                     {x.pools[b].id, tpb});
                        const std::vector<PipelineEntryInput> entries{entry(int(ra), sa_, qa),
                                                                      entry(int(rb), sb_, qb)};
                        const std::string d =
                            joinStages(entries[0]) + " · dp " + std::to_string(ra) + " (" +
                            std::to_string(qa) + " seq) | " + joinStages(entries[1]) + " · dp " +
                            std::to_string(rb) + " (" + std::to_string(qb) + " seq)";
                        evaluate(x, candidateScenario(x, x.inner, entries, std::nullopt), d);
                    }
}

} // namespace

std::optional<HeteroSearchResult> searchHeteroPlans(const Scenario& scenario,
                                                    const Catalog& catalog,
                                                    const CalibrationRegistry& calibrations,
                                                    const SearchOptions& options,
                                                    Diagnostics& diags) {
    const auto start = std::chrono::steady_clock::now();
    if (!scenario.cluster.pools || scenario.cluster.pools->empty()) {
        diags.error("/cluster/pools", "the heterogeneous search needs cluster.pools");
        return std::nullopt;
    }
    Search x{scenario, catalog, calibrations, options, {}, {}, {}, 0, 0};
    x.batch = scenario.training.globalBatch.value_or(0);
    for (const PoolInput& p : *scenario.cluster.pools) {
        PoolInfo info;
        info.id = p.id.value_or("");
        info.gpus = p.numGpus.value_or(0);
        x.pools.push_back(info);
    }
    searchEachPool(x);
    // The shared fields: those of the best one-pool plan (the fastest pool's).
    const PoolInfo* fastest = nullptr;
    for (const PoolInfo& p : x.pools)
        if (p.uniform && !p.uniform->plans.empty() &&
            (!fastest || p.uniform->plans.front().estimate.stepSeconds <
                             fastest->uniform->plans.front().estimate.stepSeconds))
            fastest = &p;
    if (!fastest) {
        diags.error("/cluster/pools", "no pool alone runs a plan that fits; the search of "
                                      "pipelines across pools starts from the best one-pool plan");
        return std::nullopt;
    }
    x.inner = fastest->uniform->plans.front().plan;
    x.inner.vpp = 1;
    x.inner.schedule = PipelineScheduleKind::OneFOneB;
    // Plain 1F1B blocks on its sends (Megatron-LM overlaps p2p in the interleaved schedule only;
    // MegatronPlanArgs.cpp refuses the overlap at vpp 1).
    x.inner.overlap.pp = false;
    x.inner.dpShard = 0;
    x.inner.recomputeLayers = 0;
    x.layers = fastest->uniform->plans.front().scenario.model.layers;
    for (std::size_t i = 0; i < x.pools.size(); ++i) {
        Diagnostics d;
        auto r = resolveScenario(poolUniformInput(scenario, catalog, i), catalog, calibrations, d);
        x.pools[i].gpusPerNode = r ? r->cluster.gpusPerNode : 8;
        for (int tp = 1; tp <= x.pools[i].gpusPerNode && tp <= x.pools[i].gpus; tp *= 2)
            if (PoolProbe p = probe(x, i, tp); p.ok)
                x.pools[i].probe[tp] = p;
    }
    if (x.pools.size() > 1) {
        searchMixedPipelines(x);
        searchMixedReplicas(x);
    }
    x.out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    x.out.notes.push_back("pipelines across pools share the fields of the best one-pool plan (" +
                          describePlan(fastest->uniform->plans.front().plan) +
                          "): zero, recompute, micro-batch, sequence parallelism, overlap");
    return std::move(x.out);
}

} // namespace ts
