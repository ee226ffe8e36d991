#pragma once
// Resolved costs, power figures and ownership model of a scenario (its "costs" section, with
// the catalog's defaults filled in). Each default taken is named, with its source, in
// `assumptions`, so that the estimate can say which numbers the user did not give.

#include "common/Message.h"
#include "scenario/Enums.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

// One hour of an hourly grid series (costs.carbon_csv).
struct GridHour {
    std::string label; // the CSV's first column, e.g. "2024-06-01T13:00Z"
    double gco2PerKwh = 0;
    std::optional<double> usdPerKwh;
    bool operator==(const GridHour&) const = default;
};

// Power per GPU in each phase of the step, as a fraction of the way from idle power to TDP:
// P = idle + fraction * (TDP - idle). Defaults: core/energy/PowerModel.h.
struct GpuPowerFractions {
    double computeBound = 0;
    double memoryBound = 0;
    double communicating = 0;
    bool operator==(const GpuPowerFractions&) const = default;
};

// Editable defaults where no measurement was found (shared/reference/catalog.md B6: "GPU
// watts under real training: null"). They are assumptions, named in every estimate that
// uses them, and set so that the results agree with the node-level measurements there are:
// - Compute-bound 0.9: peak GPU power in LLM training iterations reaches or exceeds TDP,
//   with troughs in communication phases (Patel et al., ASPLOS'24, "Characterizing Power
//   Management Opportunities for LLMs in the Cloud", doi:10.1145/3620666.3651329).
// - Memory-bound 0.6 and communicating 0.4: between the two; HBM and NVLink stay busy while
//   the tensor cores wait.
// - Idle 10% of TDP, and a host drawing 60% of (node maximum - GPUs x TDP): with them a DGX
//   H100 peaks at about 7.9 kW, under the 8.4 kW measured on an 8 x H100 node training
//   Llama 2 13B (Latif et al. 2024, arXiv:2412.08602), and averages near the 76% of 10.2 kW
//   measured for compute-intensive training (Newkirk et al. 2025, arXiv:2506.14551).
inline constexpr GpuPowerFractions kDefaultGpuPowerFractions{0.9, 0.6, 0.4};
inline constexpr double kDefaultGpuIdleFractionOfTdp = 0.1;
inline constexpr double kDefaultHostLoadFraction = 0.6;

struct CostConfig {
    std::optional<double> gpuHourUsd;
    std::optional<double> electricityUsdPerKwh;
    std::optional<double> pue;
    std::optional<double> gridGco2PerKwh;

    Ownership ownership = Ownership::Cloud;
    std::optional<double> amortizationYears; // owned: years over which capital is spread
    std::optional<double> nodeCapexUsd;      // owned: one node (server with its GPUs)
    std::optional<double> networkCapexUsd;   // owned: the whole scale-out network

    // Power. Absent figures have no source and no default; the resolver fills what it can.
    std::optional<double> gpuIdleW;
    GpuPowerFractions gpuPower = kDefaultGpuPowerFractions;
    std::optional<double> hostWPerNode; // CPUs, memory, NVSwitch, fans: node minus its GPUs
    std::optional<double> nodeMaxW;     // the server's rated maximum, for a plausibility check
    std::optional<double> networkW;     // the whole scale-out network (bill of materials)

    std::optional<std::string> carbonCsv; // as written in the scenario
    std::vector<GridHour> gridHours;      // its rows, loaded by the resolver

    std::vector<Message> assumptions; // "PUE assumed 1.3 (...)"
    bool operator==(const CostConfig&) const = default;
};

} // namespace ts
