#pragma once
// A scenario with presets resolved and defaults applied: what the estimator consumes.
// Produced only by resolveScenario(), which guarantees the consistency rules of the
// format (degrees multiply to the GPU count, divisibility, ranges).

#include "scenario/ClusterConfig.h"
#include "scenario/FinetuneConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"

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
    std::optional<FinetuneConfig> finetune; // nullopt: pre-training (every weight trained)
    std::optional<std::string> calibration;
    // The selected profile (from the registry the resolver was given); compared by identity.
    std::shared_ptr<const CalibrationProfile> calibrationProfile;
    bool operator==(const ResolvedScenario&) const = default;
};

} // namespace ts
