#pragma once
// The "execution" section of a scenario (scenario/ExecutionConfig.h): reading with errors
// that name the JSON path, writing back exactly what was read, and resolution against the
// model and the plan.

#include "common/JsonObjectReader.h"
#include "scenario/ExecutionConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"

#include <optional>

namespace ts {

// Reads the object at `reader` (path "/execution"); unknown keys are refused by finish().
ExecutionInput readExecution(JsonObjectReader& reader);
Json executionToJson(const ExecutionInput& in);

// Applies the format's defaults and checks the keys against the model and the plan: errors
// (false) for what cannot run (recompute_modules without selective recompute, a module
// named twice, fp8_attention without an FP8 precision), warnings for keys that have no
// effect on this model (MoE keys on a dense model, a module the model lacks).
bool resolveExecution(const std::optional<ExecutionInput>& in, const ModelConfig& model,
                      const TrainingConfig& training, const ParallelConfig& plan,
                      ExecutionConfig& out, Diagnostics& diags);

// The resolved section as written out (`--resolved`, the editors' effective values): the
// MoE keys only for a MoE model, recompute_modules only with selective recompute,
// fp8_attention only with an FP8 precision.
ExecutionInput explicitExecution(const ExecutionConfig& e, const ModelConfig& model,
                                 const TrainingConfig& training, const ParallelConfig& plan);

} // namespace ts
