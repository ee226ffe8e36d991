#pragma once
// What the estimator can model of a resolved plan, and the pipeline layout it implies.

#include "common/Diagnostics.h"
#include "scenario/ResolvedScenario.h"

#include <cstdint>
#include <vector>

namespace ts {

// Adds a "not modelled yet: ..." error (with the JSON path of the cause) for every feature
// outside the estimator's scope, and an error for a plan the estimator cannot cost as given
// (offload without the ZeRO stage or the host figures it needs). Returns true when the plan
// can be estimated.
bool checkPlanSupported(const ResolvedScenario& scenario, Diagnostics& diags);

// The effective schedule: interleaving whenever a rank holds more than one chunk.
PipelineScheduleKind effectiveSchedule(const ParallelConfig& plan);

// Layers of every pipeline chunk, [stage * vpp + chunk]. Chunk order in
// ParallelConfig::pipelineLayers is the order a micro-batch visits them: chunk c of stage s
// is entry c * pp + s (Megatron's interleaved assignment), or with ZB-V entry s for chunk 0
// and 2 pp - 1 - s for chunk 1 (parallel/PipelineSchedule.h chunkModelIndex).
struct PipelineLayout {
    int stages = 1;
    int chunks = 1;
    std::vector<int> layers;      // [stage * chunks + chunk]
    std::vector<int> stageLayers; // [stage]
    std::int64_t microbatches = 1;
    int layersOf(int stage, int chunk) const { return layers[stage * chunks + chunk]; }
};
PipelineLayout pipelineLayout(const ResolvedScenario& scenario);

// Ranks are ordered tensor-parallel fastest, then context, data, pipeline (Megatron-LM
// parallel_state.py default order "tp-cp-ep-dp-pp"): the strides of each group.
struct GroupStrides {
    long long tp = 1, cp = 1, dp = 1, pp = 1;
};
GroupStrides groupStrides(const ParallelConfig& plan);

} // namespace ts
