#pragma once
// Data parallelism with ZeRO / FSDP sharding, full or hybrid: who holds which shard of the
// model states, and the collectives that keep the replicas in step.
//
// Full sharding (ZeRO, Rajbhandari et al. 2020; Megatron's distributed optimizer; FSDP
// FULL_SHARD) shards the states over all dp x cp ranks that hold the same weights (CP ranks
// hold the same weights: Megatron-Core's dp-cp group, torchtitan's dp_shard_cp mesh).
//
// Hybrid sharding (parallelism.dp_shard < dp: PyTorch FSDP HYBRID_SHARD, Zhao et al. 2023,
// "PyTorch FSDP", VLDB, arXiv 2304.11277, sec. 3.2.2; torchtitan dp_shard x dp_replicate;
// DeepSpeed MiCS, Zhang et al. 2022, arXiv 2205.00119) shards them over groups of dp_shard x cp
// consecutive ranks and replicates each shard across the dp / dp_shard groups. With the rank
// order tensor, context, data, pipeline (parallel/PlanSupport.h groupStrides) a shard group is
// dp_shard x cp neighbouring DP ranks, usually inside a node or a few nodes, and the replicas
// of a shard sit one shard group apart. The sharded collectives (ZeRO-3 gathers and
// reduce-scatters, ZeRO-1/2 gradient reduce-scatter and weight all-gather) run inside a shard
// group; the gradient shards are then all-reduced across the replicas once per step.

#include "parallel/CollectiveCost.h"
#include "parallel/PlanSupport.h"
#include "scenario/PlanConfig.h"

#include <cstdint>

namespace ts {

// The data-parallel ranks one ZeRO shard spans: parallelism.dp_shard (resolved; equals dp
// unless set). A value that does not divide dp (a plan built by hand, not resolved) means dp.
std::int64_t shardDegree(const ParallelConfig& plan);

struct DataParallelGroups {
    std::int64_t dpCp = 1;       // ranks holding the same dense weights: dp x cp
    std::int64_t shardRanks = 1; // one shard group: dp_shard x cp (ZeRO divides states by it)
    std::int64_t replicas = 1;   // shard groups, dp / dp_shard
    GroupPlacement all;          // every dp x cp rank
    GroupPlacement shard;        // one shard group (consecutive DP ranks)
    GroupPlacement replicate;    // one shard's replicas, a shard group apart
    bool hybrid() const { return replicas > 1; }
};
DataParallelGroups dataParallelGroups(const ParallelConfig& plan, const GroupStrides& strides);

// ZeRO-3 / FSDP, per chunk and micro-batch: the all-gather of the chunk's weights (run
// before its forward and again before its backward) and the reduce-scatter of its gradients
// after the backward, over the shard group (PyTorch FSDP default with gradient accumulation).
// The weights are gathered one transformer layer at a time (`units` collectives of
// params / units each: FSDP2 wraps each block, torchtitan apply_fsdp; DeepSpeed ZeRO-3 fetches
// per submodule), so every layer pays the collective's latency: (n - 1) ring steps, which
// makes ZeRO-3 latency-bound at large data parallelism.
struct ShardedChunkComm {
    CollectiveTime gather;
    CollectiveTime reduceScatter;
};
ShardedChunkComm zero3ChunkComm(const CollectiveCost& collectives, const DataParallelGroups& g,
                                double params, double weightBytes, double gradientBytes,
                                int units = 1);

// Once per step after the last backward, for `params` dense local parameters:
// - zero 0: all-reduce of the gradients over every dp x cp rank;
// - zero 1-2: reduce-scatter in the shard group, with hybrid sharding then an all-reduce of
//   the gradient shard across the replicas; after the optimizer step the all-gather of the
//   updated weights in the shard group (Megatron's distributed optimizer; MiCS sec. 3.3's
//   hierarchical reduction);
// - zero 3: hybrid sharding only, the all-reduce of the gradient shards across the replicas
//   (FSDP HYBRID_SHARD; the reduce-scatters ran per micro-batch).
// `reduce` overlaps with the last backward, `gather` with the next forward.
struct GradientSync {
    CollectiveTime reduce;
    CollectiveTime gather;
};
GradientSync gradientSync(const CollectiveCost& collectives, const DataParallelGroups& g, int zero,
                          double params, double weightBytes, double gradientBytes);

} // namespace ts
