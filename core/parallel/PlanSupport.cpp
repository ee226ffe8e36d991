#include "parallel/PlanSupport.h"

#include "parallel/PipelineSchedule.h"

#include <numeric>
#include <optional>
#include <set>
#include <string>

namespace ts {

namespace {

// Offload (estimate/Offload.h): the ZeRO stage each kind runs with, and the host figures its
// time depends on. An unknown figure is an error at its cluster.host key, once.
void checkOffload(const ResolvedScenario& sc, Diagnostics& diags) {
    const OffloadConfig& o = sc.parallel.offload;
    const HostConfig& h = sc.cluster.host;
    const int zero = sc.parallel.zero;
    // Messages are built only for what is wrong: a plan search checks every plan it times.
    std::set<std::string> reported;
    const auto whatOf = [](const char* part, OffloadTarget t) {
        return std::string(part) + " offload to " + (t == OffloadTarget::Nvme ? "nvme" : "cpu");
    };
    const auto need = [&](const std::optional<double>& figure, const char* key, const char* part,
                          OffloadTarget t, const char* use) {
        if (figure || !reported.insert(key).second)
            return;
        diags.error(std::string("/cluster/host/") + key,
                    whatOf(part, t) + " needs " + use + ", which is unknown: set cluster.host." +
                        key + " or pick a cluster preset that has it");
    };
    const auto needLinks = [&](OffloadTarget t, const char* part) {
        need(h.pcieGBps, "pcie_gb_s", part, t, "the GPU-host link bandwidth per GPU");
        if (t == OffloadTarget::Nvme) {
            need(h.nvmeReadGBps, "nvme_read_gb_s", part, t, "the node's NVMe read bandwidth");
            need(h.nvmeWriteGBps, "nvme_write_gb_s", part, t, "the node's NVMe write bandwidth");
        }
    };
    if (o.optimizer != OffloadTarget::None) {
        // DeepSpeed runtime/zero/config.py: offload_optimizer is "valid for ZeRO stage 1, 2,
        // 3"; its NVMe swapping (ZeRO-Infinity) lives in the stage-3 optimizer (stage3.py,
        // PartitionedOptimizerSwapper).
        if (zero < 1)
            diags.error("/parallelism/offload/optimizer",
                        whatOf("optimizer", o.optimizer) +
                            " needs zero >= 1 (each rank offloads its shard of the optimizer "
                            "states): set parallelism.zero");
        else if (o.optimizer == OffloadTarget::Nvme && zero < 3)
            diags.error("/parallelism/offload/optimizer",
                        whatOf("optimizer", o.optimizer) +
                            " needs zero 3 (ZeRO-Infinity): set parallelism.zero to 3, or "
                            "offload the optimizer to cpu");
        needLinks(o.optimizer, "optimizer");
        need(h.memoryGBps, "memory_gb_s", "optimizer", o.optimizer,
             "the host memory bandwidth per node (the CPU optimizer step)");
    }
    if (o.params != OffloadTarget::None) {
        // DeepSpeed runtime/zero/config.py: offload_param is "valid only with stage 3".
        if (zero != 3)
            diags.error("/parallelism/offload/params",
                        whatOf("parameter", o.params) +
                            " needs zero 3 (parameters sharded and fetched layer by layer): "
                            "set parallelism.zero to 3");
        needLinks(o.params, "parameter");
    }
    if (o.activations != OffloadTarget::None)
        needLinks(o.activations, "activation");
}

} // namespace

bool checkPlanSupported(const ResolvedScenario& sc, Diagnostics& diags) {
    const std::size_t before = diags.errorCount();
    const auto notYet = [&](const std::string& path, const std::string& what) {
        diags.error(path, "not modelled yet: " + what + " (see issue 5)");
    };
    const ParallelConfig& p = sc.parallel;
    if (p.ep > 1 && !sc.model.moe)
        notYet("/parallelism/ep", "expert parallelism without experts");
    // Zero bubble runs ZB-H1 with one chunk per rank and ZB-V with two in a V (Qi et al. 2024,
    // arXiv 2401.10241, sec. 6: ZB-V is defined for exactly two chunks per rank).
    if (p.schedule == PipelineScheduleKind::ZeroBubble && p.vpp > 2)
        diags.error("/parallelism/vpp", "ZB-V uses exactly 2 chunks per rank; set vpp = 2 or use "
                                        "the interleaved schedule");
    checkOffload(sc, diags);
    if (sc.training.precision == Precision::NvFp4 && !sc.cluster.gpu.fp4Tflops)
        diags.error("/training/precision", "nvfp4 needs a GPU with an FP4 peak (fp4_tflops)");
    if ((sc.training.precision == Precision::Fp8 || sc.training.precision == Precision::MxFp8) &&
        sc.cluster.gpu.fp8Tflops <= 0)
        diags.error("/training/precision",
                    "fp8 needs a GPU with FP8 tensor cores (cluster.gpu.fp8_tflops > 0)");
    if (static_cast<int>(p.pipelineLayers.size()) != p.pp * p.vpp)
        diags.error("/parallelism/pipeline_layers",
                    "expected pp*vpp = " + std::to_string(p.pp * p.vpp) + " entries");
    const std::int64_t m = p.microbatchesPerStep(sc.training.globalBatch, sc.training.microBatch);
    if (m < 1)
        diags.error("/training/global_batch", "global_batch must be at least dp x micro_batch");
    else if (effectiveSchedule(p) == PipelineScheduleKind::Interleaved && m % p.pp != 0)
        // Megatron-LM's interleaved schedule runs micro-batches through the chunks in groups
        // of pp (schedules.py: "number of microbatches is not divisible by pipeline-parallel
        // size when using interleaved schedule").
        notYet("/training/global_batch",
               "the interleaved schedule with " + std::to_string(m) +
                   " micro-batches per step, not a multiple of pp = " + std::to_string(p.pp));
    return diags.errorCount() == before;
}

PipelineScheduleKind effectiveSchedule(const ParallelConfig& plan) {
    if (plan.schedule == PipelineScheduleKind::BreadthFirst ||
        plan.schedule == PipelineScheduleKind::ZeroBubble)
        return plan.schedule;
    if (plan.vpp > 1 && plan.schedule != PipelineScheduleKind::GPipe)
        return PipelineScheduleKind::Interleaved;
    if (plan.vpp <= 1 && plan.schedule == PipelineScheduleKind::Interleaved)
        return PipelineScheduleKind::OneFOneB;
    return plan.schedule;
}

PipelineLayout pipelineLayout(const ResolvedScenario& sc) {
    const ParallelConfig& p = sc.parallel;
    PipelineLayout l;
    l.stages = p.pp;
    l.chunks = p.vpp;
    l.layers.assign(static_cast<std::size_t>(p.pp) * p.vpp, 0);
    l.stageLayers.assign(p.pp, 0);
    const PipelineScheduleKind schedule = effectiveSchedule(p);
    for (int c = 0; c < p.vpp; ++c)
        for (int s = 0; s < p.pp; ++s) {
            const int n = p.pipelineLayers[static_cast<std::size_t>(
                chunkModelIndex(schedule, p.pp, p.vpp, s, c))];
            l.layers[static_cast<std::size_t>(s) * p.vpp + c] = n;
            l.stageLayers[s] += n;
        }
    l.microbatches = p.microbatchesPerStep(sc.training.globalBatch, sc.training.microBatch);
    return l;
}

GroupStrides groupStrides(const ParallelConfig& p) {
    GroupStrides g;
    g.tp = 1;
    g.cp = p.tp;
    g.dp = static_cast<long long>(p.tp) * p.cp;
    g.pp = g.dp * p.dp;
    return g;
}

} // namespace ts
