#include "scenario/PoolResolver.h"

#include "scenario/ScenarioResolver.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace ts {

namespace {

const std::string kPools = "/cluster/pools";
const std::string kPipelines = "/parallelism/pipelines";

std::string poolPath(std::size_t i) {
    return kPools + "/" + std::to_string(i);
}
std::string entryPath(std::size_t e) {
    return kPipelines + "/" + std::to_string(e);
}
std::string stagePath(std::size_t e, std::size_t j) {
    return entryPath(e) + "/stages/" + std::to_string(j);
}

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// The catalog cluster preset built of this GPU (its NVLink domain and NICs), for a pool that
// gives only its GPU: "a100-sxm-80gb" takes dgx-a100's figures.
std::optional<std::string> presetFor(const Catalog& catalog, const std::string& gpuId,
                                     const std::optional<std::string>& clusterPreset) {
    if (clusterPreset)
        if (const ClusterPreset* p = catalog.cluster(*clusterPreset); p && p->gpuId == gpuId)
            return clusterPreset;
    for (const auto& [id, preset] : catalog.clusters())
        if (preset.gpuId == gpuId)
            return id;
    return std::nullopt;
}

// The pool as a uniform cluster: its own GPU, node shape, scale-up and NICs; the cluster's
// scale-out shape (topology, oversubscription, latency) and host figures for every pool.
ClusterInput poolCluster(const ClusterInput& c, const PoolInput& pool, const Catalog& catalog) {
    ClusterInput ci;
    ci.gpu = pool.gpu;
    if (pool.gpu && pool.gpu->catalogId)
        ci.preset = presetFor(catalog, *pool.gpu->catalogId, c.preset);
    ci.numGpus = pool.numGpus;
    ci.gpusPerNode = pool.gpusPerNode ? pool.gpusPerNode : c.gpusPerNode;
    ci.scaleUp = pool.scaleUp ? pool.scaleUp : c.scaleUp;
    ci.scaleOut = c.scaleOut;
    if (pool.nicGbitPerS || pool.nicsPerNode) {
        ScaleOutInput out = ci.scaleOut.value_or(ScaleOutInput{});
        if (pool.nicGbitPerS)
            out.nicGbitPerS = pool.nicGbitPerS;
        if (pool.nicsPerNode)
            out.nicsPerNode = pool.nicsPerNode;
        ci.scaleOut = out;
    }
    ci.host = c.host;
    return ci;
}

std::int64_t totalReplicas(const std::vector<PipelineEntryInput>& entries) {
    std::int64_t n = 0; // at most 4096 entries of 10^6: no overflow
    for (const PipelineEntryInput& e : entries)
        n += e.count.value_or(1);
    return n;
}

// Where a view's diagnostic belongs in the pools scenario; "" drops it (the view's own GPU
// count and whole-node warnings are about a cluster that exists only in the view).
std::string mapViewPath(const std::string& path, std::size_t pool, std::size_t e, std::size_t j,
                        const PipelineEntryInput& entry) {
    if (path == "/cluster/num_gpus")
        return "";
    if (path == "/cluster/scale_out/nic_gbit_s")
        return poolPath(pool) + "/nic_gbit_s";
    if (path == "/cluster/scale_out/nics_per_node")
        return poolPath(pool) + "/nics_per_node";
    if (path == "/cluster/gpu" || path == "/cluster/preset")
        return poolPath(pool) + "/gpu";
    for (const char* key : {"/cluster/gpus_per_node", "/cluster/scale_up"})
        if (startsWith(path, key))
            return poolPath(pool) + path.substr(8);
    if (path == "/parallelism/tp")
        return stagePath(e, j) + "/tp";
    if (path == "/parallelism/dp" || path == "/parallelism/pp" || path == "/parallelism")
        return kPipelines;
    if (path == "/training/micro_batch" && entry.microBatch)
        return entryPath(e) + "/micro_batch";
    if (path == "/training/global_batch" || path == "/training/micro_batch")
        return entry.sequences && *entry.sequences ? entryPath(e) + "/sequences" : path;
    return path;
}

struct PoolIndex {
    std::map<std::string, std::size_t> byId;
    bool ok = true;
};

PoolIndex indexPools(const std::vector<PoolInput>& pools, Diagnostics& diags) {
    PoolIndex idx;
    for (std::size_t i = 0; i < pools.size(); ++i) {
        const PoolInput& p = pools[i];
        if (!p.id || !p.gpu || !p.numGpus) {
            idx.ok = false; // reported by the reader
            continue;
        }
        if (!idx.byId.emplace(*p.id, i).second) {
            diags.error(poolPath(i) + "/id",
                        "pool id \"" + *p.id + "\" is used twice: give each pool its own id");
            idx.ok = false;
        }
        if (p.site && *p.site) {
            diags.error(poolPath(i) + "/site",
                        "pool site \"" + **p.site +
                            "\": cluster.sites is not modelled yet; give null (one site)");
            idx.ok = false;
        }
    }
    return idx;
}

std::string poolIds(const PoolIndex& idx) {
    std::string out;
    for (const auto& [id, i] : idx.byId)
        out += (out.empty() ? "" : ", ") + id;
    return out;
}

// The rules of cluster and parallelism keys around the pools; false on an error.
bool checkTopLevel(const Scenario& s, std::int64_t poolGpus, Diagnostics& diags) {
    bool ok = true;
    const ClusterInput& c = s.cluster;
    if (c.gpu) {
        diags.error("/cluster/gpu", "with cluster.pools each pool names its GPU: remove "
                                    "cluster.gpu");
        ok = false;
    }
    if (c.graph && c.graph->is_object()) {
        diags.error("/cluster/graph", "a drawn network graph with cluster.pools is not modelled: "
                                      "remove cluster.graph or the pools");
        ok = false;
    }
    if (c.scaleOut && c.scaleOut->pods && *c.scaleOut->pods > 1) {
        diags.error("/cluster/scale_out/pods",
                    "pods are identical copies of one network and cannot be used with "
                    "cluster.pools: give each site its pools (cluster.sites)");
        ok = false;
    }
    if (c.numGpus && *c.numGpus != poolGpus) {
        diags.error("/cluster/num_gpus", "cluster.num_gpus = " + std::to_string(*c.numGpus) +
                                             " but the pools hold " + std::to_string(poolGpus) +
                                             " GPUs: give their sum or leave num_gpus out");
        ok = false;
    }
    // The spec leaves tp out with pipelines (stages may differ); a tp that every stage states
    // alike (as sailor-dev.json's runs write it) is read as the same plan.
    const ParallelInput p = s.parallelism.value_or(ParallelInput{});
    if (p.tp && p.pipelines) {
        bool alike = true;
        for (const PipelineEntryInput& e : *p.pipelines)
            if (e.stages)
                for (const PipelineStageInput& st : *e.stages)
                    alike = alike && st.tp.value_or(1) == *p.tp;
        if (!alike) {
            diags.error("/parallelism/tp", "with parallelism.pipelines each stage gives its own "
                                           "tp: remove parallelism.tp");
            ok = false;
        }
    }
    return ok;
}

// Pipelines against the pools: names, equal stage counts, sizes, sequences.
bool checkPipelines(const Scenario& s, const PoolIndex& idx,
                    const std::vector<PipelineEntryInput>& entries, Diagnostics& diags) {
    bool ok = true;
    const std::vector<PoolInput>& pools = *s.cluster.pools;
    const ParallelInput p = s.parallelism.value_or(ParallelInput{});
    const int cp = p.cp.value_or(1);
    const std::size_t stages = entries[0].stages ? entries[0].stages->size() : 0;
    std::vector<std::int64_t> taken(pools.size(), 0);
    int stated = 0;
    std::int64_t sequences = 0;
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const PipelineEntryInput& entry = entries[e];
        if (!entry.stages)
            return false; // reported by the reader
        if (entry.stages->size() != stages) {
            diags.error(entryPath(e) + "/stages",
                        "every pipeline has the same number of stages (pp): entry 0 has " +
                            std::to_string(stages) + ", this one " +
                            std::to_string(entry.stages->size()));
            ok = false;
        }
        const int count = entry.count.value_or(1);
        for (std::size_t j = 0; j < entry.stages->size(); ++j) {
            const PipelineStageInput& st = (*entry.stages)[j];
            if (!st.pool)
                return false;
            auto it = idx.byId.find(*st.pool);
            if (it == idx.byId.end()) {
                diags.error(stagePath(e, j) + "/pool",
                            "unknown pool \"" + *st.pool + "\"; the pools are: " + poolIds(idx));
                ok = false;
                continue;
            }
            const std::size_t i = it->second;
            const std::int64_t before = taken[i];
            // Each term is at most 10^18; the sum is kept below 10^12 once past any pool's size,
            // so that 128 stages of hostile counts cannot overflow.
            taken[i] = std::min<std::int64_t>(
                taken[i] + std::int64_t(count) * st.tp.value_or(1) * cp, std::int64_t(1) << 40);
            if (before <= *pools[i].numGpus && taken[i] > *pools[i].numGpus) {
                diags.error(stagePath(e, j) + "/pool",
                            "pool '" + *st.pool + "' has " + std::to_string(*pools[i].numGpus) +
                                " GPUs, the pipelines ask for at least " +
                                std::to_string(taken[i]));
                ok = false;
            }
        }
        if (entry.sequences && *entry.sequences) {
            ++stated;
            sequences += std::int64_t(count) * **entry.sequences;
        }
    }
    const std::int64_t replicas = totalReplicas(entries);
    if (p.pp && std::size_t(*p.pp) != stages) {
        diags.error("/parallelism/pp", "parallelism.pp = " + std::to_string(*p.pp) +
                                           " but each pipeline has " + std::to_string(stages) +
                                           " stages: give the same or leave pp out");
        ok = false;
    }
    if (p.dp && *p.dp && **p.dp != replicas) {
        diags.error("/parallelism/dp", "parallelism.dp = " + std::to_string(**p.dp) +
                                           " but the pipelines' counts sum to " +
                                           std::to_string(replicas) +
                                           ": give the same or leave dp out");
        ok = false;
    }
    const std::int64_t batch = s.training.globalBatch.value_or(0);
    if (stated > 0 && stated < int(entries.size())) {
        diags.error(kPipelines, "give sequences for every pipeline entry or for none (the "
                                "global batch split evenly)");
        ok = false;
    } else if (stated > 0 && sequences != batch) {
        diags.error(kPipelines, "the pipelines' sequences (count x sequences) sum to " +
                                    std::to_string(sequences) +
                                    " but training.global_batch = " + std::to_string(batch));
        ok = false;
    } else if (stated == 0 && batch % replicas != 0) {
        diags.error("/training/global_batch",
                    "global_batch = " + std::to_string(batch) + " does not split evenly over " +
                        std::to_string(replicas) +
                        " replicas: give each pipeline entry its sequences");
        ok = false;
    }
    return ok;
}

// Adds a view's diagnostics at the pools scenario's paths, each once.
void appendViewDiagnostics(const Diagnostics& view, std::size_t pool, std::size_t e, std::size_t j,
                           const PipelineEntryInput& entry,
                           std::set<std::pair<std::string, std::string>>& seen,
                           Diagnostics& diags) {
    for (const Diagnostic& d : view.all()) {
        const std::string path = mapViewPath(d.path, pool, e, j, entry);
        if (path.empty() || !seen.emplace(path, d.message).second)
            continue;
        if (d.severity == Severity::Error)
            diags.error(path, d.message);
        else
            diags.warning(path, d.message);
    }
}

} // namespace

Scenario stageViewInput(const Scenario& s, const Catalog& catalog, int entry, int stage) {
    const std::vector<PipelineEntryInput>& entries = *s.parallelism->pipelines;
    const PipelineEntryInput& e = entries[std::size_t(entry)];
    const PipelineStageInput& st = (*e.stages)[std::size_t(stage)];
    const PoolInput* pool = nullptr;
    for (const PoolInput& p : *s.cluster.pools)
        if (p.id == st.pool)
            pool = &p;
    Scenario v = s;
    v.cluster = poolCluster(s.cluster, *pool, catalog);
    ParallelInput p = *s.parallelism;
    p.pipelines.reset();
    const std::int64_t replicas = totalReplicas(entries);
    const int tp = st.tp.value_or(1);
    const int pp = int(e.stages->size());
    p.tp = tp;
    p.pp = pp;
    p.dp = std::optional<std::int64_t>{replicas};
    v.parallelism = p;
    v.cluster.numGpus = std::int64_t(tp) * pp * p.cp.value_or(1) * replicas;
    const std::int64_t batch = s.training.globalBatch.value_or(replicas);
    const std::int64_t sequences =
        e.sequences && *e.sequences ? **e.sequences : batch / std::max<std::int64_t>(1, replicas);
    v.training.globalBatch = sequences * replicas;
    if (e.microBatch)
        v.training.microBatch = e.microBatch;
    if (pool->gpuHourUsd) {
        CostInput costs = v.costs.value_or(CostInput{});
        costs.gpuHourUsd = pool->gpuHourUsd;
        v.costs = costs;
    }
    return v;
}

Scenario poolUniformInput(const Scenario& s, const Catalog& catalog, std::size_t pool) {
    const PoolInput& p = (*s.cluster.pools)[pool];
    Scenario v = s;
    v.cluster = poolCluster(s.cluster, p, catalog);
    ParallelInput par = s.parallelism.value_or(ParallelInput{});
    par.pipelines.reset();
    par.pipelineLayers.reset();
    v.parallelism = par;
    if (p.gpuHourUsd) {
        CostInput costs = v.costs.value_or(CostInput{});
        costs.gpuHourUsd = p.gpuHourUsd;
        v.costs = costs;
    }
    return v;
}

std::optional<ResolvedScenario> resolvePooledScenario(const Scenario& s, const Catalog& catalog,
                                                      const CalibrationRegistry& calibrations,
                                                      Diagnostics& diags) {
    const std::vector<PoolInput>& pools = *s.cluster.pools;
    PoolIndex idx = indexPools(pools, diags);
    if (!idx.ok)
        return std::nullopt;
    std::int64_t poolGpus = 0;
    for (const PoolInput& p : pools)
        poolGpus += *p.numGpus;
    bool ok = checkTopLevel(s, poolGpus, diags);
    if (!s.parallelism || !s.parallelism->pipelines) {
        diags.error(kPipelines, "with cluster.pools, give parallelism.pipelines: the replicas "
                                "and each stage's pool and tp (or run search to choose them)");
        return std::nullopt;
    }
    const std::vector<PipelineEntryInput>& entries = *s.parallelism->pipelines;
    if (!checkPipelines(s, idx, entries, diags) || !ok)
        return std::nullopt;

    // A calibration profile measured on one GPU holds for the pools of that GPU only.
    std::optional<std::string> profileGpu;
    if (s.calibration && *s.calibration)
        if (auto profile = calibrations.find(**s.calibration))
            profileGpu = profile->gpu;

    HeteroConfig hetero;
    hetero.poolLinkGbitPerS =
        s.cluster.poolLinkGbitPerS ? *s.cluster.poolLinkGbitPerS : std::optional<double>{};
    hetero.pools.resize(pools.size());
    std::vector<char> poolResolved(pools.size(), 0);
    std::set<std::pair<std::string, std::string>> seen;
    std::optional<ResolvedScenario> first;
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const PipelineEntryInput& entry = entries[e];
        PipelineReplicaConfig rep;
        rep.count = entry.count.value_or(1);
        for (std::size_t j = 0; j < entry.stages->size(); ++j) {
            const std::size_t pool = idx.byId.at(*(*entry.stages)[j].pool);
            Scenario view = stageViewInput(s, catalog, int(e), int(j));
            const PoolInput& pin = pools[pool];
            if (profileGpu && !profileGpu->empty() && pin.gpu && pin.gpu->catalogId &&
                *pin.gpu->catalogId != *profileGpu)
                view.calibration = std::optional<std::string>{};
            Diagnostics viewDiags;
            std::optional<ResolvedScenario> r =
                resolveScenario(view, catalog, calibrations, viewDiags);
            appendViewDiagnostics(viewDiags, pool, e, j, entry, seen, diags);
            if (!r) {
                ok = false;
                continue;
            }
            if (!poolResolved[pool]) {
                ResolvedPool& rp = hetero.pools[pool];
                rp.id = *pin.id;
                rp.cluster = r->cluster;
                rp.cluster.numGpus = *pin.numGpus;
                rp.gpuHourUsd = r->costs.gpuHourUsd;
                poolResolved[pool] = 1;
            }
            rep.stages.push_back({int(pool), r->parallel.tp});
            rep.microBatch = r->training.microBatch;
            rep.sequences = r->training.globalBatch / std::max<std::int64_t>(1, r->parallel.dp);
            rep.sequencesStated = entry.sequences && *entry.sequences;
            hetero.views.push_back(std::move(*r));
            if (!first)
                first = hetero.views.back();
        }
        hetero.pipelines.push_back(std::move(rep));
    }
    // Pools no stage uses: their cluster alone (GPU, network), for the per-pool report.
    for (std::size_t i = 0; i < pools.size() && ok; ++i) {
        if (poolResolved[i])
            continue;
        Scenario view = s;
        view.cluster = poolCluster(s.cluster, pools[i], catalog);
        ParallelInput p;
        p.dp = std::optional<std::int64_t>{};
        view.parallelism = p;
        view.training.globalBatch = *pools[i].numGpus;
        view.training.microBatch = 1;
        view.finetune.reset();
        view.execution.reset();
        view.calibration.reset();
        Diagnostics viewDiags;
        std::optional<ResolvedScenario> r = resolveScenario(view, catalog, calibrations, viewDiags);
        for (const Diagnostic& d : viewDiags.errors())
            if (startsWith(d.path, "/cluster")) {
                diags.error(mapViewPath(d.path, i, 0, 0, entries[0]), d.message);
                ok = false;
            }
        if (r) {
            hetero.pools[i] = {*pools[i].id, r->cluster, r->costs.gpuHourUsd, std::nullopt};
            hetero.pools[i].cluster.numGpus = *pools[i].numGpus;
        }
    }
    if (!ok || !first)
        return std::nullopt;
    ResolvedScenario out = *first;
    out.training.globalBatch = s.training.globalBatch.value_or(out.training.globalBatch);
    out.cluster.numGpus = poolGpus;
    out.parallel.dp = hetero.replicas();
    out.parallel.dpShard =
        out.parallel.dpShard == first->parallel.dp ? out.parallel.dp : out.parallel.dpShard;
    out.hetero = std::move(hetero);
    return out;
}

} // namespace ts
