// What torchtune v0.6.1's fine-tuning recipes cannot run, each refused by its scenario path
// with the setting that would run. Sources: recipes/lora_finetune_single_device.py,
// lora_finetune_distributed.py, full_finetune_single_device.py, full_finetune_distributed.py
// and torchtune/models/llama3/_component_builders.py at the tag.

#include "export/TorchtuneRecipe.h"

namespace ts {
namespace {

using Refusals = std::vector<ExportRefusal>;

void refuse(Refusals& r, std::string path, std::string message) {
    r.push_back({std::move(path), std::move(message)});
}

void refuseModel(const ResolvedScenario& plan, const TorchtuneBuilder* builder, Refusals& r) {
    const auto& m = plan.model;
    if (m.moe)
        refuse(r, "/model/moe",
               "torchtune v0.6.1 has no mixture-of-experts builder (its models are dense); "
               "export this plan to megatron, torchtitan or deepspeed");
    else if (!builder)
        refuse(r, "/model",
               "torchtune builds a model from a named builder, and none of v0.6.1's has these "
               "dimensions (" +
                   std::to_string(m.layers) + " layers, hidden " + num(m.hidden) + ", FFN " +
                   num(m.ffnHidden) + ", " + std::to_string(m.heads) + " heads, " +
                   std::to_string(m.kvHeads) + " KV heads, vocab " + num(m.vocab) +
                   (m.tiedEmbeddings ? ", tied" : "") + "); the Llama builders are " +
                   torchtuneBuilderNames());
}

// torchtune v0.6.1's losses: CEWithChunkedOutputLoss and torch.nn.CrossEntropyLoss;
// LinearCrossEntropyLoss is on main only (torchtune/modules/loss at bd2a0fc, in no tag).
void refuseLoss(const ResolvedScenario& plan, Refusals& r) {
    if (plan.execution.crossEntropy == CrossEntropy::LinearChunked)
        refuse(r, "/execution/cross_entropy",
               "torchtune v0.6.1 has no linear-chunked loss (LinearCrossEntropyLoss came after "
               "the tag): choose \"chunked\" (CEWithChunkedOutputLoss) or \"plain\"");
}

void refuseParallel(const ResolvedScenario& plan, const TorchtuneBuilder* builder,
                    const TorchtuneRecipe& recipe, Refusals& r) {
    refuseLoss(plan, r);
    const auto& p = plan.parallel;
    if (p.pp > 1)
        refuse(r, "/parallelism/pp",
               "torchtune's recipes have no pipeline parallelism: set pp 1 (FSDP shards the "
               "model over the data-parallel GPUs)");
    if (p.cp > 1)
        refuse(r, "/parallelism/cp",
               "torchtune v0.6.1's fine-tuning recipes have no context parallelism: set cp 1");
    if (p.tp > 1 && recipe.adapters)
        refuse(r, "/parallelism/tp",
               "lora_finetune_distributed has no tensor parallelism (only "
               "full_finetune_distributed reads tensor_parallel_dim): set tp 1");
    else if (p.tp > 1 && builder && !builder->tensorParallel)
        refuse(r, "/parallelism/tp",
               "torchtune's tensor-parallel plan (base_llama_tp_plan) is for Llama 3 and later; "
               "Llama 2 has none: set tp 1");
    if (p.tp > 1 && p.sequenceParallel)
        refuse(r, "/parallelism/sequence_parallel",
               "torchtune's base_llama_tp_plan shards the linear layers only and replicates the "
               "norms (no sequence parallelism): set sequence_parallel false");
    if (p.tp > 1 && p.overlap.tp)
        refuse(r, "/parallelism/overlap/tp",
               "torchtune's tensor parallelism is plain DTensor TP with no async overlap of its "
               "collectives: set overlap tp false");
    if (p.dp > 1 && p.zero < 2)
        refuse(r, "/parallelism/zero",
               "torchtune's distributed recipes shard with FSDP2 over every data-parallel GPU: "
               "zero 3 (fsdp_reshard_after_forward true) or 2 (false)");
    if (p.dp > 1 && p.dpShard > 0 && p.dpShard < p.dp)
        refuse(r, "/parallelism/dp_shard",
               "torchtune v0.6.1 shards over all data-parallel GPUs (no hybrid sharding): set "
               "dp_shard to null");
    // overlap.dp false only says the estimate hides no data-parallel traffic; FSDP2 prefetches
    // anyway, so the run is at most faster than estimated: nothing to refuse.
}

void refuseMemorySettings(const ResolvedScenario& plan, const TorchtuneRecipe& recipe,
                          Refusals& r) {
    const auto& p = plan.parallel;
    if (p.recompute == RecomputeMode::Selective)
        refuse(r, "/parallelism/recompute",
               "torchtune checkpoints whole transformer layers (enable_activation_checkpointing): "
               "use recompute full or none");
    if (p.recompute == RecomputeMode::Full && p.recomputeLayers &&
        *p.recomputeLayers < plan.model.layers / p.pp)
        refuse(r, "/parallelism/recompute_layers",
               "enable_activation_checkpointing checkpoints every layer: set recompute_layers "
               "to null");
    const auto& o = p.offload;
    if (o.activations == OffloadTarget::Nvme || o.params == OffloadTarget::Nvme ||
        o.optimizer == OffloadTarget::Nvme)
        refuse(r, "/parallelism/offload",
               "torchtune offloads to CPU memory only (no NVMe): use cpu or none");
    if (o.activations == OffloadTarget::Cpu && p.recompute != RecomputeMode::Full)
        refuse(r, "/parallelism/offload/activations",
               "torchtune offloads activations only with activation checkpointing on (the "
               "recipes raise otherwise): set recompute full, or offload activations none");
    const bool params = o.params == OffloadTarget::Cpu,
               optimizer = o.optimizer == OffloadTarget::Cpu;
    if ((params || optimizer) && !recipe.distributed)
        refuse(r, params ? "/parallelism/offload/params" : "/parallelism/offload/optimizer",
               "torchtune's single-device recipes keep parameters and optimizer states on the "
               "GPU (fsdp_cpu_offload is a distributed-recipe setting): set offload none, or use "
               "2 GPUs or more");
    else if (params != optimizer)
        refuse(r, params ? "/parallelism/offload/optimizer" : "/parallelism/offload/params",
               "torchtune's fsdp_cpu_offload (FSDP2 CPUOffloadPolicy) moves parameters, "
               "gradients and optimizer states to the CPU together: set offload params and "
               "optimizer both cpu or both none");
}

void refuseTraining(const ResolvedScenario& plan, const TorchtuneRecipe& recipe,
                    const LaunchShape& shape, Refusals& r) {
    const auto& t = plan.training;
    if (t.precision != Precision::Bf16 && t.precision != Precision::Fp32)
        refuse(r, "/training/precision",
               "torchtune's recipes train in dtype bf16 or fp32 (fp16 and FP8 are refused by "
               "the recipes at v0.6.1): use bf16 or fp32");
    else if (t.precision == Precision::Fp32 && recipe.adapters)
        refuse(r, "/training/precision",
               "torchtune's lora_ builders hold the frozen base in dtype, so fp32 keeps a 32-bit "
               "base that base_weights cannot say: use bf16 (a GPU without BF16 is refused when "
               "the scenario is read)");
    if (t.precision == Precision::Bf16 && t.masterWeights)
        refuse(r, "/training/master_weights",
               "torchtune keeps weights, gradients and optimizer states in dtype bf16, with no "
               "FP32 master copy: set master_weights false");
    if (t.optimizer == OptimizerKind::Sgd || t.optimizer == OptimizerKind::Adafactor)
        refuse(r, "/training/optimizer",
               "torchtune v0.6.1's recipe configs train with torch.optim.AdamW or bitsandbytes' "
               "PagedAdamW8bit: use adam or adam8bit");
    else if (t.optimizer == OptimizerKind::Adam8bit && recipe.distributed)
        refuse(r, "/training/optimizer",
               "torchtune v0.6.1 ships 8-bit AdamW (bitsandbytes PagedAdamW8bit) in its "
               "single-device configs only; its distributed recipes shard parameters as FSDP2 "
               "DTensors: use adam, or one GPU");
    if (t.optimizerInBackward && recipe.adapters)
        refuse(r, "/training/optimizer_in_backward",
               "torchtune's LoRA recipes step the optimizer after the backward (optimizer_in_bwd "
               "is read by the full fine-tuning recipes only): set it false");
    else if (t.optimizerInBackward && shape.gradAccum > 1)
        refuse(r, "/training/global_batch",
               "optimizer_in_bwd needs gradient_accumulation_steps 1 (the recipes raise "
               "otherwise): set global_batch to micro_batch x dp");
}

void refuseAdapters(const ResolvedScenario& plan, const TorchtuneBuilder* builder, Refusals& r) {
    const auto& f = *plan.finetune;
    if (f.method == FinetuneMethod::Qlora && f.baseWeights != BaseWeights::Nf4)
        refuse(r, "/finetune/base_weights",
               "torchtune's qlora_ builders store the base in NF4 (torchao): set nf4");
    else if (f.method == FinetuneMethod::Lora && f.baseWeights != BaseWeights::Bf16)
        refuse(r, "/finetune/base_weights",
               "torchtune's lora_ builders keep the base in the training dtype (bf16); a "
               "quantised base is method qlora (NF4): set bf16 or method qlora");
    if (f.baseWeights == BaseWeights::Nf4 && !f.doubleQuant)
        refuse(r, "/finetune/double_quant",
               "torchao's NF4Tensor, which torchtune's QLoRA uses, always quantises its block "
               "scales again: set double_quant true");
    if (!f.adapters())
        return;
    const bool gate = f.wraps(LoraTarget::GateProj), up = f.wraps(LoraTarget::UpProj),
               down = f.wraps(LoraTarget::DownProj);
    if (gate != up || up != down)
        refuse(r, "/finetune/lora_targets",
               "torchtune's apply_lora_to_mlp wraps the MLP's w1, w2 and w3 (gate_proj, "
               "down_proj, up_proj) together: list all three or none");
    if (!f.wraps(LoraTarget::QProj) && !f.wraps(LoraTarget::KProj) && !f.wraps(LoraTarget::VProj) &&
        !f.wraps(LoraTarget::OProj))
        refuse(r, "/finetune/lora_targets",
               "torchtune's LoRA attention builder needs one or more of q_proj, k_proj, v_proj, "
               "o_proj (lora_attn_modules; it raises on an empty list)");
    if (f.wraps(LoraTarget::LmHead) && builder && !builder->loraOnOutput)
        refuse(r, "/finetune/lora_targets",
               std::string(builder->builder) +
                   " ties its output to the embedding and raises on apply_lora_to_output: "
                   "remove lm_head");
}

} // namespace

TorchtuneRecipe torchtuneRecipe(const ResolvedScenario& plan, const LaunchShape& shape) {
    TorchtuneRecipe recipe;
    recipe.adapters = plan.finetune && plan.finetune->adapters();
    recipe.distributed = shape.world > 1;
    recipe.name = std::string(recipe.adapters ? "lora" : "full") + "_finetune_" +
                  (recipe.distributed ? "distributed" : "single_device");
    return recipe;
}

void refuseForTorchtune(const ResolvedScenario& plan, const TorchtuneBuilder* builder,
                        const TorchtuneRecipe& recipe, const LaunchShape& shape, Refusals& r) {
    if (!plan.finetune) {
        refuse(r, "/finetune",
               "torchtune fine-tunes a pretrained checkpoint (full, LoRA and QLoRA recipes); "
               "this plan pre-trains: add a finetune section, or export to megatron or "
               "torchtitan");
        return;
    }
    refuseModel(plan, builder, r);
    refuseParallel(plan, builder, recipe, r);
    refuseMemorySettings(plan, recipe, r);
    refuseTraining(plan, recipe, shape, r);
    refuseAdapters(plan, builder, r);
}

} // namespace ts
