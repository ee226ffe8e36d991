#pragma once
// A fully resolved cluster: one kind of GPU, a scale-up (NVLink-class) domain, and a
// scale-out network.

#include "scenario/ClusterGraph.h"
#include "scenario/Enums.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

// The measured catalog part a GPU without its own MAMF borrows it from (hardware/PowerLimit.h).
struct PowerSibling {
    std::string gpuId;
    double tdpW = 0;
    double mamfBf16Tflops = 0;
    std::optional<double> mamfFp8Tflops;
    bool operator==(const PowerSibling&) const = default;
};

// Dense (no 2:4 sparsity) peaks per datasheet; see resources/catalog/gpus.json for sources.
struct GpuSpec {
    std::string name;
    double memoryGiB = 0;
    double hbmGBps = 0;
    double bf16Tflops = 0;
    double fp8Tflops = 0; // 0 = no FP8 tensor cores
    double fp32Tflops = 0;
    double tdpW = 0;
    // Optional figures.
    std::optional<double> fp16Tflops;     // default = bf16Tflops
    std::optional<double> tf32Tflops;     // TF32 tensor-core peak
    std::optional<double> fp4Tflops;      // NVFP4 peak (Blackwell)
    std::optional<double> mamfBf16Tflops; // measured maximum achievable matmul FLOPS
    std::optional<double> mamfFp8Tflops;
    std::optional<double> idleW;
    std::optional<int> smCount; // streaming multiprocessors (or CUs), for wave quantization
    // Softmax exponentials per second on the special function units (MUFU.EX2), in 10^12:
    // what bounds flash attention beside its matmuls (hardware/KernelTime.h).
    std::optional<double> sfuExpTeraPerS;
    // The part's own host link (PCIe generation and width), achievable GB/s per direction:
    // cluster.host.pcie_gb_s when neither the scenario nor a cluster preset gives it.
    std::optional<double> pcieGBps;
    // Resolved, not a scenario key: set by the resolver (hardware/PowerLimit.h).
    std::optional<PowerSibling> powerSibling;
    bool operator==(const GpuSpec&) const = default;
};

struct ScaleUpConfig {
    int domainGpus = 8;
    double bandwidthGBps = 0; // per GPU, per direction
    double latencyUs = 2.0;
    bool operator==(const ScaleUpConfig&) const = default;
};

struct ScaleOutConfig {
    ScaleOutTopology topology = ScaleOutTopology::RailOptimized;
    double nicGbitPerS = 0; // per NIC, per direction
    int nicsPerNode = 0;
    double oversubscription = 1.0;
    double latencyUs = 5.0;
    int switchRadix = 64;
    std::optional<int> tiers; // nullopt = as few as the size needs
    // Multi-datacenter: `pods` equal networks of the topology above, joined by WAN links of
    // wanGbitPerS out of each pod in all (per direction) and wanLatencyUs one way.
    int pods = 1;
    double wanGbitPerS = 0;
    double wanLatencyUs = 0;
    std::vector<int> torusDims; // torus: scale-up domains per dimension; empty = automatic
    bool operator==(const ScaleOutConfig&) const = default;
};

// Per-node host figures that bound CPU/NVMe offload (scenario cluster.host, else the
// cluster preset's; see resources/catalog/clusters.json for sources). Unknown = nullopt.
struct HostConfig {
    std::optional<double> pcieGBps;      // GPU<->host link per GPU, per direction, GB/s
    std::optional<double> memoryGiB;     // host DRAM per node
    std::optional<double> memoryGBps;    // host DRAM bandwidth per node (all sockets), GB/s
    std::optional<double> nvmeReadGBps;  // aggregate NVMe read per node, GB/s
    std::optional<double> nvmeWriteGBps; // aggregate NVMe write per node, GB/s
    std::optional<double> nvmeGiB;       // NVMe capacity per node, GiB
    bool operator==(const HostConfig&) const = default;
};

struct ClusterConfig {
    std::string gpuId; // catalog id, or "" for an explicit GPU object
    GpuSpec gpu;
    std::int64_t numGpus = 0;
    int gpusPerNode = 8;
    ScaleUpConfig scaleUp;
    ScaleOutConfig scaleOut;
    HostConfig host;
    SharedClusterGraph graph; // cluster.graph, parsed; null when none
    bool operator==(const ClusterConfig&) const = default;
};

} // namespace ts
