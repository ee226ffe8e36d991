#pragma once
// Power of the cluster through one optimizer step: each GPU by phase (compute-bound,
// memory-bound, communicating, idle), between its idle power and its TDP; hosts and the
// scale-out network at a constant draw; the facility's PUE on top, applied once.

#include "energy/EnergyReport.h"
#include "estimate/Estimate.h"
#include "scenario/CostConfig.h"

#include <cstdint>
#include <vector>

namespace ts {

struct ClusterPower {
    double gpuTdpW = 0;
    double gpuIdleW = 0;
    GpuPowerFractions fractions = kDefaultGpuPowerFractions;
    std::int64_t numGpus = 0;
    int gpusPerNode = 8;
    int pipelineStages = 1;
    double hostWPerNode = 0;
    double networkW = 0; // the whole scale-out network outside the nodes
    double pue = 1;

    PhaseWatts gpuWatts() const;
    double nodes() const { return double(numGpus) / gpusPerNode; }
    double gpusPerStage() const { return double(numGpus) / pipelineStages; }
    // Constant IT draw besides the GPUs: hosts and network.
    double baseItW() const { return hostWPerNode * nodes() + networkW; }
    // IT power of one node with all its GPUs compute-bound.
    double peakNodeW() const;
};

// Seconds per phase for one GPU of each pipeline stage. The deciding stage's breakdown is
// exact (Estimate::time); the other stages do the same kinds of work in proportion to their
// busy time (StageTime::busySeconds), and idle for the rest of the step.
std::vector<PhaseSeconds> stagePhaseSeconds(const Estimate& estimate);

double gpuJoules(const PhaseSeconds& phases, const PhaseWatts& watts);

// Energy of one step: every stage's GPUs through their phases, hosts and network for the
// whole step, cooling as (PUE - 1) x IT.
EnergyBreakdown stepEnergy(const ClusterPower& power, const std::vector<PhaseSeconds>& stages,
                           double stepSeconds);

// Facility power over one step, from the schedule's timeline: each stage runs at its
// active power during its operations (and its gradient reduction and optimizer step after
// them), at idle power otherwise. The active power is the stage's phase energy spread over
// those intervals, so that the trace integrates to stepEnergy's total.
struct PowerTrace {
    std::vector<PowerSample> samples;
    double endS = 0;
    bool coversStep = false;
};
PowerTrace stepPowerTrace(const ClusterPower& power, const std::vector<PhaseSeconds>& stages,
                          const Estimate& estimate);

// Joules under a piecewise-constant trace from its first sample to `endS`.
double integrateTrace(const std::vector<PowerSample>& samples, double endS);

} // namespace ts
