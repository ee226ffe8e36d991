#pragma once
// A plan over cluster.pools as Megatron-LM runs it (docs/heterogeneous.md, "Export"): one
// --tensor-model-parallel-size for every stage, the global batch split evenly over the
// replicas, the layer split through --pipeline-model-parallel-layout, and each node started
// (NODE_RANK) on the pool its ranks' stage sits on. Megatron-LM's rank order puts pipeline
// stage j on ranks [j B, (j + 1) B) with B = tp x cp x dp (megatron/core/parallel_state.py,
// RankGenerator order "tp-cp-ep-dp-pp" at core_v0.15.0), so whole nodes map to stages.

#include "export/Exporter.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct HeteroLaunch {
    ResolvedScenario view;              // the uniform plan Megatron-LM is launched with
    std::vector<std::string> placement; // "NODE_RANK 0-7: pool h100 (h100-sxm-80gb)"
};

// Nullopt, with refusals naming /parallelism/pipelines (or /cluster/pools), when Megatron-LM
// cannot run the plan as written.
std::optional<HeteroLaunch> megatronHeteroLaunch(const ResolvedScenario& plan,
                                                 std::vector<ExportRefusal>& refusals);

} // namespace ts
