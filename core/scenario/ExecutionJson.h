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

// The kernel stack of a scenario that does not name one (execution.framework null): PyTorch
// modules where only a PyTorch-native loop runs the plan, else Megatron-LM's.
// - States in the training precision (training.master_weights false): torchtune, and a
//   Hugging Face model loaded in bf16; Megatron-LM always keeps FP32 main gradients and
//   masters (arguments.py).
// - torch.compile (training.compile): torchtitan and torchtune compile each block; Megatron
//   fuses by hand (Transformer Engine).
// - Gradients or parameters sharded (ZeRO 2 or 3): FSDP2 (torchtitan, torchtune) or
//   DeepSpeed ZeRO-2/3 on PyTorch modules. Megatron-LM's distributed optimizer shards the
//   optimizer states only (ZeRO 1; docs/source/api-guide/dist_optimizer.md); its own FSDP
//   (Megatron-FSDP, --use-megatron-fsdp) keeps Transformer Engine's kernels, and is written
//   framework "megatron".
// Resolved once per scenario: a plan search that varies ZeRO keeps the base's stack.
Framework inferFramework(const TrainingConfig& training, const ParallelConfig& plan);

// The cross entropy of a scenario that does not name one (execution.cross_entropy null), by
// its kernel stack: Megatron-LM's fused vocab-parallel cross entropy (TE / Megatron-Core
// cross_entropy_loss_fusion, the recipes' default); PyTorch modules with FP32 masters run
// torchtitan's F.cross_entropy on the upcast logits (torchtitan/components/loss.py);
// without them, torchtune's CEWithChunkedOutputLoss, the loss of its configs since v0.3
// (recipes/configs/llama3_1/8B_lora_single_device.yaml at 30b8519e8).
CrossEntropy inferCrossEntropy(Framework framework, const TrainingConfig& training);

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
