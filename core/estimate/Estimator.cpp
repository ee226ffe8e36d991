#include "estimate/Estimator.h"

#include "calibration/CalibratedSettings.h"
#include "energy/EnergyEstimate.h"
#include "estimate/EstimateStages.h"
#include "estimate/ExecutionWarnings.h"
#include "estimate/FinetuneMemory.h"
#include "hardware/AttentionKernel.h"
#include "hardware/BlockScaledGemm.h"
#include "hardware/PowerLimit.h"
#include "hetero/HeteroEstimator.h"
#include "model/MoeArithmetic.h"
#include "model/TransformerArithmetic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ts {

namespace {

std::string formatGiB(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / double(1ull << 30));
    return buf;
}

// Communication: bytes per GPU averaged over stages; per link over the whole cluster.
void addCommunication(const EstimateContext& ctx, const StageCosts& costs, Estimate& est) {
    const int pp = ctx.layout.stages;
    const double gpusPerStage = double(ctx.sc.cluster.numGpus) / pp;
    for (int s = 0; s < pp; ++s) {
        const CommAccount& ca = costs.stageComm[s];
        est.commBytesPerGpu.tp += ca.tp / pp;
        est.commBytesPerGpu.cp += ca.cp / pp;
        est.commBytesPerGpu.ep += ca.ep / pp;
        est.commBytesPerGpu.pp += ca.pp / pp;
        est.commBytesPerGpu.dp += ca.dp / pp;
        est.commBytesByLink.scaleUp += ca.scaleUp * gpusPerStage;
        est.commBytesByLink.scaleOut += ca.scaleOut * gpusPerStage;
    }
}

void addWarnings(const EstimateContext& ctx, const EstimateCollectives& coll,
                 const PipelineResult& pipeline, Estimate& est) {
    const ResolvedScenario& sc = ctx.sc;
    const ParallelConfig& plan = sc.parallel;
    const ModelConfig& model = sc.model;
    const TrainingConfig& train = sc.training;
    const int pp = ctx.layout.stages;
    const PipelineScheduleKind schedule = ctx.schedule;
    const double use = est.peakBytes / est.capacityBytes;
    auto warn = [&est](MessageId id, std::vector<std::string> args = {}) {
        est.warnings.push_back(message(id, std::move(args)));
    };
    if (!est.fits)
        warn(MessageId::DoesNotFit, {std::to_string(est.peakStage), formatGiB(est.peakBytes),
                                     formatGiB(est.capacityBytes)});
    else if (use > 0.9)
        warn(MessageId::MemoryNearlyFull, {std::to_string(int(std::lround(use * 100)))});
    if (!pipeline.ok)
        warn(MessageId::ScheduleIncomplete);
    // The assumed imbalance applies unless the benchmark force-balances the routing or a
    // capacity factor of 1 or less caps every rank at the mean (MoeLayerCost.h, expertLoad).
    const std::optional<double> capacity = model.moe ? model.moe->capacityFactor : std::nullopt;
    if (model.moe && !sc.execution.moeForceBalance && (!capacity || *capacity > 1.0))
        warn(MessageId::ExpertImbalance);
    if (model.moe && plan.ep > 1 && !plan.overlap.ep)
        warn(MessageId::ExpertAllToAllExposed);
    if (model.moe && plan.ep > 1 && plan.overlap.ep && pp > 1)
        warn(MessageId::ExpertOverlapSchedule, {std::string(enumName(schedule))});
    if (!sc.calibrationProfile && sc.cluster.gpu.powerSibling)
        est.warnings.push_back(powerSiblingWarning(sc.cluster.gpu));
    if (std::optional<Message> fp8 = fp8RecipeWarning(train, sc.cluster.gpu))
        est.warnings.push_back(std::move(*fp8));
    for (const Diagnostic& d : coll.topologyDiags.all())
        warn(coll.onGraph ? MessageId::NetworkGraph : MessageId::NetworkGraphTwoLevel,
             {d.path, d.message});
    if (ctx.offloading)
        addOffloadWarnings(sc, ctx.offload, est);
    for (Message& w : executionNotModelledWarnings(
             sc.execution, plan.recompute == RecomputeMode::Selective, pytorchNativeRecipe(sc)))
        est.warnings.push_back(std::move(w));
}

} // namespace

void addThroughput(const EstimateContext& ctx, const LayerCosts& lc, Estimate& est) {
    const ResolvedScenario& sc = ctx.sc;
    const ModelConfig& model = sc.model;
    const TrainingConfig& train = sc.training;
    const double tokensPerStep = double(train.globalBatch) * double(train.seqLen);
    const double gpus = double(sc.cluster.numGpus);
    est.tokensPerS = tokensPerStep / est.stepSeconds;
    est.tokensPerSPerGpu = est.tokensPerS / gpus;
    // Model FLOPs count the active parameters of MoE models (model/MoeArithmetic.h).
    est.modelTflopsPerGpu = (lc.sparse ? sparseTrainingFlopsPerToken(model, train.seqLen)
                                       : trainingFlopsPerToken(model, train.seqLen)) *
                            est.tokensPerSPerGpu / 1e12;
    const double peak = densePeakTflops(sc.cluster.gpu, train.precision);
    est.mfu = peak > 0 ? est.modelTflopsPerGpu / peak : 0.0;
    if (train.tokens && *train.tokens > 0) {
        // Whole optimizer steps until training.tokens are consumed.
        est.trainSteps = std::ceil(*train.tokens / tokensPerStep);
        est.trainDays = *est.trainSteps * est.stepSeconds / 86400.0;
    }
}

EstimatorSettings defaultEstimatorSettings(const ResolvedScenario& scenario) {
    EstimatorSettings s;
    s.hardware = defaultHardwareProfile(scenario.cluster.gpu);
    // The framework's attention kernel on this GPU (hardware/AttentionKernel.h); a measured
    // calibration profile, applied after, replaces it.
    s.generation = gpuGeneration(scenario.cluster.gpuId, scenario.cluster.gpu.name);
    const GpuGeneration generation = s.generation;
    const AttentionBackend backend =
        resolvedAttentionBackend(scenario.execution.attentionBackend, scenario.execution.framework,
                                 generation, scenario.model.attentionSinks);
    applyAttentionKernel(backend, generation, s.hardware);
    // The unfused path materialises the scores (time and memory: estimate/AttentionCore.h,
    // MemoryModel.h).
    s.activations.flashAttention = backend != AttentionBackend::Unfused;
    // Block-scaled MXFP8/NVFP4 GEMMs below the per-tensor FP8 MAMF (hardware/BlockScaledGemm.h);
    // GPUs with FP4 tensor cores (Blackwell) scale blocks in the tensor cores.
    applyBlockScaledGemm(scenario.training, scenario.cluster.gpu.fp4Tflops.has_value(), s.hardware);
    if (scenario.calibrationProfile) // the scenario's "calibration" (issue 6)
        applyCalibration(*scenario.calibrationProfile, s);
    return s;
}

std::optional<Estimate> estimatePlan(const ResolvedScenario& scenario, Diagnostics& diags) {
    return estimatePlan(scenario, defaultEstimatorSettings(scenario), diags);
}

std::optional<Estimate> estimatePlan(const ResolvedScenario& sc, const EstimatorSettings& set,
                                     Diagnostics& diags) {
    // A plan over cluster.pools is composed from its stages' uniform estimates (core/hetero).
    if (sc.hetero)
        return estimateHeteroPlan(sc, set, diags);
    if (!checkPlanSupported(sc, diags))
        return std::nullopt;
    const EstimateCollectives coll(sc.cluster, set);
    return estimateSupportedPlan(sc, set, coll);
}

Estimate estimateSupportedPlan(const ResolvedScenario& sc, const EstimatorSettings& set,
                               const EstimateCollectives& coll) {
    const EstimateContext ctx(sc, set, coll.active());
    const LayerCosts lc = computeLayerCosts(ctx);
    const StageParams params = computeStageParams(ctx, lc);
    StageCosts costs = computeStageCosts(ctx, lc, params);
    const StepTail tail = computeStepTail(ctx, params, costs);
    Estimate est;
    const ScheduleResult schedule = computeSchedule(ctx, costs, tail, est);
    computeMemory(ctx, lc, params, est);
    addThroughput(ctx, lc, est);
    addCommunication(ctx, costs, est);
    addWarnings(ctx, coll, schedule.pipeline, est);
    addEnergyAndCost(sc, est);
    return est;
}

} // namespace ts
