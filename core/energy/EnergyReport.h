#pragma once
// Energy, cost and carbon of one plan, beyond the spec's fields (Estimate::stepJoules, ...):
// the breakdown by consumer, the power of each GPU phase, a power trace of one step for the
// GUI, and what the start hour changes when an hourly grid series is given.

#include <optional>
#include <string>
#include <vector>

namespace ts {

// Joules per optimizer step over the whole cluster, by consumer. Cooling (and the rest of
// the facility's overhead) is (PUE - 1) x the IT energy.
struct EnergyBreakdown {
    double gpus = 0;
    double hosts = 0;
    double network = 0;
    double cooling = 0;
    double it() const { return gpus + hosts + network; }
    double total() const { return it() + cooling; }
};

// Seconds of one step that one GPU spends in each power phase.
struct PhaseSeconds {
    double computeBound = 0;  // matrix multiplies and attention
    double memoryBound = 0;   // elementwise work, the optimizer step
    double communicating = 0; // waiting on exposed communication
    double idle = 0;          // pipeline bubble, waiting for the slowest stage
    double total() const { return computeBound + memoryBound + communicating + idle; }
};

// Watts of one GPU in each phase.
struct PhaseWatts {
    double computeBound = 0;
    double memoryBound = 0;
    double communicating = 0;
    double idle = 0;
};

// Facility power of the whole cluster (IT x PUE), constant from timeS to the next sample.
struct PowerSample {
    double timeS = 0;
    double watts = 0;
};

// Training started at the first hour of the series, against the best start hour.
struct GridWindow {
    int runHours = 0;
    bool wrapped = false; // the run is longer than the series, which was repeated
    std::string firstStart;
    double firstCo2Kg = 0;
    std::optional<double> firstElectricityUsd;
    std::string lowestCo2Start;
    double lowestCo2Kg = 0;
    std::string lowestPriceStart;
    std::optional<double> lowestElectricityUsd;
};

struct EnergyReport {
    EnergyBreakdown stepJoules;
    PhaseWatts gpuWatts;
    std::vector<PhaseSeconds> stagePhases; // per pipeline stage, one GPU
    double hostWPerNode = 0;
    double networkW = 0;
    double pue = 1;
    double gridGco2PerKwh = 0;
    std::optional<double> stepCo2Kg; // at the constant intensity, or the series' mean
    double electricityUsdPerKwh = 0;
    double peakNodeW = 0; // IT power of one node with its GPUs compute-bound
    double nodeMaxW = 0;  // the server's rated maximum (0 = unknown)
    double gpuHoursPerStep = 0;
    double usdPerHour = 0; // the whole cluster: GPU-hours at the price, or owned cost
    std::string ownership; // "cloud" | "owned"
    // One step's facility power; it covers the whole step when `traceCoversStep`, else the
    // schedule simulation's shortened run (Estimate::timelineMicrobatches).
    std::vector<PowerSample> powerTrace;
    double traceEndS = 0;
    bool traceCoversStep = false;
    std::optional<double> trainGpuHours;
    std::optional<double> trainElectricityUsd;
    std::optional<GridWindow> window;
};

} // namespace ts
