#pragma once
// A scenario exactly as written in a file (format "trainscape.scenario/1"): every key the
// user may omit is optional here, so that writing it back loses nothing and adds nothing.
// resolveScenario() (ScenarioResolver.h) merges presets and defaults into a
// ResolvedScenario.

#include "scenario/ClusterConfig.h"
#include "scenario/ExecutionConfig.h"
#include "scenario/ModelConfig.h"
#include "scenario/PlanConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

inline constexpr const char* kScenarioFormat = "trainscape.scenario/1";

struct ModelInput {
    std::optional<std::string> preset;
    std::optional<int> layers;
    std::optional<std::int64_t> hidden;
    std::optional<std::int64_t> ffnHidden;
    std::optional<int> heads;
    std::optional<int> kvHeads;
    std::optional<int> headDim;
    std::optional<std::int64_t> vocab;
    std::optional<MlpKind> mlp;
    std::optional<bool> tiedEmbeddings;
    // Outer optional: key present; inner: null (explicitly none) vs an object.
    std::optional<std::optional<MlaConfig>> mla;
    std::optional<std::optional<MoeConfig>> moe;
    // Wave-3 keys (ModelConfig.h): outer optional the key is written, inner null.
    std::optional<std::optional<std::int64_t>> slidingWindow;
    std::optional<WindowLayers> windowLayers;
    std::optional<bool> attentionSinks;
    std::optional<bool> attentionBias;
    bool operator==(const ModelInput&) const = default;
};

struct GpuInput {
    std::optional<std::string> catalogId; // "gpu": "h100-sxm-80gb"
    std::optional<GpuSpec> spec;          // "gpu": {...}
    bool operator==(const GpuInput&) const = default;
};

struct ScaleUpInput {
    std::optional<int> domainGpus;
    std::optional<double> bandwidthGBps;
    std::optional<double> latencyUs;
    bool operator==(const ScaleUpInput&) const = default;
};

struct ScaleOutInput {
    std::optional<ScaleOutTopology> topology;
    std::optional<double> nicGbitPerS;
    std::optional<int> nicsPerNode;
    std::optional<double> oversubscription;
    std::optional<double> latencyUs;
    std::optional<int> switchRadix;
    std::optional<std::optional<int>> tiers;
    std::optional<int> pods;
    std::optional<double> wanGbitPerS;
    std::optional<double> wanLatencyUs;
    std::optional<std::vector<int>> torusDims;
    bool operator==(const ScaleOutInput&) const = default;
};

// cluster.host (optional; defaults from the cluster preset): what offload is bounded by.
struct HostInput {
    std::optional<double> pcieGBps;      // "pcie_gb_s": GPU<->host link per GPU, per direction
    std::optional<double> memoryGiB;     // "memory_gib": host DRAM per node
    std::optional<double> memoryGBps;    // "memory_gb_s": host DRAM bandwidth per node
    std::optional<double> nvmeReadGBps;  // "nvme_read_gb_s": NVMe read per node, all drives
    std::optional<double> nvmeWriteGBps; // "nvme_write_gb_s": NVMe write per node, all drives
    std::optional<double> nvmeGiB;       // "nvme_gib": NVMe capacity per node, GiB
    bool operator==(const HostInput&) const = default;
};

// One entry of cluster.pools (heterogeneous clusters).
struct PoolInput {
    std::optional<std::string> id;
    std::optional<GpuInput> gpu;
    std::optional<std::int64_t> numGpus;
    std::optional<int> gpusPerNode;
    std::optional<ScaleUpInput> scaleUp;
    std::optional<double> nicGbitPerS;
    std::optional<int> nicsPerNode;
    std::optional<std::optional<std::string>> site;
    std::optional<double> gpuHourUsd;
    bool operator==(const PoolInput&) const = default;
};

struct ClusterInput {
    std::optional<std::string> preset;
    std::optional<GpuInput> gpu;
    std::optional<std::int64_t> numGpus;
    std::optional<int> gpusPerNode;
    std::optional<ScaleUpInput> scaleUp;
    std::optional<ScaleOutInput> scaleOut;
    std::optional<HostInput> host; // "host": per-node host figures for offload
    // The explicit topology graph; its format belongs to core/topology. Kept verbatim.
    std::optional<nlohmann::ordered_json> graph;
    std::optional<std::vector<PoolInput>> pools;           // "pools"
    std::optional<std::optional<double>> poolLinkGbitPerS; // "pool_link_gbit_s"
    bool operator==(const ClusterInput&) const = default;
};

struct TrainingInput {
    std::optional<std::int64_t> seqLen;
    std::optional<std::int64_t> globalBatch;
    std::optional<std::int64_t> microBatch;
    std::optional<Precision> precision;
    std::optional<Fp8Recipe> fp8Recipe; // "fp8_recipe", only with precision "fp8"
    std::optional<OptimizerKind> optimizer;
    std::optional<bool> optimizerInBackward;    // "optimizer_in_backward"
    std::optional<OptimizerImpl> optimizerImpl; // "optimizer_impl"
    std::optional<bool> compile;
    std::optional<bool> masterWeights;              // "master_weights"
    std::optional<GradReduceDtype> gradReduceDtype; // "grad_reduce_dtype" (project key)
    std::optional<std::int64_t> documentTokens;     // "document_tokens" (project key)
    std::optional<double> tokens;
    bool operator==(const TrainingInput&) const = default;
};

struct OffloadInput {
    std::optional<OffloadTarget> optimizer;
    std::optional<OffloadTarget> params;
    std::optional<OffloadTarget> activations;
    bool operator==(const OffloadInput&) const = default;
};

struct OverlapInput {
    std::optional<bool> tp;
    std::optional<bool> dp;
    std::optional<bool> pp;
    std::optional<bool> ep;
    bool operator==(const OverlapInput&) const = default;
};

// One entry of parallelism.pipelines (heterogeneous clusters).
struct PipelineStageInput {
    std::optional<std::string> pool;
    std::optional<int> tp;
    bool operator==(const PipelineStageInput&) const = default;
};
struct PipelineEntryInput {
    std::optional<int> count;
    std::optional<std::vector<PipelineStageInput>> stages;
    std::optional<std::int64_t> microBatch;
    std::optional<std::optional<std::int64_t>> sequences;
    bool operator==(const PipelineEntryInput&) const = default;
};

struct ParallelInput {
    std::optional<int> tp;
    std::optional<int> pp;
    std::optional<int> cp;
    std::optional<int> ep;
    std::optional<std::optional<int>> etp;
    std::optional<std::optional<std::int64_t>> dp;
    std::optional<std::optional<std::int64_t>> dpShard; // "dp_shard": null = dp
    std::optional<CpCommType> cpComm;                   // "cp_comm"
    std::optional<int> vpp;
    std::optional<std::optional<std::vector<int>>> pipelineLayers;
    std::optional<bool> sequenceParallel;
    std::optional<int> zero;
    std::optional<RecomputeMode> recompute;
    std::optional<std::optional<int>> recomputeLayers;
    std::optional<PipelineScheduleKind> schedule;
    std::optional<OffloadInput> offload;
    std::optional<OverlapInput> overlap;
    std::optional<bool> moeDispatchFp8; // "moe_dispatch_fp8"
    // Megatron --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split.
    std::optional<bool> embeddingInPipelineSplit;             // "embedding_in_pipeline_split"
    std::optional<bool> lossInPipelineSplit;                  // "loss_in_pipeline_split"
    std::optional<std::vector<PipelineEntryInput>> pipelines; // "pipelines" (with cluster.pools)
    bool operator==(const ParallelInput&) const = default;
};

struct CostInput {
    std::optional<double> gpuHourUsd;
    std::optional<double> electricityUsdPerKwh;
    std::optional<double> pue;
    std::optional<double> gridGco2PerKwh;
    // Optional keys beyond the spec's four (issue 7): the ownership model, power figures
    // that override the catalog's, and an hourly grid series.
    std::optional<Ownership> ownership;
    std::optional<double> amortizationYears;
    std::optional<double> nodeCapexUsd;
    std::optional<double> networkCapexUsd;
    std::optional<double> gpuIdleW;
    std::optional<double> gpuComputeFraction;
    std::optional<double> gpuMemoryFraction;
    std::optional<double> gpuCommFraction;
    std::optional<double> hostWPerNode;
    std::optional<double> networkW;
    std::optional<std::string> carbonCsv;
    bool operator==(const CostInput&) const = default;
};

// The optional "finetune" section (shared/spec/scenario-format.md, "Fine-tuning keys").
struct FinetuneInput {
    std::optional<FinetuneMethod> method;
    std::optional<int> loraRank;
    std::optional<double> loraAlpha;
    std::optional<std::vector<LoraTarget>> loraTargets;
    std::optional<BaseWeights> baseWeights;
    std::optional<bool> doubleQuant;
    bool operator==(const FinetuneInput&) const = default;
};

struct Scenario {
    std::optional<std::string> name;
    ModelInput model;
    ClusterInput cluster;
    TrainingInput training;
    std::optional<ParallelInput> parallelism;
    std::optional<CostInput> costs;
    std::optional<ExecutionInput> execution; // "execution" (scenario/ExecutionConfig.h)
    std::optional<FinetuneInput> finetune;   // absent: pre-training
    std::optional<std::optional<std::string>> calibration;
    bool operator==(const Scenario&) const = default;
};

} // namespace ts
