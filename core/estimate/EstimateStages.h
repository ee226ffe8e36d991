#pragma once
// One estimate as a pipeline of named stages with explicit results (DESIGN.md, "How data
// flows through one estimate"; STYLE.md, ASTRA-sim / LLVM):
//
//   EstimateContext   the plan's groups, pipeline layout and precision bytes
//   -> LayerCosts     one layer of each kind for one micro-batch (depends only on tp, cp, ep,
//                     etp, sequence parallelism, micro-batch and precision: a search caches it)
//   -> StageParams    parameters held by every pipeline chunk and stage
//   -> StageCosts     forward/backward seconds of every chunk, by breakdown category
//   -> StepTail       after the last backward: gradient reduction, optimizer, offload
//   -> ScheduleResult the pipeline schedule and the step's time breakdown
//   -> MemoryResult   memory of every stage against capacity
//   -> Estimate       with throughput, communication, warnings, energy and cost.
//
// estimatePlan (estimate/Estimator.h) runs them in order; a plan search runs the first ones
// alone (memory before timing) and reuses LayerCosts across the plans that share them.

#include "estimate/DataParallelCost.h"
#include "estimate/Estimate.h"
#include "estimate/Estimator.h"
#include "estimate/LayerCost.h"
#include "estimate/MoeLayerCost.h"
#include "estimate/Offload.h"
#include "estimate/PrecisionMemory.h"
#include "model/MoeArithmetic.h"
#include "model/TransformerArithmetic.h"
#include "parallel/PipelineSchedule.h"
#include "parallel/PlanSupport.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace ts {

// The collective model an estimate uses: on the cluster's graph when it can be built, else
// the two-level alpha-beta model. It depends on the cluster only: a search builds it once.
struct EstimateCollectives {
    EstimateCollectives(const ClusterConfig& cluster, const EstimatorSettings& settings);
    AlphaBetaCollectiveCost alphaBeta;
    // Before onGraph, whose initializer writes into it (members are built in this order: after,
    // it was written before its constructor ran, which then dropped the warnings; ASan's
    // stack-use-after-scope, found by fuzz_import_megatron).
    Diagnostics topologyDiags; // why the graph model could not be built, or its warnings
    std::shared_ptr<const CollectiveCost> onGraph;
    const CollectiveCost& active() const { return onGraph ? *onGraph : alphaBeta; }
};

// Stage 0: what every later stage reads about the plan.
struct EstimateContext {
    EstimateContext(const ResolvedScenario& scenario, const EstimatorSettings& settings,
                    const CollectiveCost& collectives);
    const ResolvedScenario& sc;
    const EstimatorSettings& set;
    const CollectiveCost& collectives;
    CostContext cost;
    PipelineLayout layout;
    PipelineScheduleKind schedule;
    GroupStrides strides;
    // Gradients span the data- and context-parallel ranks together (CP ranks hold the same
    // weights: Megatron-Core's dp-cp group, torchtitan's dp_shard_cp mesh); ZeRO shards span
    // dp_shard x cp of them (hybrid sharding; estimate/DataParallelCost.h).
    DataParallelGroups dpg;
    GroupPlacement ppGroup;
    double gradBytes = 4;
    StateBytesPerParam stateBytes;
    double weightBytes = 2; // what ZeRO gathers
    double actBytes = 2;
    // LoRA / QLoRA (estimate/FinetuneMemory.h): only the adapters train. ZeRO-3 gathers the
    // frozen base in its storage format and reduce-scatters the adapters' gradients: bytes per
    // local layer parameter (weightBytes and gradBytes otherwise).
    bool adapters = false;
    double gatherBytesPerParam = 2;
    double reduceBytesPerParam = 4;
    std::int64_t expertDp = 1;
    GroupPlacement expertDpGroup;
    int nModelChunks = 1;
    int firstStage = 0;          // the embedding
    int lastStage = 0;           // the output layer and the loss
    std::vector<int> chunkStart; // first model layer of each [stage * vpp + chunk]
    // Micro-batches whose activations each stage holds at its peak (microbatchesInFlight).
    std::vector<double> inFlight; // [stage]
    bool offloading = false;      // CPU / NVMe offload (estimate/Offload.h)
    OffloadPlan offload;
    int modelIndex(int s, int c) const;
    int stageOfModelChunk(int k) const;
    // After only zero, dp_shard, offload, overlap or recompute of `sc` changed (a search's
    // inner fields): the fields that depend on them, the data-parallel groups and the
    // offload plan, again (none reads overlap or recompute).
    void updateInnerFields();
};

// Stage 1: one layer of each kind for one micro-batch, and its parameters and activations.
struct LayerCosts {
    LayerCost layer;
    EdgeLayerCost embed;
    EdgeLayerCost output;
    ParameterCounts params;
    // Mixture-of-experts and MLA models (estimate/MoeLayerCost.h): dense-MLP and MoE layers.
    bool sparse = false;
    double imbalance = kDefaultExpertImbalance;
    SparseLayerParams sp;
    LayerCost denseLayer;
    LayerCost moeLayer;
    // Local parameters per layer (see computeLayerCosts).
    double attnLocal = 0, denseLayerLocal = 0, moeLayerLocal = 0, expertLayerLocal = 0;
    double perLayerParamsLocal = 0;
    ActivationLayout actLayout;
    // Activation bytes of one layer and micro-batch, by recompute mode, and what they assume
    // (eager modules, a frozen base: estimate/FinetuneMemory.h).
    ActivationAssumptions actAssumptions;
    double actNone = 0, actSelective = 0, actFull = 0;
};
LayerCosts computeLayerCosts(const EstimateContext& ctx);

// Stage 2: parameters per chunk ([stage * vpp + chunk]) and per stage.
struct StageParams {
    std::vector<double> chunkParams; // dense and shared (not routed-expert) parameters, local
    std::vector<double> chunkMoeLayers;
    std::vector<double> stageParams, stageExpertParams, stageLinearParams, stageLocalParams;
    // The parameters that train (all, or the LoRA adapters) and the MoE layers, per stage.
    std::vector<double> stageTrainable, stageMoeLayers;
    // Stage s holds what stage s - 1 holds: the same layers and parameters, and neither holds
    // the embedding or the output layer (what a stage's memory reads but the micro-batches in
    // flight: computeMemory's PeakOnly). Its trainable and local parameters follow.
    std::vector<char> likeStageBefore; // [stage]
};
StageParams computeStageParams(const EstimateContext& ctx, const LayerCosts& lc);
void computeStageParams(const EstimateContext& ctx, const LayerCosts& lc, StageParams& out);
// The last step of computeStageParams, the only one that depends on zero and dp_shard: the
// trainable and local (ZeRO-sharded) parameters of every stage.
void computeStageShares(const EstimateContext& ctx, StageParams& out);

// Stage s of an adapter method, for estimate/FinetuneMemory.h.
struct FinetuneStageInput;
FinetuneStageInput finetuneStageInput(const EstimateContext& ctx, const StageParams& params, int s);

// Activations one micro-batch stashes on stage s, and the recomputed layer's working set.
struct StageActivations {
    double perMicrobatch = 0, workingSet = 0;
};
StageActivations stageActivations(const EstimateContext& ctx, const LayerCosts& lc, int s);

struct CommAccount {
    double tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
    double scaleUp = 0, scaleOut = 0;
    void add(double& dim, const CollectiveTime& c, double times) {
        dim += times * (c.scaleUpBytes + c.scaleOutBytes);
        scaleUp += times * c.scaleUpBytes;
        scaleOut += times * c.scaleOutBytes;
    }
};

// The per-stage pieces of a micro-batch, by breakdown category (seconds).
struct StageParts {
    double compute = 0, recompute = 0, tp = 0, cp = 0, ep = 0, pp = 0, dp = 0;
    double offload = 0;     // exposed CPU/NVMe offload transfers (estimate/Offload.h)
    double memoryBound = 0; // of compute + recompute: elementwise work (for the power model)
    double total() const { return compute + recompute + tp + cp + ep + pp + dp + offload; }
};

// Stage 3: micro-batch seconds of every chunk and their parts, summed per stage.
struct StageCosts {
    CollectiveTime p2p;                  // one pipeline point-to-point transfer
    std::vector<double> fwd, bwd, wgrad; // [stage * vpp + chunk]
    std::vector<StageParts> parts;       // [stage], times the micro-batches
    std::vector<double> stageFwd, stageBwd;
    std::vector<CommAccount> stageComm;
    // Stages of one kind hold chunks alike in layers, place and parameters, in the same order:
    // every per-stage figure of theirs, here and in the stages after (StepTail, memory), is the
    // same. stageKind[s] numbers the kinds in the order they first appear; kindFirstStage[q]
    // is where kind q first appears.
    std::vector<int> stageKind, kindFirstStage;
};
StageCosts computeStageCosts(const EstimateContext& ctx, const LayerCosts& lc,
                             const StageParams& params);
// Stage 3 in two steps (what computeStageCosts does). The base costs each kind of chunk
// (chunks alike in layers, place and parameters cost the same) up to ZeRO-3 and offload,
// which alone depend on zero and dp_shard; finishing adds those and fills every chunk and
// stage. A search keeps the base across the plans that differ only in zero and dp_shard.
struct StageCostsBase;
std::shared_ptr<const StageCostsBase>
computeStageCostsBase(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params);
// Overwrites every field of `out` (reusing its storage); without `countBytes` the bytes sent
// (stageComm) are left zero and the weight-gradient split (wgrad, which only the schedule
// simulation reads) empty, for a search's bound, which reports no traffic.
void finishStageCosts(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                      const StageCostsBase& base, StageCosts& out, bool countBytes = true);

// Stage 4: what each stage does after its last backward (adds the DP bytes to stageComm).
struct StepTail {
    std::vector<double> postDp, postOpt, postOffload; // [stage], exposed seconds
};
StepTail computeStepTail(const EstimateContext& ctx, const StageParams& params, StageCosts& costs);
void computeStepTail(const EstimateContext& ctx, const StageParams& params, StageCosts& costs,
                     StepTail& out);

// Stage 5: the pipeline schedule, the step time and its breakdown (into `est`).
struct ScheduleResult {
    PipelineResult pipeline;
    std::vector<double> stageEnd;
};
ScheduleResult computeSchedule(const EstimateContext& ctx, const StageCosts& costs,
                               const StepTail& tail, Estimate& est);

// The step time and its breakdown from each stage's busy and end times (what computeSchedule
// does after the simulation; a search calls it with bounds instead). KindsAlike (a search's
// bound): the stages of one kind (StageCosts::stageKind) have the same busy seconds, so the
// bottleneck is looked for among each kind's first stage, and est.stageTimes is left out.
enum class StepTimeDetail { EveryStage, KindsAlike };
void fillStepTime(const EstimateContext& ctx, const StageCosts& costs, const StepTail& tail,
                  const std::vector<double>& stageBusy, const std::vector<double>& stageEnd,
                  Estimate& est, StepTimeDetail detail = StepTimeDetail::EveryStage);

// Stage 6: memory of every stage (into `est`: stages, peak, fits, host memory). It stops after
// the first stage above `stopAboveBytes` (a search's memory limit): `est` then holds the
// stages up to it, and its peak is that stage's, enough to know the plan does not fit.
// PeakOnly (a search's bound) computes the same peak (its value, stage and breakdown) from
// the stages that can hold it: a stage like the one before it (the same parameters, layers
// and place) with no more micro-batches in flight than the like stages before it cannot use
// more memory than they do (activations grow with the micro-batches in flight, and every
// other figure of a stage is the same), and is skipped; `est.stages` holds the others, and
// the host memory, which needs every stage, is left out.
enum class MemoryDetail { EveryStage, PeakOnly };
void computeMemory(const EstimateContext& ctx, const LayerCosts& lc, const StageParams& params,
                   Estimate& est, double stopAboveBytes = std::numeric_limits<double>::infinity(),
                   MemoryDetail detail = MemoryDetail::EveryStage);

// Throughput (tokens/s, model TFLOP/s, MFU) and the run's steps and days, from the step time.
void addThroughput(const EstimateContext& ctx, const LayerCosts& lc, Estimate& est);

// Every stage in order, for a plan that checkPlanSupported accepted, with collectives built
// once for its cluster (what estimatePlan does after those two steps).
Estimate estimateSupportedPlan(const ResolvedScenario& scenario, const EstimatorSettings& settings,
                               const EstimateCollectives& collectives);

} // namespace ts
