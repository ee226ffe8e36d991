#include "hetero/HeteroEstimator.h"

#include "energy/EnergyEstimate.h"
#include "energy/TrainingCost.h"
#include "estimate/EstimateStages.h"
#include "estimate/Estimator.h"
#include "hardware/HardwareProfile.h"
#include "model/MoeArithmetic.h"
#include "model/TransformerArithmetic.h"
#include "parallel/PlanSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ts {

namespace {

// One stage view's estimate pieces (EstimateStages.h), kept at stable addresses: the context
// refers to the scenario, the settings and the collectives.
struct StageRun {
    const ResolvedScenario* view = nullptr;
    EstimatorSettings set;
    std::unique_ptr<EstimateCollectives> coll;
    std::unique_ptr<EstimateContext> ctx;
    LayerCosts lc;
    StageParams params;
    StageCosts costs;
    StepTail tail;
    Estimate memory; // computeMemory of every stage of the view
};

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / double(1ull << 30));
    return buf;
}

using RunKey = std::tuple<int, int, std::int64_t, std::int64_t>; // pool, tp, mb, sequences

struct Runs {
    std::vector<std::unique_ptr<StageRun>> all;
    std::vector<std::vector<StageRun*>> at; // [entry][stage]
};

bool buildRuns(const ResolvedScenario& sc, const EstimatorSettings& base, Diagnostics& diags,
               Runs& out) {
    const HeteroConfig& h = *sc.hetero;
    std::map<RunKey, StageRun*> cache;
    for (std::size_t e = 0; e < h.pipelines.size(); ++e) {
        const PipelineReplicaConfig& rep = h.pipelines[e];
        out.at.emplace_back();
        for (std::size_t j = 0; j < rep.stages.size(); ++j) {
            const RunKey key{rep.stages[j].pool, rep.stages[j].tp, rep.microBatch, rep.sequences};
            if (auto it = cache.find(key); it != cache.end()) {
                out.at[e].push_back(it->second);
                continue;
            }
            auto run = std::make_unique<StageRun>();
            run->view = &h.view(e, j);
            if (!checkPlanSupported(*run->view, diags))
                return false;
            run->set = defaultEstimatorSettings(*run->view);
            run->set.recordTimeline = base.recordTimeline;
            run->set.maxScheduleEvents = base.maxScheduleEvents;
            run->set.topologyCollectives = base.topologyCollectives;
            run->coll = std::make_unique<EstimateCollectives>(run->view->cluster, run->set);
            run->ctx = std::make_unique<EstimateContext>(*run->view, run->set, run->coll->active());
            run->lc = computeLayerCosts(*run->ctx);
            run->params = computeStageParams(*run->ctx, run->lc);
            run->costs = computeStageCosts(*run->ctx, run->lc, run->params);
            run->tail = computeStepTail(*run->ctx, run->params, run->costs);
            computeMemory(*run->ctx, run->lc, run->params, run->memory);
            cache.emplace(key, run.get());
            out.at[e].push_back(run.get());
            out.all.push_back(std::move(run));
        }
    }
    return true;
}

int stageGpus(const ResolvedScenario& sc, const PipelineReplicaConfig& rep, std::size_t j) {
    return rep.count * rep.stages[j].tp * sc.parallel.cp;
}

// Whether two pools are the same machine (GPU, node, networks), whatever their ids and sizes:
// then the stage views already place the traffic between them.
bool alikePools(const HeteroConfig& h, int a, int b) {
    if (a == b)
        return true;
    ClusterConfig x = h.pools[std::size_t(a)].cluster, y = h.pools[std::size_t(b)].cluster;
    x.numGpus = y.numGpus = 0;
    return x == y;
}

// The link between nodes of two unlike pools, Gbit/s per node: cluster.pool_link_gbit_s, else
// the shared scale-out network, as fast as the slower node's NICs (nic_gbit_s x nics_per_node).
double crossLinkGbitPerNode(const HeteroConfig& h, int a, int b) {
    if (h.poolLinkGbitPerS)
        return *h.poolLinkGbitPerS;
    const auto node = [&](int p) {
        const ScaleOutConfig& o = h.pools[std::size_t(p)].cluster.scaleOut;
        return o.nicGbitPerS * std::max(1, o.nicsPerNode);
    };
    return std::min(node(a), node(b));
}

// One pipeline transfer between stages on different pools over cluster.pool_link_gbit_s: the
// micro-batch's [s, b, h] activation (or its gradient) crosses the pool link of the nodes the
// smaller stage spans (each node's link carries its GPUs' shares).
double crossPoolP2pSeconds(const ResolvedScenario& sc, const StageRun& a, const StageRun& b,
                           double linkGbitPerS) {
    const auto nodes = [&](const StageRun& r) {
        const int gpus = r.view->parallel.tp * r.view->parallel.cp;
        return std::max(1, (gpus + r.view->cluster.gpusPerNode - 1) / r.view->cluster.gpusPerNode);
    };
    const double bytes = double(sc.training.seqLen) * double(a.view->training.microBatch) *
                         double(sc.model.hidden) * a.ctx->actBytes /
                         double(std::max(1, sc.parallel.cp));
    const double gbPerS = linkGbitPerS / 8.0 * std::min(nodes(a), nodes(b));
    return bytes / (gbPerS * 1e9) + a.view->cluster.scaleOut.latencyUs * 1e-6;
}

// Entry e's stage costs: each stage's chunks from its own run.
StageCosts mergedCosts(const ResolvedScenario& sc, const Runs& runs, std::size_t e) {
    const HeteroConfig& h = *sc.hetero;
    const std::vector<StageRun*>& at = runs.at[e];
    const int pp = int(at.size());
    const int vpp = at[0]->ctx->layout.chunks;
    StageCosts m = at[0]->costs;
    for (int j = 0; j < pp; ++j) {
        const StageCosts& c = at[std::size_t(j)]->costs;
        for (int k = 0; k < vpp; ++k) {
            const std::size_t i = std::size_t(j * vpp + k);
            m.fwd[i] = c.fwd[i];
            m.bwd[i] = c.bwd[i];
            if (!m.wgrad.empty() && !c.wgrad.empty())
                m.wgrad[i] = c.wgrad[i];
        }
        m.parts[std::size_t(j)] = c.parts[std::size_t(j)];
        m.stageFwd[std::size_t(j)] = c.stageFwd[std::size_t(j)];
        m.stageBwd[std::size_t(j)] = c.stageBwd[std::size_t(j)];
        m.stageComm[std::size_t(j)] = c.stageComm[std::size_t(j)];
        m.p2p.seconds = std::max(m.p2p.seconds, c.p2p.seconds);
    }
    // Every stage is its own kind: stages on unlike pools differ.
    m.stageKind.resize(std::size_t(pp));
    std::iota(m.stageKind.begin(), m.stageKind.end(), 0);
    m.kindFirstStage = m.stageKind;
    if (pp < 2)
        return m;
    const PipelineReplicaConfig& rep = h.pipelines[e];
    const std::int64_t micro = at[0]->ctx->layout.microbatches;
    for (int j = 0; j + 1 < pp; ++j) {
        const int pa = rep.stages[std::size_t(j)].pool, pb = rep.stages[std::size_t(j + 1)].pool;
        if (alikePools(h, pa, pb) && !(h.poolLinkGbitPerS && pa != pb))
            continue;
        const double t = crossPoolP2pSeconds(sc, *at[std::size_t(j)], *at[std::size_t(j + 1)],
                                             crossLinkGbitPerNode(h, pa, pb));
        if (sc.parallel.overlap.pp) { // the schedule's edge delay
            m.p2p.seconds = std::max(m.p2p.seconds, t);
            continue;
        }
        const double extra = std::max(0.0, t - m.p2p.seconds);
        for (int k = 0; k < vpp; ++k) {
            m.fwd[std::size_t(j * vpp + k)] += extra;
            m.bwd[std::size_t((j + 1) * vpp + k)] += extra;
        }
        m.stageFwd[std::size_t(j)] += extra * vpp;
        m.stageBwd[std::size_t(j + 1)] += extra * vpp;
        m.parts[std::size_t(j)].pp += extra * vpp * double(micro);
        m.parts[std::size_t(j + 1)].pp += extra * vpp * double(micro);
    }
    return m;
}

// Stage j's gradient reduction across replicas on several pools over the pool link: a ring
// all-reduce (or reduce-scatter plus all-gather, the same bytes) of the stage's local
// gradients, 2 (R - 1) / R of them through each GPU's share of its node's pool link (Patarasuk
// and Yuan 2009; the ring's slowest link sets its bandwidth). With parallelism.overlap.dp the
// last micro-batch's backward hides what it can (Megatron-LM overlap_grad_reduce).
double crossPoolReduction(const ResolvedScenario& sc, const Runs& runs, std::size_t j,
                          const StageCosts& m, double& gbPerSPerGpu) {
    const HeteroConfig& h = *sc.hetero;
    std::set<int> pools;
    int sharing = 1 << 30; // GPUs of the stage on one node, sharing its link
    for (std::size_t e = 0; e < h.pipelines.size(); ++e) {
        pools.insert(h.pipelines[e].stages[j].pool);
        const int stageGpus = h.pipelines[e].stages[j].tp * sc.parallel.cp;
        sharing = std::min(sharing, std::min(stageGpus, runs.at[e][j]->view->cluster.gpusPerNode));
    }
    const int replicas = h.replicas();
    bool unlike = false;
    for (int a : pools)
        for (int b : pools)
            unlike = unlike || !alikePools(h, a, b) || (h.poolLinkGbitPerS && a != b);
    if (!unlike || replicas < 2)
        return 0;
    double link = std::numeric_limits<double>::infinity();
    for (int a : pools)
        for (int b : pools)
            if (a != b)
                link = std::min(link, crossLinkGbitPerNode(h, a, b));
    const StageRun& r = *runs.at[0][j];
    const double bytes = r.params.stageParams[j] * r.ctx->gradBytes;
    gbPerSPerGpu = link / 8.0 / double(std::max(1, sharing));
    const double t = 2.0 * (replicas - 1) / replicas * bytes / (gbPerSPerGpu * 1e9);
    return sc.parallel.overlap.dp ? std::max(0.0, t - m.stageBwd[j]) : t;
}

struct Schedules {
    std::vector<StageCosts> costs;
    std::vector<StepTail> tails;
    std::vector<Estimate> est;
    std::vector<ScheduleResult> result;
    std::vector<std::vector<double>> end; // [entry][stage], with the synchronised tail
    std::size_t straggler = 0, stragglerStage = 0;
    double step = 0;
};

void synchronise(const ResolvedScenario& sc, const Runs& runs, Schedules& s,
                 std::vector<Message>& warnings) {
    const HeteroConfig& h = *sc.hetero;
    const std::size_t entries = h.pipelines.size(), pp = runs.at[0].size();
    for (std::size_t j = 0; j < pp; ++j) {
        double dp = 0, start = 0;
        for (std::size_t e = 0; e < entries; ++e) {
            dp = std::max(dp, s.tails[e].postDp[j]);
            start = std::max(start, s.result[e].pipeline.stageEndSeconds[j]);
        }
        double gbPerS = 0;
        const double cross = crossPoolReduction(sc, runs, j, s.costs[0], gbPerS);
        if (cross > 0) {
            std::string names;
            std::set<int> seen;
            for (const PipelineReplicaConfig& rep : h.pipelines)
                if (seen.insert(rep.stages[j].pool).second)
                    names += (names.empty() ? "" : ", ") + h.pools[rep.stages[j].pool].id;
            char bw[32];
            std::snprintf(bw, sizeof bw, "%.2f", gbPerS);
            warnings.push_back(
                message(MessageId::HeteroCrossPoolReduction, {std::to_string(j), names, bw}));
        }
        dp = std::max(dp, cross);
        for (std::size_t e = 0; e < entries; ++e) {
            StepTail& t = s.tails[e];
            t.postDp[j] = dp;
            // A replica that finished earlier waits for the last one at the reduction.
            s.end[e][j] = start + dp + t.postOpt[j] + t.postOffload[j];
            if (s.end[e][j] > s.step) {
                s.step = s.end[e][j];
                s.stragglerStage = j;
            }
        }
    }
    double latest = -1;
    for (std::size_t e = 0; e < entries; ++e)
        if (double t = s.result[e].pipeline.stageEndSeconds[s.stragglerStage]; t > latest) {
            latest = t;
            s.straggler = e;
        }
}

Schedules runSchedules(const ResolvedScenario& sc, const Runs& runs,
                       std::vector<Message>& warnings) {
    Schedules s;
    const std::size_t entries = sc.hetero->pipelines.size(), pp = runs.at[0].size();
    for (std::size_t e = 0; e < entries; ++e) {
        s.costs.push_back(mergedCosts(sc, runs, e));
        StepTail t;
        for (std::size_t j = 0; j < pp; ++j) {
            const StepTail& own = runs.at[e][j]->tail;
            t.postDp.push_back(own.postDp[j]);
            t.postOpt.push_back(own.postOpt[j]);
            t.postOffload.push_back(own.postOffload[j]);
        }
        s.tails.push_back(std::move(t));
        s.est.emplace_back();
        s.result.push_back(computeSchedule(*runs.at[e][0]->ctx, s.costs[e], s.tails[e], s.est[e]));
        s.end.emplace_back(pp, 0.0);
    }
    synchronise(sc, runs, s, warnings);
    // Each pipeline's breakdown, with the synchronised reduction; the straggler's stage is its
    // bottleneck rank (the most work: fillStepTime), where the step's pace is set.
    for (std::size_t e = 0; e < entries; ++e) {
        s.est[e].stageTimes.clear();
        fillStepTime(*runs.at[e][0]->ctx, s.costs[e], s.tails[e],
                     s.result[e].pipeline.stageBusySeconds, s.end[e], s.est[e]);
    }
    s.stragglerStage = std::size_t(s.est[s.straggler].breakdownStage);
    return s;
}

void addPoolMemory(const ResolvedScenario& sc, const Runs& runs, Estimate& est) {
    const HeteroConfig& h = *sc.hetero;
    HeteroReport& rep = *est.hetero;
    for (const ResolvedPool& p : h.pools)
        rep.perPool.push_back({p.id, 0.0, p.cluster.gpu.memoryGiB * double(1ull << 30), true});
    const std::size_t pp = runs.at[0].size();
    est.stages.assign(pp, StageMemory{});
    std::vector<double> stageRatio(pp, -1.0);
    double worst = -1;
    est.fits = true;
    for (std::size_t e = 0; e < h.pipelines.size(); ++e)
        for (std::size_t j = 0; j < pp; ++j) {
            const StageRun& r = *runs.at[e][j];
            const StageMemory& m = r.memory.stages[j];
            const double capacity = r.memory.capacityBytes;
            const double peak = m.bytes.total();
            PoolMemory& pm = rep.perPool[std::size_t(h.pipelines[e].stages[j].pool)];
            pm.peakBytes = std::max(pm.peakBytes, peak);
            pm.capacityBytes = capacity;
            pm.fits = pm.peakBytes <= capacity;
            est.fits = est.fits && peak <= capacity;
            const double ratio = peak / capacity;
            if (ratio > stageRatio[j]) {
                stageRatio[j] = ratio;
                est.stages[j] = m;
                est.stages[j].stage = int(j);
            }
            if (ratio > worst) {
                worst = ratio;
                est.peakBytes = peak;
                est.capacityBytes = capacity;
                est.peakStage = int(j);
                est.peakAllocatedBytes = m.allocatedBytes;
                est.peakReservedBytes = m.reservedBytes;
                est.peakActiveBytes = m.allocatedBytes;
                est.peakBreakdown = m.bytes;
                est.hostMemory = r.memory.hostMemory;
            }
        }
}

void addThroughputAndTraffic(const ResolvedScenario& sc, const Runs& runs, const Schedules& s,
                             Estimate& est) {
    const HeteroConfig& h = *sc.hetero;
    const std::size_t pp = runs.at[0].size();
    double used = 0, peak = 0;
    for (std::size_t e = 0; e < h.pipelines.size(); ++e)
        for (std::size_t j = 0; j < pp; ++j) {
            const double gpus = stageGpus(sc, h.pipelines[e], j);
            used += gpus;
            const StageRun& r = *runs.at[e][j];
            peak += gpus * densePeakTflops(r.view->cluster.gpu, sc.training.precision);
            const CommAccount& ca = s.costs[e].stageComm[j];
            // Per GPU: the stage's bytes over its pp-th share, as the uniform estimate averages.
            est.commBytesPerGpu.tp += gpus * ca.tp;
            est.commBytesPerGpu.cp += gpus * ca.cp;
            est.commBytesPerGpu.ep += gpus * ca.ep;
            est.commBytesPerGpu.pp += gpus * ca.pp;
            est.commBytesPerGpu.dp += gpus * ca.dp;
            est.commBytesByLink.scaleUp += gpus * ca.scaleUp;
            est.commBytesByLink.scaleOut += gpus * ca.scaleOut;
        }
    for (double* v : {&est.commBytesPerGpu.tp, &est.commBytesPerGpu.cp, &est.commBytesPerGpu.ep,
                      &est.commBytesPerGpu.pp, &est.commBytesPerGpu.dp})
        *v /= used;
    const TrainingConfig& train = sc.training;
    const double tokensPerStep = double(train.globalBatch) * double(train.seqLen);
    est.tokensPerS = tokensPerStep / est.stepSeconds;
    est.tokensPerSPerGpu = est.tokensPerS / used;
    const double flopsPerToken = runs.at[0][0]->lc.sparse
                                     ? sparseTrainingFlopsPerToken(sc.model, train.seqLen)
                                     : trainingFlopsPerToken(sc.model, train.seqLen);
    est.modelTflopsPerGpu = flopsPerToken * est.tokensPerSPerGpu / 1e12;
    // MFU against each pool's own peak, weighted by its GPUs: achieved over summed peaks.
    est.mfu = peak > 0 ? flopsPerToken * est.tokensPerS / 1e12 / peak : 0.0;
    if (train.tokens && *train.tokens > 0) {
        est.trainSteps = std::ceil(*train.tokens / tokensPerStep);
        est.trainDays = *est.trainSteps * est.stepSeconds / 86400.0;
    }
    HeteroReport& rep = *est.hetero;
    rep.usedGpus = std::int64_t(used);
    rep.unusedGpus = sc.cluster.numGpus - rep.usedGpus;
}

// The facility power of the whole job: the stages' traces are step functions (each sample holds
// until the next), so their sum holds at the union of their sample times.
std::vector<PowerSample> summedTrace(const std::vector<std::vector<PowerSample>>& traces) {
    std::vector<double> times;
    for (const auto& t : traces)
        for (const PowerSample& p : t)
            times.push_back(p.timeS);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    std::vector<PowerSample> out;
    out.reserve(times.size());
    for (double t : times) {
        double w = 0;
        for (const auto& trace : traces) {
            auto it = std::upper_bound(trace.begin(), trace.end(), t,
                                       [](double v, const PowerSample& p) { return v < p.timeS; });
            if (it != trace.begin())
                w += std::prev(it)->watts;
        }
        out.push_back({t, w});
    }
    return out;
}

// Energy and cost: each stage's GPUs at their own power and price, in the phases of that stage
// (its work from its parts, the rest of the step idle), summed (energy/EnergyEstimate.h).
void addPoolEnergy(const ResolvedScenario& sc, const Runs& runs, const Schedules& s,
                   Estimate& est) {
    const HeteroConfig& h = *sc.hetero;
    const std::size_t pp = runs.at[0].size();
    EnergyReport total;
    std::vector<std::vector<PowerSample>> traces;
    bool any = false;
    std::set<std::string> seen;
    for (const Message& w : est.warnings)
        seen.insert(w.english);
    for (std::size_t e = 0; e < h.pipelines.size(); ++e)
        for (std::size_t j = 0; j < pp; ++j) {
            const StageRun& r = *runs.at[e][j];
            ResolvedScenario part = *r.view;
            const double share = double(stageGpus(sc, h.pipelines[e], j)) /
                                 double(std::max<std::int64_t>(1, part.cluster.numGpus));
            part.cluster.numGpus = stageGpus(sc, h.pipelines[e], j);
            if (part.costs.networkW)
                *part.costs.networkW *= share;
            // The stage's phases as the uniform estimate takes them (energy/PowerModel.h
            // stagePhaseSeconds): the bottleneck rank's breakdown scaled by the stage's busy
            // time, the optimizer step whole.
            const Estimate& pipe = s.est[e];
            const double refBusy = pipe.stageTimes[std::size_t(pipe.breakdownStage)].busySeconds;
            const double f = refBusy > 0 ? pipe.stageTimes[j].busySeconds / refBusy : 1.0;
            Estimate one;
            one.stepSeconds = est.stepSeconds;
            one.tokensPerS = est.tokensPerS;
            one.trainSteps = est.trainSteps;
            one.time = pipe.time;
            for (double* v : {&one.time.compute, &one.time.recompute, &one.time.tpExposed,
                              &one.time.cpExposed, &one.time.epExposed, &one.time.ppExposed,
                              &one.time.dpExposed, &one.time.offloadExposed})
                *v *= f;
            one.memoryBoundComputeSeconds = pipe.memoryBoundComputeSeconds * f;
            // The stage's own operations, as stage 0 of a one-stage estimate (its power trace);
            // its breakdown is already scaled to its busy time above.
            StageTime own = pipe.stageTimes[j];
            own.stage = 0;
            one.stageTimes = {own};
            one.breakdownStage = 0;
            one.microbatches = pipe.microbatches;
            one.timelineMicrobatches = pipe.timelineMicrobatches;
            for (const TimelineEvent& ev : pipe.timeline)
                if (ev.stage == int(j)) {
                    TimelineEvent copy = ev;
                    copy.stage = 0;
                    one.timeline.push_back(copy);
                }
            addEnergyAndCost(part, one);
            if (!one.energyReport)
                continue;
            for (Message& w : one.warnings)
                if (seen.insert(w.english).second)
                    est.warnings.push_back(std::move(w));
            const auto add = [](std::optional<double>& to, const std::optional<double>& v) {
                if (v)
                    to = to.value_or(0.0) + *v;
            };
            add(est.stepJoules, one.stepJoules);
            add(est.avgPowerW, one.avgPowerW);
            add(est.trainKwh, one.trainKwh);
            add(est.trainCo2Kg, one.trainCo2Kg);
            add(est.trainUsd, one.trainUsd);
            const EnergyReport& er = *one.energyReport;
            traces.push_back(er.powerTrace);
            if (!any)
                total = er; // the first stage's phases, watts and grid figures
            else {
                total.stepJoules.gpus += er.stepJoules.gpus;
                total.stepJoules.hosts += er.stepJoules.hosts;
                total.stepJoules.network += er.stepJoules.network;
                total.stepJoules.cooling += er.stepJoules.cooling;
                total.gpuHoursPerStep += er.gpuHoursPerStep;
                total.usdPerHour += er.usdPerHour;
                add(total.trainGpuHours, er.trainGpuHours);
                add(total.trainElectricityUsd, er.trainElectricityUsd);
                add(total.stepCo2Kg, er.stepCo2Kg);
                total.stagePhases.insert(total.stagePhases.end(), er.stagePhases.begin(),
                                         er.stagePhases.end());
            }
            any = true;
        }
    if (!any)
        return;
    total.powerTrace = summedTrace(traces);
    total.traceEndS = est.stepSeconds;
    total.traceCoversStep = true;
    if (total.usdPerHour > 0)
        est.usdPerMillionTokens = usdPerMillionTokens(total.usdPerHour, est.tokensPerS);
    est.energyReport = std::move(total);
}

// The straggler's homogeneous view, estimated whole, gives the plan's modelling warnings
// (execution, experts, FP8); memory and energy warnings come from the pools' own figures.
void addWarnings(const ResolvedScenario& sc, const Runs& runs, const Schedules& s,
                 std::vector<Message> extra, Estimate& est) {
    (void)sc;
    const StageRun& r = *runs.at[s.straggler][s.stragglerStage];
    Estimate whole = estimateSupportedPlan(*r.view, r.set, *r.coll);
    std::set<std::string> seen;
    auto push = [&](Message m) {
        if (seen.insert(m.english).second)
            est.warnings.push_back(std::move(m));
    };
    for (const PoolMemory& pm : est.hetero->perPool)
        if (!pm.fits)
            push(message(MessageId::HeteroPoolDoesNotFit,
                         {pm.pool, gib(pm.peakBytes), gib(pm.capacityBytes)}));
    for (Message& w : whole.warnings)
        if (w.id != MessageId::DoesNotFit && w.id != MessageId::MemoryNearlyFull)
            push(std::move(w));
    if (runs.all.size() > 1) // stages or replicas differ
        push(message(MessageId::HeteroStraggler,
                     {std::to_string(s.straggler), std::to_string(s.stragglerStage),
                      est.hetero->straggler.pool}));
    if (est.hetero->unusedGpus > 0)
        push(message(MessageId::HeteroUnusedGpus, {std::to_string(est.hetero->unusedGpus)}));
    for (Message& m : extra)
        push(std::move(m));
}

} // namespace

std::optional<Estimate> estimateHeteroPlan(const ResolvedScenario& sc,
                                           const EstimatorSettings& settings, Diagnostics& diags) {
    Runs runs;
    if (!buildRuns(sc, settings, diags, runs))
        return std::nullopt;
    std::vector<Message> extra;
    Schedules s = runSchedules(sc, runs, extra);
    Estimate est = s.est[s.straggler];
    est.warnings.clear();
    est.hetero = HeteroReport{};
    HeteroReport& rep = *est.hetero;
    for (std::size_t e = 0; e < s.result.size(); ++e) {
        const std::vector<double>& ends = s.result[e].pipeline.stageEndSeconds;
        rep.perPipelineSeconds.push_back(*std::max_element(ends.begin(), ends.end()));
    }
    const HeteroConfig& h = *sc.hetero;
    rep.straggler = {
        int(s.straggler), int(s.stragglerStage),
        h.pools[std::size_t(h.pipelines[s.straggler].stages[s.stragglerStage].pool)].id};
    addPoolMemory(sc, runs, est);
    addThroughputAndTraffic(sc, runs, s, est);
    addWarnings(sc, runs, s, std::move(extra), est);
    est.stepJoules.reset();
    est.avgPowerW.reset();
    addPoolEnergy(sc, runs, s, est);
    return est;
}

} // namespace ts
