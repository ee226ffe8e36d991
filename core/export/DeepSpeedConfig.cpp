#include "export/DeepSpeedConfig.h"

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

void refuse(std::vector<ExportRefusal>& r, std::string path, std::string message) {
    r.push_back({std::move(path), std::move(message)});
}

// AutoEP (deepspeed/module_inject/auto_ep_presets, v0.19.5) replaces the MoE blocks of these
// Hugging Face model families with expert-parallel layers; the name is its preset_model.
std::string autoEpPreset(const ResolvedScenario& plan) {
    const std::string& id = plan.modelPreset;
    for (const auto& [prefix, preset] : {std::pair{"mixtral", "mixtral"},
                                         {"deepseek-v3", "deepseek_v3"},
                                         {"deepseek-v2", "deepseek_v2"},
                                         {"qwen3.5", "qwen3_5_moe"},
                                         {"qwen3", "qwen3_moe"}})
        if (id.rfind(prefix, 0) == 0)
            return preset;
    return {};
}

// AutoEP's limits (auto_ep_folding.py validate_folding_global and engine.py, v0.19.5).
void expertRefusals(const ResolvedScenario& plan, std::vector<ExportRefusal>& r) {
    const auto& p = plan.parallel;
    if (autoEpPreset(plan).empty()) {
        refuse(r, "/model/moe",
               "DeepSpeed's AutoEP shards the MoE blocks of the Hugging Face families it has "
               "presets for (mixtral, deepseek_v2, deepseek_v3, qwen3_moe, qwen3_5_moe); this "
               "model is none of them: use the megatron or torchtitan target");
        return;
    }
    if (p.etp != 1)
        refuse(r, "/parallelism/etp",
               "DeepSpeed AutoEP reserves expert_tensor_parallel_size for later: experts are "
               "not tensor-parallel; set etp to 1");
    if (p.tp > 1 && p.zero == 3)
        refuse(r, "/parallelism/zero",
               "DeepSpeed AutoEP with AutoTP does not run with ZeRO-3; set zero to 1 or 2");
    if (p.ep > 1 && p.overlap.ep)
        refuse(r, "/parallelism/overlap/ep",
               "DeepSpeed AutoEP runs its all-to-alls in line with the expert compute; set "
               "overlap ep to false");
    if (p.moeDispatchFp8)
        refuse(r, "/parallelism/moe_dispatch_fp8",
               "DeepSpeed AutoEP dispatches tokens in the training precision; it has no FP8 "
               "all-to-all: set it to false");
}

// deepspeed/runtime/utils.py partition_uniform (v0.19.5): the first layers % stages stages
// take one layer more. That is the one uneven split the "uniform" partition gives.
bool uniformPartition(const std::vector<int>& chunks, int layers) {
    const int stages = int(chunks.size());
    for (int s = 0; s < stages; ++s)
        if (chunks[std::size_t(s)] != layers / stages + (s < layers % stages ? 1 : 0))
            return false;
    return true;
}

// What DeepSpeed's engines cannot run from a config file: its pipeline engine is 1F1B without
// interleaving and refuses ZeRO-2/3 (runtime/pipe/engine.py), AutoTP has no Megatron sequence
// parallelism, Ulysses is its only context parallelism, and MoE layers are model code.
void planRefusals(const ResolvedScenario& plan, std::vector<ExportRefusal>& r) {
    const auto& p = plan.parallel;
    const auto& t = plan.training;
    if (t.precision != Precision::Bf16 && t.precision != Precision::Fp16 &&
        t.precision != Precision::Fp32)
        refuse(r, "/training/precision",
               "a DeepSpeed config trains in fp32, fp16 or bf16 only; \"" +
                   std::string(enumName(t.precision)) +
                   "\" needs the megatron or torchtitan target");
    if (t.optimizer == OptimizerKind::Adafactor)
        refuse(r, "/training/optimizer", "DeepSpeed has no Adafactor; choose adam or sgd");
    if (p.recompute == RecomputeMode::Selective)
        refuse(r, "/parallelism/recompute",
               "DeepSpeed checkpoints whole layers (deepspeed.checkpointing); selective "
               "recompute needs Megatron-Core: use \"full\" or \"none\"");
    if (p.pp > 1) {
        if (p.vpp > 1)
            refuse(r, "/parallelism/vpp",
                   "DeepSpeed's pipeline engine has no interleaving; set "
                   "vpp to 1");
        if (p.zero >= 2)
            refuse(r, "/parallelism/zero",
                   "DeepSpeed's pipeline engine runs with ZeRO 0 or 1 "
                   "only; set zero to 0 or 1, or pp to 1");
        if (p.schedule != PipelineScheduleKind::OneFOneB && p.vpp == 1)
            refuse(r, "/parallelism/schedule", "DeepSpeed's pipeline engine runs 1F1B only");
        if (p.vpp == 1 && !uniformPartition(p.pipelineLayers, plan.model.layers))
            refuse(r, "/parallelism/pipeline_layers",
                   "DeepSpeed's \"uniform\" partition (runtime/utils.py partition_uniform) "
                   "gives every stage layers / pp and the first layers % pp stages one more; "
                   "use that split");
        if (p.overlap.pp)
            refuse(r, "/parallelism/overlap/pp",
                   "DeepSpeed's pipeline engine waits on each send and receive "
                   "(runtime/pipe/p2p.py); set overlap pp to false");
        if (p.tp > 1)
            refuse(r, "/parallelism/tp",
                   "DeepSpeed's AutoTP does not combine with its pipeline "
                   "engine; use tp 1 or the megatron target");
    }
    if (p.tp > 1 && p.sequenceParallel)
        refuse(r, "/parallelism/sequence_parallel",
               "DeepSpeed AutoTP has no Megatron-style sequence parallelism; set it to false");
    if (p.cp > 1 && p.cpComm != CpCommType::A2A)
        refuse(r, "/parallelism/cp_comm",
               "DeepSpeed's context parallelism is Ulysses "
               "(sequence_parallel_size): set cp_comm to \"a2a\"");
    if (plan.model.moe)
        expertRefusals(plan, r);
    if (p.offload.params != OffloadTarget::None && p.zero != 3)
        refuse(r, "/parallelism/offload/params",
               "DeepSpeed offloads parameters with ZeRO-3 "
               "only; set zero to 3");
    if (p.offload.optimizer != OffloadTarget::None && p.zero == 0)
        refuse(r, "/parallelism/offload/optimizer",
               "DeepSpeed offloads the optimizer with ZeRO "
               "1-3 only; set zero to at least 1");
    if (p.offload.activations == OffloadTarget::Nvme)
        refuse(r, "/parallelism/offload/activations",
               "DeepSpeed checkpoints activations to CPU "
               "memory only; use \"cpu\"");
    if (p.offload.activations == OffloadTarget::Cpu && p.recompute != RecomputeMode::Full)
        refuse(r, "/parallelism/offload/activations",
               "DeepSpeed's cpu_checkpointing moves "
               "checkpoints of full recompute; set "
               "recompute to \"full\"");
    if (p.dpShard > 0 && p.dpShard < p.dp && p.zero != 3)
        refuse(r, "/parallelism/dp_shard",
               "DeepSpeed shards over groups (MiCS, "
               "mics_shard_size) with ZeRO-3 only; set zero to 3 or "
               "dp_shard to null");
}

Json offloadJson(OffloadTarget target) {
    Json o = {{"device", std::string(enumName(target))}, {"pin_memory", true}};
    if (target == OffloadTarget::Nvme)
        o["nvme_path"] = "/local_nvme";
    return o;
}

} // namespace

Json deepSpeedConfig(const ResolvedScenario& plan, const LaunchShape& shape,
                     std::vector<ExportRefusal>& refusals) {
    planRefusals(plan, refusals);
    const auto& p = plan.parallel;
    const auto& t = plan.training;
    Json ds;
    // _batch_assertion (runtime/config.py:924-927, v0.19.5): train = micro x accumulation x the
    // world size the config is built with, which under AutoTP is DP only when the script passes
    // an mpu (DP x TP otherwise; activation checkpointing builds a second config with one).
    // With tp > 1 train_batch_size is left out, so that DeepSpeed derives it (config.py:953-957)
    // and the assertion holds with either world size; micro and accumulation set the batch.
    if (p.tp <= 1)
        ds["train_batch_size"] = t.globalBatch;
    ds["train_micro_batch_size_per_gpu"] = t.microBatch;
    ds["gradient_accumulation_steps"] = shape.gradAccum;
    ds["gradient_clipping"] = 1.0;
    ds["steps_per_print"] = 1;
    if (t.optimizer == OptimizerKind::Sgd) {
        ds["optimizer"] = {{"type", "SGD"}, {"params", {{"lr", 3.0e-4}, {"momentum", 0.9}}}};
        if (p.zero > 0) // torch.optim.SGD is not one of DeepSpeed's tested optimizers
            ds["zero_allow_untested_optimizer"] = true;
    } else {
        ds["optimizer"] = {
            {"type", "AdamW"},
            {"params",
             {{"lr", 3.0e-4}, {"betas", {0.9, 0.95}}, {"eps", 1e-8}, {"weight_decay", 0.1}}}};
    }
    if (t.precision == Precision::Bf16)
        ds["bf16"] = {{"enabled", true}};
    // training.grad_reduce_dtype, stated: the gradient accumulation dtype (runtime/config.py
    // get_data_types, "data_types": {"grad_accum_dtype"}).
    if (t.masterWeights && t.gradReduceDtype)
        ds["data_types"] = {
            {"grad_accum_dtype", *t.gradReduceDtype == GradReduceDtype::Bf16 ? "bf16" : "fp32"}};
    if (t.precision == Precision::Fp16)
        ds["fp16"] = {{"enabled", true}, {"loss_scale", 0}, {"initial_scale_power", 16}};
    Json zero = {{"stage", p.zero},
                 {"overlap_comm", p.overlap.dp && p.dp > 1},
                 {"contiguous_gradients", true},
                 {"reduce_scatter", true}};
    if (p.offload.optimizer != OffloadTarget::None)
        zero["offload_optimizer"] = offloadJson(p.offload.optimizer);
    if (p.offload.params != OffloadTarget::None)
        zero["offload_param"] = offloadJson(p.offload.params);
    if (p.zero == 3 && p.dpShard > 0 && p.dpShard < p.dp)
        zero["mics_shard_size"] = p.dpShard;
    ds["zero_optimization"] = zero;
    if (p.recompute == RecomputeMode::Full)
        ds["activation_checkpointing"] = {
            {"partition_activations", p.tp > 1},
            {"cpu_checkpointing", p.offload.activations == OffloadTarget::Cpu},
            {"contiguous_memory_optimization", false},
            {"number_checkpoints",
             p.recomputeLayers ? Json(*p.recomputeLayers) : Json(plan.model.layers / p.pp)},
            {"synchronize_checkpoint_boundary", false},
            {"profile", false}};
    if (p.pp > 1)
        ds["pipeline"] = {{"stages", p.pp}, {"partition", "uniform"}};
    if (p.tp > 1) // AutoTP training (DeepSpeed >= 0.16.4)
        ds["tensor_parallel"] = {{"autotp_size", p.tp}, {"tp_overlap_comm", p.overlap.tp}};
    if (p.cp > 1)
        ds["sequence_parallel_size"] = p.cp;
    if (plan.model.moe) // AutoEP: the expert_parallel section (module_inject/auto_ep_config.py)
        ds["expert_parallel"] = {{"enabled", true},
                                 {"autoep_size", p.ep},
                                 {"preset_model", autoEpPreset(plan)},
                                 {"expert_tensor_parallel_size", 1}};
    return ds;
}

} // namespace ts
