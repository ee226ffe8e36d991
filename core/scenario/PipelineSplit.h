#pragma once
// parallelism.pipeline_layers: the transformer layers of each pipeline chunk, given or split
// as evenly as possible, with the embedding and the loss optionally counted as one layer's
// slot each (Megatron-LM --account-for-embedding-in-pipeline-split and
// --account-for-loss-in-pipeline-split).

#include "common/Diagnostics.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"
#include "scenario/Scenario.h"

namespace ts {

// Reads p.pp and p.vpp; sets p.pipelineLayers (pp*vpp entries, transformer layers only; a
// chunk may hold none) and the two split flags. Returns false after reporting an error.
//
// Default split: layers plus one slot for the embedding and one for the loss (each when its
// flag is set) are spread over the pp*vpp chunks as evenly as possible, the first chunks
// taking one more; the first chunk then gives its slot to the embedding and the last its
// slot to the loss. With both, 126 layers fill 128 chunks, the first and last holding no
// transformer layer (DeepSeek-V3-style layouts in Megatron-Bridge). Given counts are used
// as they are: they already say where the layers go.
bool resolvePipelineLayers(const ParallelInput& in, const ModelConfig& model, ParallelConfig& p,
                           Diagnostics& diags);

} // namespace ts
