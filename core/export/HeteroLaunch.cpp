#include "export/HeteroLaunch.h"

#include <set>

namespace ts {

std::optional<HeteroLaunch> megatronHeteroLaunch(const ResolvedScenario& plan,
                                                 std::vector<ExportRefusal>& refusals) {
    const HeteroConfig& h = *plan.hetero;
    const std::size_t before = refusals.size();
    std::set<int> tps, gpn;
    std::set<std::int64_t> micro;
    bool stated = false;
    for (const PipelineReplicaConfig& rep : h.pipelines) {
        micro.insert(rep.microBatch);
        stated = stated || rep.sequencesStated;
        for (const PipelineStageConfig& st : rep.stages) {
            tps.insert(st.tp);
            gpn.insert(h.pools[std::size_t(st.pool)].cluster.gpusPerNode);
        }
    }
    if (tps.size() > 1)
        refusals.push_back({"/parallelism/pipelines",
                            "Megatron-LM builds every tensor-parallel group from one "
                            "--tensor-model-parallel-size: give every stage the same tp"});
    if (micro.size() > 1)
        refusals.push_back({"/parallelism/pipelines",
                            "Megatron-LM runs one --micro-batch-size: give every pipeline the "
                            "same micro_batch"});
    if (stated) {
        const std::int64_t even = plan.training.globalBatch / std::max(1, h.replicas());
        for (const PipelineReplicaConfig& rep : h.pipelines)
            if (rep.sequences != even) {
                refusals.push_back({"/parallelism/pipelines",
                                    "Megatron-LM splits --global-batch-size evenly over the "
                                    "data-parallel replicas: remove the unequal sequences"});
                break;
            }
    }
    if (gpn.size() > 1)
        refusals.push_back({"/cluster/pools",
                            "torchrun starts --nproc_per_node processes on every node: the "
                            "pools' gpus_per_node differ"});
    if (refusals.size() > before)
        return std::nullopt;
    const int tp = *tps.begin(), cp = plan.parallel.cp, pp = int(h.pipelines[0].stages.size());
    const int perNode = *gpn.begin();
    const std::int64_t replicas = h.replicas();
    const std::int64_t block = std::int64_t(tp) * cp * replicas; // ranks of one stage
    const std::int64_t world = block * pp;
    if (world % perNode != 0) {
        refusals.push_back({"/parallelism/pipelines", "the plan's " + std::to_string(world) +
                                                          " GPUs do not fill whole nodes of " +
                                                          std::to_string(perNode)});
        return std::nullopt;
    }
    // The pool of every rank, then of every node.
    std::vector<int> replicaEntry;
    for (std::size_t e = 0; e < h.pipelines.size(); ++e)
        for (int c = 0; c < h.pipelines[e].count; ++c)
            replicaEntry.push_back(int(e));
    std::vector<int> nodePool(std::size_t(world / perNode), -1);
    for (std::int64_t r = 0; r < world; ++r) {
        const std::int64_t stage = r / block;
        const std::int64_t dpRank = (r % block) / (std::int64_t(tp) * cp);
        const int pool = h.pipelines[std::size_t(replicaEntry[std::size_t(dpRank)])]
                             .stages[std::size_t(stage)]
                             .pool;
        int& node = nodePool[std::size_t(r / perNode)];
        if (node >= 0 && node != pool) {
            refusals.push_back({"/parallelism/pipelines",
                                "node " + std::to_string(r / perNode) +
                                    " would hold ranks of two pools in Megatron-LM's rank order "
                                    "(tp-cp-dp-pp): make each stage's replicas on one pool a "
                                    "whole number of nodes"});
            return std::nullopt;
        }
        node = pool;
    }
    HeteroLaunch out;
    out.view = h.view(0, 0);
    out.view.name = plan.name;
    out.view.cluster.numGpus = world;
    out.view.parallel.dp = replicas;
    out.view.parallel.dpShard = replicas;
    out.view.training.globalBatch = plan.training.globalBatch;
    out.view.parallel.pipelineLayers = plan.parallel.pipelineLayers;
    out.view.hetero.reset();
    std::size_t n = 0;
    while (n < nodePool.size()) {
        std::size_t end = n;
        while (end + 1 < nodePool.size() && nodePool[end + 1] == nodePool[n])
            ++end;
        const ResolvedPool& p = h.pools[std::size_t(nodePool[n])];
        out.placement.push_back(
            "NODE_RANK " + std::to_string(n) +
            (end > n ? "-" + std::to_string(end) : std::string()) + ": pool " + p.id + " (" +
            (p.cluster.gpuId.empty() ? p.cluster.gpu.name : p.cluster.gpuId) + ")");
        n = end + 1;
    }
    return out;
}

} // namespace ts
