#include "estimate/DataParallelCost.h"

#include "estimate/LayerCost.h"

#include <algorithm>

namespace ts {

std::int64_t shardDegree(const ParallelConfig& plan) {
    const std::int64_t dp = std::max<std::int64_t>(1, plan.dp);
    if (plan.dpShard < 1 || plan.dpShard > dp || dp % plan.dpShard != 0)
        return dp;
    return plan.dpShard;
}

DataParallelGroups dataParallelGroups(const ParallelConfig& plan, const GroupStrides& strides) {
    DataParallelGroups g;
    const std::int64_t cp = std::max(1, plan.cp);
    const std::int64_t shard = shardDegree(plan);
    g.dpCp = std::max<std::int64_t>(1, plan.dp) * cp;
    g.shardRanks = shard * cp;
    g.replicas = g.dpCp / g.shardRanks;
    // CP is the faster of the two dimensions (stride tp), so dp x cp and dp_shard x cp ranks
    // are consecutive runs with stride tp; the replicas of a shard lie dp_shard x cp x tp apart.
    g.all = {static_cast<int>(g.dpCp), strides.cp};
    g.shard = {static_cast<int>(g.shardRanks), strides.cp};
    g.replicate = {static_cast<int>(g.replicas), strides.dp * shard};
    return g;
}

ShardedChunkComm zero3ChunkComm(const CollectiveCost& collectives, const DataParallelGroups& g,
                                double params, double weightBytes, double gradientBytes,
                                int units) {
    ShardedChunkComm c;
    const double n = std::max(1, units);
    addCollective(c.gather,
                  collectives.cost(Collective::AllGather, params * weightBytes / n, g.shard), n);
    addCollective(c.reduceScatter,
                  collectives.cost(Collective::ReduceScatter, params * gradientBytes / n, g.shard),
                  n);
    return c;
}

GradientSync gradientSync(const CollectiveCost& collectives, const DataParallelGroups& g, int zero,
                          double params, double weightBytes, double gradientBytes) {
    GradientSync s;
    const double gradients = params * gradientBytes;
    if (zero == 0) {
        s.reduce = collectives.cost(Collective::AllReduce, gradients, g.all);
        return s;
    }
    if (zero < 3)
        s.reduce = collectives.cost(Collective::ReduceScatter, gradients, g.shard);
    if (g.hybrid()) {
        // The gradient shard, 1/(dp_shard x cp) of the buffer, averaged across the replicas
        // (Zhao et al. 2023 sec. 3.2.2: reduce-scatter within, all-reduce across the groups).
        addCollective(s.reduce, collectives.cost(Collective::AllReduce,
                                                 gradients / double(g.shardRanks), g.replicate));
    }
    if (zero < 3)
        s.gather = collectives.cost(Collective::AllGather, params * weightBytes, g.shard);
    return s;
}

} // namespace ts
