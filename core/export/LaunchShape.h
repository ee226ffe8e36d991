#pragma once
// The numbers every launcher needs, derived once from a resolved plan, with the invariants
// of shared/reference/launchers.md C7:
//   world = nodes x gpus_per_node = DP x TP x PP x CP
//   global_batch = micro_batch x grad_accum x DP
// and the MoE decomposition world % (ETP x EP x PP) == 0 (Megatron-Core parallel_state.py).

#include "export/Exporter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct LaunchShape {
    std::int64_t world = 0;
    std::int64_t nodes = 0;
    std::int64_t gpusPerNode = 0; // processes per node (torchrun --nproc-per-node)
    std::int64_t dp = 0;
    std::int64_t gradAccum = 0;  // micro-batches per step per DP rank
    std::int64_t expertDp = 0;   // world / (ETP x EP x PP), 0 without MoE
    std::int64_t trainIters = 0; // from training.tokens; 0 when unknown
};

// What fine-tuning a target runs: none (a DeepSpeed config cannot say which weights its
// script loads), full (Megatron-LM --finetune --pretrained-checkpoint, torchtitan
// checkpoint.initial_load_path), or full and LoRA on a 16-bit base (Megatron-Bridge's sft and
// peft recipes), or every method with the target's own optimizer and precision rules
// (torchtune's full, LoRA and QLoRA recipes: export/TorchtuneRecipe.h).
enum class FineTuning { None, Full, FullAndLora, Torchtune };

// Refuses (into `refusals`) a plan whose GPUs do not fill whole nodes or that breaks C7, and a
// fine-tuning plan the target's FineTuning does not run.
LaunchShape launchShape(const ResolvedScenario& plan, std::vector<ExportRefusal>& refusals,
                        FineTuning fineTuning = FineTuning::None);

// A job name for schedulers and Kubernetes (RFC 1123 label: [a-z0-9-], at most 63).
std::string jobName(const ResolvedScenario& plan, const ExportOptions& options);

// The plan's world and batch arithmetic in two lines, for a file's header comment.
std::vector<std::string> planSummary(const ResolvedScenario& plan, const LaunchShape& shape);

// Integer text; numbers in launch files are always integers or short decimals.
std::string num(std::int64_t value);
std::string num(double value);

} // namespace ts
