#pragma once
// Heterogeneous clusters (shared/spec/scenario-format.md, "Heterogeneous clusters"): pools of
// unlike GPUs in one job, and the data-parallel replicas (pipelines) whose stages each sit on
// one pool. Resolved by scenario/PoolResolver.h; estimated by core/hetero.

#include "scenario/ClusterConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

struct ResolvedScenario; // scenario/ResolvedScenario.h

// One pool, resolved: a homogeneous cluster of its own (GPU, node shape, scale-up domain,
// scale-out NICs) and its price.
struct ResolvedPool {
    std::string id;
    ClusterConfig cluster;            // numGpus: the pool's GPUs
    std::optional<double> gpuHourUsd; // the pool's price; nullopt = the catalog's, then costs'
    std::optional<std::string> site;  // cluster.sites id; nullopt = the one site
    bool operator==(const ResolvedPool&) const = default;
};

struct PipelineStageConfig {
    int pool = 0; // index into HeteroConfig::pools
    int tp = 1;
    bool operator==(const PipelineStageConfig&) const = default;
};

// One entry of parallelism.pipelines: `count` identical data-parallel replicas.
struct PipelineReplicaConfig {
    int count = 1;
    std::vector<PipelineStageConfig> stages;
    std::int64_t microBatch = 1;
    std::int64_t sequences = 0; // per replica per step (resolved: the even split when unstated)
    bool sequencesStated = false;
    bool operator==(const PipelineReplicaConfig&) const = default;
};

struct HeteroConfig {
    std::vector<ResolvedPool> pools;
    // Per node, between pools whose networks are not one fabric; nullopt = the pools share the
    // scale-out network.
    std::optional<double> poolLinkGbitPerS;
    // Empty when search is to choose them (a scenario with pools and no pipelines).
    std::vector<PipelineReplicaConfig> pipelines;
    // Stage views (scenario/PoolResolver.h), [entry * pp + stage]: the homogeneous scenario each
    // stage runs as, resolved.
    std::vector<ResolvedScenario> views;
    bool operator==(const HeteroConfig&) const = default;
    const ResolvedScenario& view(std::size_t entry, std::size_t stage) const;

    int replicas() const {
        int n = 0;
        for (const PipelineReplicaConfig& p : pipelines)
            n += p.count;
        return n;
    }
    // GPUs the pipelines take from pool `pool` (each stage holds tp x cp GPUs).
    std::int64_t gpusTaken(int pool, int cp) const {
        std::int64_t n = 0;
        for (const PipelineReplicaConfig& p : pipelines)
            for (const PipelineStageConfig& s : p.stages)
                if (s.pool == pool)
                    n += std::int64_t(p.count) * s.tp * cp;
        return n;
    }
};

} // namespace ts
