#include "scenario/ExplicitScenario.h"

#include "scenario/ClusterGraphJson.h"
#include "scenario/ExecutionJson.h"
#include "scenario/SectionJson.h"

namespace ts {

Scenario explicitScenario(const ResolvedScenario& r) {
    Scenario s;
    s.name = r.name;
    s.model = toModelInput(r.model);
    if (!r.modelPreset.empty())
        s.model.preset = r.modelPreset;

    ClusterInput& c = s.cluster;
    if (!r.clusterPreset.empty())
        c.preset = r.clusterPreset;
    GpuInput gpu;
    if (r.cluster.gpuId.empty())
        gpu.spec = r.cluster.gpu;
    else
        gpu.catalogId = r.cluster.gpuId;
    c.gpu = gpu;
    c.numGpus = r.cluster.numGpus;
    c.gpusPerNode = r.cluster.gpusPerNode;
    // Member by member (not aggregate initialisation), so that keys core adds later
    // simply stay absent here.
    ScaleUpInput up;
    up.domainGpus = r.cluster.scaleUp.domainGpus;
    up.bandwidthGBps = r.cluster.scaleUp.bandwidthGBps;
    up.latencyUs = r.cluster.scaleUp.latencyUs;
    c.scaleUp = up;
    const ScaleOutConfig& out = r.cluster.scaleOut;
    ScaleOutInput so;
    so.topology = out.topology;
    so.nicGbitPerS = out.nicGbitPerS;
    so.nicsPerNode = out.nicsPerNode;
    so.oversubscription = out.oversubscription;
    so.latencyUs = out.latencyUs;
    so.switchRadix = out.switchRadix;
    so.tiers = out.tiers;
    so.pods = out.pods;
    if (out.pods > 1) {
        so.wanGbitPerS = out.wanGbitPerS;
        so.wanLatencyUs = out.wanLatencyUs;
    }
    if (!out.torusDims.empty())
        so.torusDims = out.torusDims;
    c.scaleOut = so;
    const HostConfig& h = r.cluster.host;
    if (h.pcieGBps || h.memoryGiB || h.memoryGBps || h.nvmeReadGBps || h.nvmeWriteGBps ||
        h.nvmeGiB) { // only the known figures; unknown ones stay absent
        HostInput host;
        host.pcieGBps = h.pcieGBps;
        host.memoryGiB = h.memoryGiB;
        host.memoryGBps = h.memoryGBps;
        host.nvmeReadGBps = h.nvmeReadGBps;
        host.nvmeWriteGBps = h.nvmeWriteGBps;
        host.nvmeGiB = h.nvmeGiB;
        c.host = host;
    }
    if (r.cluster.graph)
        c.graph = clusterGraphToJson(*r.cluster.graph);

    const TrainingConfig& t = r.training;
    s.training.seqLen = t.seqLen;
    s.training.globalBatch = t.globalBatch;
    s.training.microBatch = t.microBatch;
    s.training.precision = t.precision;
    if (t.precision == Precision::Fp8) // the key is refused with any other precision
        s.training.fp8Recipe = t.fp8Recipe;
    s.training.optimizer = t.optimizer;
    s.training.optimizerInBackward = t.optimizerInBackward;
    s.training.optimizerImpl = t.optimizerImpl;
    s.training.compile = t.compile; // unstated stays unstated (PlanConfig.h)
    s.training.masterWeights = t.masterWeights;
    if (t.masterWeights) // the key is not read without master weights
        s.training.gradReduceDtype = t.gradReduceDtype;
    s.training.documentTokens = t.documentTokens;
    s.training.tokens = t.tokens;
    if (r.finetune) {
        const FinetuneConfig& f = *r.finetune;
        FinetuneInput ft;
        ft.method = f.method;
        if (f.adapters()) { // refused with method "full"
            ft.loraRank = f.loraRank;
            ft.loraAlpha = f.loraAlpha;
            ft.loraTargets = f.targets;
        }
        ft.baseWeights = f.baseWeights;
        if (f.baseWeights == BaseWeights::Nf4) // a warning elsewhere
            ft.doubleQuant = f.doubleQuant;
        s.finetune = ft;
    }

    const ParallelConfig& p = r.parallel;
    ParallelInput plan;
    plan.tp = p.tp;
    plan.pp = p.pp;
    plan.cp = p.cp;
    plan.ep = p.ep;
    plan.etp = std::optional<int>(p.etp);
    plan.dp = std::optional<std::int64_t>(p.dp);
    plan.dpShard = std::optional<std::int64_t>(p.dpShard);
    plan.cpComm = p.cpComm;
    plan.vpp = p.vpp;
    plan.pipelineLayers = std::optional<std::vector<int>>(p.pipelineLayers);
    plan.sequenceParallel = p.sequenceParallel;
    if (r.model.moe) // the key only means something for a MoE model
        plan.moeDispatchFp8 = p.moeDispatchFp8;
    if (p.pp > 1) { // the split keys only mean something with a pipeline
        plan.embeddingInPipelineSplit = p.embeddingInPipelineSplit;
        plan.lossInPipelineSplit = p.lossInPipelineSplit;
    }
    plan.zero = p.zero;
    plan.recompute = p.recompute;
    plan.recomputeLayers = p.recomputeLayers;
    plan.schedule = p.schedule;
    OffloadInput offload;
    offload.optimizer = p.offload.optimizer;
    offload.params = p.offload.params;
    offload.activations = p.offload.activations;
    plan.offload = offload;
    OverlapInput overlap;
    overlap.tp = p.overlap.tp;
    overlap.dp = p.overlap.dp;
    overlap.pp = p.overlap.pp;
    overlap.ep = p.overlap.ep;
    plan.overlap = overlap;
    s.parallelism = plan;
    s.execution = explicitExecution(r.execution, r.model, r.training, p);
    if (r.calibration)
        s.calibration = std::optional<std::string>(*r.calibration);
    // Costs keep the figures the scenario or its defaults set; assumptions stay warnings.
    const CostConfig& k = r.costs;
    if (k.gpuHourUsd || k.electricityUsdPerKwh || k.pue || k.gridGco2PerKwh) {
        CostInput costs;
        costs.gpuHourUsd = k.gpuHourUsd;
        costs.electricityUsdPerKwh = k.electricityUsdPerKwh;
        costs.pue = k.pue;
        costs.gridGco2PerKwh = k.gridGco2PerKwh;
        s.costs = costs;
    }
    return s;
}

} // namespace ts
