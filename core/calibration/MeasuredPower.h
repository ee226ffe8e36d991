#pragma once
// GPU board power measured by tools/calibrate (power_sampler.py at 10 Hz during the steps of
// run_all.sh): the calibration profile's "power" section, and how a scenario that selects the
// profile uses it in place of the energy model's assumed idle power and phase fractions
// (scenario/CostConfig.h, kDefaultGpuPowerFractions: "no sourced training power").

#include "common/Diagnostics.h"
#include "scenario/CostConfig.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ts {

struct CostInput;

// The board power sampled while one kind of work ran.
struct PhasePower {
    double watts = 0;               // mean of the samples
    std::optional<double> maxWatts; // largest sample
    std::int64_t samples = 0;
    bool operator==(const PhasePower&) const = default;
};

// run_all.sh's phases: nothing on the GPU (idle), the HBM copy (memory-bound), the GEMM sweep
// (compute-bound), NCCL collectives (communicating; needs more than one GPU), the attention
// sweep and the end-to-end training steps (reference figures, not used by the energy model).
struct MeasuredPower {
    std::string how; // sampler, rate and steps, in one line
    std::optional<PhasePower> idle;
    std::optional<PhasePower> memoryBound;
    std::optional<PhasePower> computeBound;
    std::optional<PhasePower> communicating;
    std::optional<PhasePower> attention;
    std::optional<PhasePower> training;
    bool operator==(const MeasuredPower&) const = default;
};

// Every phase with its name in the profile's "power.phases" (ProfileJson.cpp reads and
// writes these names only; tools/calibrate/make_profile.py writes them).
struct PowerPhaseField {
    const char* name;
    std::optional<PhasePower> MeasuredPower::*member;
};
inline constexpr PowerPhaseField kPowerPhases[] = {{"idle", &MeasuredPower::idle},
                                                   {"memory_bound", &MeasuredPower::memoryBound},
                                                   {"compute_bound", &MeasuredPower::computeBound},
                                                   {"communicating", &MeasuredPower::communicating},
                                                   {"attention", &MeasuredPower::attention},
                                                   {"training", &MeasuredPower::training}};

// How many phases were measured (0 without a power section).
int measuredPhaseCount(const std::optional<MeasuredPower>& power);

// Where the scenario's costs section sets neither, the measured idle watts become the GPU's
// idle power and each measured phase its fraction (W - idle) / (TDP - idle) of the power model
// (energy/PowerModel.h: P = idle + fraction x (TDP - idle), so the model draws the measured
// watts). The assumptions they replace leave costs.assumptions; one note names the profile and
// the watts. A phase measured below idle is left as it was, with a warning at /calibration.
void applyMeasuredPower(const MeasuredPower& power, const std::string& profileId,
                        const std::optional<CostInput>& input, double tdpW, CostConfig& costs,
                        Diagnostics& diags);

} // namespace ts
