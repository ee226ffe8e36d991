#pragma once
// A scenario with presets resolved and defaults applied: what the estimator consumes.
// Produced only by resolveScenario(), which guarantees the consistency rules of the
// format (degrees multiply to the GPU count, divisibility, ranges).

#include "scenario/ClusterConfig.h"
#include "scenario/ExecutionConfig.h"
#include "scenario/FinetuneConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"
#include "scenario/PoolConfig.h"

#include <memory>
#include <optional>
#include <string>

namespace ts {

struct CalibrationProfile; // calibration/CalibrationProfile.h

struct ResolvedScenario {
    std::string name;
    std::string modelPreset;   // "" when none
    std::string clusterPreset; // "" when none
    ModelConfig model;
    ClusterConfig cluster;
    TrainingConfig training;
    ParallelConfig parallel;
    CostConfig costs;
    ExecutionConfig execution;
    std::optional<FinetuneConfig> finetune; // nullopt: pre-training (every weight trained)
    // cluster.pools and parallelism.pipelines (heterogeneous clusters); nullopt: one uniform
    // cluster. With pools, `cluster` is the first pool's with numGpus the pools' sum, and
    // `parallel` holds the plan keys shared by every stage (tp: the first stage's; dp: the
    // replicas; pp: the stages per pipeline).
    std::optional<HeteroConfig> hetero;
    std::optional<std::string> calibration;
    // The selected profile (from the registry the resolver was given); compared by identity.
    std::shared_ptr<const CalibrationProfile> calibrationProfile;
    bool operator==(const ResolvedScenario&) const = default;
};

inline const ResolvedScenario& HeteroConfig::view(std::size_t entry, std::size_t stage) const {
    return views[entry * pipelines[0].stages.size() + stage];
}

} // namespace ts
