#pragma once
// A plan as a Megatron-Bridge v0.6.0 scripts/training/run_recipe.py launch: the recipe it
// loads (--model / --mode) and the Hydra overrides of every plan setting. The bridge target
// writes it as a script; slurm and k8s run it for a LoRA plan, which Megatron-LM's
// pretrain_gpt.py cannot train (Megatron-Bridge is Megatron-Core's fine-tuning entry point).

#include "export/Exporter.h"
#include "export/ShellScript.h"

#include <string>
#include <vector>

namespace ts {

struct LaunchShape;

struct BridgeRecipe {
    std::vector<std::string> program;   // "--model", stem, "--mode", mode [, "--dataset", "mock"]
    std::vector<std::string> overrides; // "key=value"; "$NAME" values are variables to define
    std::string checkpoint;             // PRETRAINED_CHECKPOINT's default; empty: pre-training
};

// Refuses (into `refusals`) what Megatron-Core or the recipes cannot run.
BridgeRecipe bridgeRecipe(const ResolvedScenario& plan, const LaunchShape& shape,
                          const ExportOptions& options, std::vector<ExportRefusal>& refusals);

// TRAIN_ITERS, LR, MEGATRON_BRIDGE and, fine-tuning, PRETRAINED_CHECKPOINT (each overridable).
void bridgeVariables(ShellScript& s, const LaunchShape& shape, const ExportOptions& options,
                     const BridgeRecipe& recipe);

// The overrides as shell words: "key=${VAR}" double-quoted, others quoted as needed.
std::vector<CliArg> shellOverrides(const BridgeRecipe& recipe);

} // namespace ts
