// Megatron-LM's pipeline and data-parallel flags (core_v0.15.0 megatron/training/arguments.py),
// with the refusals of what it cannot run.

#include "export/LaunchShape.h"
#include "export/MegatronArgs.h"

#include <algorithm>
#include <string>

namespace ts {
namespace {

// --pipeline-model-parallel-layout: one '|'-separated group per virtual stage in chunk
// order, 't' per transformer layer, 'E' the embedding on the first and 'L' the loss on the
// last (megatron/core/transformer/pipeline_parallel_layer_layout.py).
std::string pipelineLayout(const std::vector<int>& chunks) {
    std::string out;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        if (i > 0)
            out += '|';
        if (i == 0)
            out += 'E';
        out += std::string(std::size_t(chunks[i]), 't');
        if (i + 1 == chunks.size())
            out += 'L';
    }
    return out;
}

bool allEqual(const std::vector<int>& v) {
    return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end();
}

} // namespace

void pipelineArgs(const ResolvedScenario& plan, std::vector<CliArg>& a,
                  std::vector<ExportRefusal>& refusals) {
    const auto& p = plan.parallel;
    switch (p.schedule) {
    case PipelineScheduleKind::OneFOneB:
    case PipelineScheduleKind::Interleaved:
        break;
    default:
        if (p.pp > 1)
            refusals.push_back({"/parallelism/schedule",
                                "Megatron-LM core_v0.15.0 runs 1F1B, interleaved when vpp > 1; "
                                "it has no \"" +
                                    std::string(enumName(p.schedule)) +
                                    "\" schedule; choose \"1f1b\" or \"interleaved\""});
    }
    if (p.pp <= 1)
        return;
    const bool even = allEqual(p.pipelineLayers);
    if (!even) {
        a.push_back({"--pipeline-model-parallel-layout", {pipelineLayout(p.pipelineLayers)}});
    } else if (p.vpp > 1) {
        a.push_back({"--num-layers-per-virtual-pipeline-stage",
                     {std::to_string(p.pipelineLayers.front())}});
    }
    // overlap_p2p_comm acts in the interleaved schedule only (core/pipeline_parallel/
    // schedules.py, core_v0.15.0): plain 1F1B blocks on its sends and receives.
    if (!p.overlap.pp && p.vpp > 1) {
        // arguments.py:608: "When interleaved schedule is used and p2p communication overlap
        // is disabled, pipeline-model-parallel size should be greater than 2".
        if (p.pp == 2)
            refusals.push_back({"/parallelism/overlap/pp",
                                "Megatron-LM's interleaved schedule without p2p overlap needs "
                                "pp > 2 (arguments.py:608, core_v0.15.0): set overlap pp to true, "
                                "or pp > 2"});
        a.push_back({"--no-overlap-p2p-communication", {}});
    }
    if (p.overlap.pp && p.vpp == 1)
        refusals.push_back({"/parallelism/overlap/pp",
                            "Megatron-LM overlaps pipeline sends with compute only in the "
                            "interleaved schedule (vpp > 1); set overlap pp to false or vpp > 1"});
}

void dataParallelArgs(const ResolvedScenario& plan, std::vector<CliArg>& a,
                      std::vector<ExportRefusal>& refusals) {
    const auto& p = plan.parallel;
    const bool hybrid = p.dpShard > 0 && p.dpShard < p.dp;
    if (p.zero >= 2 && p.pp > 1)
        refusals.push_back(
            {"/parallelism/zero", "Megatron-LM shards gradients and parameters with Megatron-FSDP, "
                                  "which does not run with pipeline parallelism (pp " +
                                      std::to_string(p.pp) +
                                      "); use zero 1 (distributed optimizer) "
                                      "or pp 1"});
    if (p.zero == 1) {
        a.push_back({"--use-distributed-optimizer", {}});
        if (hybrid) // shards over dp_shard ranks, one copy per group (arguments.py:2696)
            a.push_back(
                {"--num-distributed-optimizer-instances", {std::to_string(p.dp / p.dpShard)}});
    } else if (p.zero >= 2) {
        a.push_back({"--use-megatron-fsdp", {}});
        a.push_back({"--data-parallel-sharding-strategy",
                     {p.zero == 2 ? "optim_grads" : "optim_grads_params"}});
        // Megatron-FSDP's optimizer shards through DistributedOptimizer (the flag Megatron's
        // FSDP README and its FSDP functional tests pass; --use-precision-aware-optimizer
        // asserts it, optimizer_config.py:224), and it saves only fsdp_dtensor checkpoints
        // ("Megatron FSDP only supports fsdp_dtensor checkpoint format", arguments.py:718).
        a.push_back({"--use-distributed-optimizer", {}});
        a.push_back({"--ckpt-format", {"fsdp_dtensor"}});
        if (hybrid)
            refusals.push_back({"/parallelism/dp_shard",
                                "Megatron-FSDP in core_v0.15.0 shards over the whole DP group; "
                                "set dp_shard to null (= dp) or use zero 1"});
    }
    if (p.zero == 0 && hybrid)
        refusals.push_back({"/parallelism/dp_shard", "without ZeRO nothing is sharded; set "
                                                     "dp_shard to null"});
    if (p.overlap.dp && p.dp > 1) {
        a.push_back({"--overlap-grad-reduce", {}});
        if (p.zero >= 1)
            a.push_back({"--overlap-param-gather", {}});
    }
    if (p.offload.optimizer == OffloadTarget::Cpu) {
        if (p.zero == 0)
            refusals.push_back({"/parallelism/offload/optimizer",
                                "Megatron-LM offloads the optimizer only with the distributed "
                                "optimizer; set zero to 1"});
        // arguments.py:1155: "--optimizer-cpu-offload requires --use-precision-aware-optimizer",
        // which runs Adam only (optimizer_config.py:220).
        if (plan.training.optimizer != OptimizerKind::Adam)
            refusals.push_back({"/training/optimizer",
                                "Megatron-LM offloads the optimizer with its precision-aware "
                                "optimizer, which runs Adam only (optimizer_config.py:220); "
                                "choose \"adam\" or no optimizer offload"});
        a.push_back({"--optimizer-cpu-offload", {}});
        a.push_back({"--optimizer-offload-fraction", {"1.0"}});
        a.push_back({"--use-precision-aware-optimizer", {}});
    } else if (p.offload.optimizer == OffloadTarget::Nvme) {
        refusals.push_back({"/parallelism/offload/optimizer",
                            "Megatron-LM offloads optimizer states to CPU memory only; use "
                            "\"cpu\" or the deepspeed target"});
    }
    if (p.offload.params != OffloadTarget::None)
        refusals.push_back({"/parallelism/offload/params",
                            "Megatron-LM core_v0.15.0 has no parameter offload; set it to "
                            "\"none\" or use the deepspeed target (ZeRO-3 offload_param)"});
    if (p.offload.activations != OffloadTarget::None)
        refusals.push_back({"/parallelism/offload/activations",
                            "Megatron-LM core_v0.15.0 has no activation offload flag; set it to "
                            "\"none\""});
}

} // namespace ts
