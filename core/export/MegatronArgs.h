#pragma once
// A resolved plan as Megatron-LM pretrain_gpt.py flags (NVIDIA/Megatron-LM tag core_v0.15.0,
// megatron/training/arguments.py), grouped as in examples/gpt3/train_gpt3_175b_distributed.sh.
// Shared by the megatron, slurm and k8s targets. What Megatron-LM cannot express is refused
// with the scenario field.

#include "export/Exporter.h"
#include "export/ShellScript.h"

#include <vector>

namespace ts {

struct LaunchShape;

struct MegatronArgs {
    std::vector<CliArg> model;    // GPT_MODEL_ARGS
    std::vector<CliArg> training; // TRAINING_ARGS (batch, precision, optimizer, recompute)
    std::vector<CliArg> parallel; // MODEL_PARALLEL_ARGS
    std::vector<CliArg> data;     // DATA_ARGS
};

// The values "$TRAIN_ITERS", "$LR" (and "$PRETRAINED_CHECKPOINT") are variables the caller defines
// (megatronVariables for a script, container env for Kubernetes). Data: --mock-data unless
// options.dataPath is set.
MegatronArgs megatronArgs(const ResolvedScenario& plan, const LaunchShape& shape,
                          const ExportOptions& options, std::vector<ExportRefusal>& refusals);

// Defines TRAIN_ITERS, LR and MEGATRON_LM (each overridable from the environment), and for a
// fine-tuning plan PRETRAINED_CHECKPOINT (--pretrained-checkpoint).
void megatronVariables(ShellScript& script, const LaunchShape& shape, const ExportOptions& options,
                       bool fineTuning);
inline constexpr const char* kPretrainedCheckpoint = "/checkpoints/pretrained";

// Whether Megatron-LM runs the plan with Megatron-FSDP (ZeRO 2 and 3: --use-megatron-fsdp).
inline bool megatronFsdp(const ResolvedScenario& plan) {
    return plan.parallel.zero >= 2;
}

// The flags of the wave-3 model keys (MegatronModelArgs.cpp): --window-size and
// --window-attn-skip-freq, --softmax-type learnable, the bias flags, the clamped quick-GeGLU;
// refusals where core_v0.15.0 cannot state the model.
void megatronModelKeyArgs(const ResolvedScenario& plan, std::vector<CliArg>& args,
                          std::vector<ExportRefusal>& refusals);

// Every flag of `args` in order, as one list (for torchrun under Slurm or Kubernetes).
std::vector<CliArg> allArgs(const MegatronArgs& args);

} // namespace ts
