// Target "bridge": Megatron-Bridge (NVIDIA-NeMo/Megatron-Bridge tag v0.6.0) recipe overrides
// for scripts/training/run_recipe.py. Key names follow docs/megatron-lm-to-megatron-bridge.md
// at that tag (the official Megatron-LM flag -> Bridge key table); keys the table leaves out
// are the Megatron-Core TransformerConfig / DistributedDataParallelConfig fields the flags set.
// Every plan setting is written explicitly, false and null included, because a recipe has
// its own defaults. Bridge runs Megatron-Core, so it refuses what Megatron-LM refuses.

#include "export/BridgeRecipe.h"
#include "export/Exporters.h"
#include "export/LaunchEnvironment.h"
#include "export/LaunchShape.h"
#include "export/MegatronArgs.h"

namespace ts {
namespace {

using Overrides = std::vector<std::string>;

std::string boolText(bool b) {
    return b ? "true" : "false";
}

// The recipe stem (run_recipe.py --model) for the model presets Bridge ships a pretraining
// recipe for; every architecture key is overridden anyway, so others use vanilla_gpt.
std::string recipeStem(const std::string& preset) {
    if (preset == "llama3-8b")
        return "llama3_8b";
    if (preset == "llama3-70b")
        return "llama3_70b";
    if (preset == "llama3.1-405b")
        return "llama31_405b";
    if (preset == "gpt3-175b")
        return "gpt3_175b";
    if (preset == "deepseek-v3")
        return "deepseek_v3";
    return "vanilla_gpt";
}

// Fine-tuning recipes (<stem>_sft_config, <stem>_peft_config) exist for the Llama stems only
// (src/megatron/bridge/recipes/llama/__init__.py @ v0.6.0).
std::string fineTuningStem(const std::string& preset) {
    for (const auto& [id, stem] : {std::pair{"llama3-8b", "llama3_8b"},
                                   {"llama3.1-8b", "llama31_8b"},
                                   {"llama3-70b", "llama3_70b"},
                                   {"llama3.1-70b", "llama31_70b"},
                                   {"llama3.1-405b", "llama31_405b"}})
        if (preset == id)
            return stem;
    return {};
}

// LoRA's target modules: Megatron-Core's fused linear layers (LoRA.target_modules in
// src/megatron/bridge/peft/lora.py @ v0.6.0). q/k/v share linear_qkv and gate/up share
// linear_fc1, so those come in whole groups or not at all.
std::string loraModules(const FinetuneConfig& f, std::vector<ExportRefusal>& refusals) {
    using T = LoraTarget;
    const auto group = [&](std::initializer_list<T> members, const char* name, std::string& out) {
        int n = 0;
        for (T t : members)
            n += f.wraps(t) ? 1 : 0;
        if (n == int(members.size()))
            out += std::string(out.empty() ? "" : ",") + name;
        else if (n > 0)
            refusals.push_back({"/finetune/lora_targets",
                                std::string("Megatron-Core fuses these projections into ") + name +
                                    ": LoRA adapts all of them or none; list all or none"});
    };
    std::string modules;
    group({T::QProj, T::KProj, T::VProj}, "linear_qkv", modules);
    group({T::OProj}, "linear_proj", modules);
    group({T::GateProj, T::UpProj}, "linear_fc1", modules);
    group({T::DownProj}, "linear_fc2", modules);
    if (f.wraps(T::LmHead))
        refusals.push_back({"/finetune/lora_targets",
                            "Megatron-Bridge's LoRA adapts the decoder's linear layers, not the "
                            "output layer: remove lm_head"});
    return "[" + modules + "]";
}

std::string mixedPrecision(const TrainingConfig& t) {
    // src/megatron/bridge/training/mixed_precision.py @ v0.6.0 registered recipes.
    switch (t.precision) {
    case Precision::Fp32:
        return "null";
    case Precision::Fp16:
        return "fp16_mixed";
    case Precision::Bf16:
        return "bf16_mixed";
    case Precision::Fp8:
        return t.fp8Recipe == Fp8Recipe::Delayed      ? "bf16_with_fp8_delayed_scaling_mixed"
               : t.fp8Recipe == Fp8Recipe::Tensorwise ? "bf16_with_fp8_current_scaling_mixed"
                                                      : "bf16_with_fp8_subchannel_scaling_mixed";
    case Precision::MxFp8:
        return "bf16_with_mxfp8_mixed";
    case Precision::NvFp4:
        return "bf16_with_nvfp4_mixed";
    }
    return "bf16_mixed";
}

void put(Overrides& o, const std::string& key, const std::string& value) {
    o.push_back(key + "=" + value);
}

// The wave-3 keys as the TransformerConfig fields Bridge's GPT-OSS provider sets
// (src/megatron/bridge/models/gpt_oss/gpt_oss_provider.py @ 067f987: window_size
// (sliding_window - 1, 0), window_attn_skip_freq 2, softmax_type "learnable", add_bias_linear,
// activation_func_clamp_value 7.0, glu_linear_offset 1.0; docs/gpt-oss-keys-sources.md). Only
// what a plan states is written, so that other models' overrides stay as they were.
void modelKeyOverrides(const ResolvedScenario& plan, Overrides& o) {
    const auto& m = plan.model;
    if (m.slidingWindow) {
        put(o, "model.window_size", "[" + num(*m.slidingWindow - 1) + ",0]");
        if (m.windowLayers == WindowLayers::Alternate)
            put(o, "model.window_attn_skip_freq", "2");
    }
    if (m.attentionSinks)
        put(o, "model.softmax_type", "learnable");
    if (m.attentionBias != (m.mlp == MlpKind::Gelu) || (m.moe && m.moe->expertBias))
        put(o, "model.add_bias_linear", boolText(m.attentionBias)); // all or none (Megatron rule)
    if (m.mlp == MlpKind::ClampedSwiGlu) {
        put(o, "model.activation_func_clamp_value", "7.0");
        put(o, "model.glu_linear_offset", "1.0");
    }
    const ExecutionConfig& e = plan.execution;
    if (e.attentionBackend != AttentionBackend::Auto)
        put(o, "model.attention_backend",
            e.attentionBackend == AttentionBackend::Cudnn
                ? "fused"
                : std::string(enumName(e.attentionBackend)));
    if (!e.fp8WeightCache)
        put(o, "model.disable_parameter_transpose_cache", "true");
}

void modelOverrides(const ResolvedScenario& plan, Overrides& o) {
    const auto& m = plan.model;
    put(o, "model.num_layers", num(std::int64_t(m.layers)));
    put(o, "model.hidden_size", num(m.hidden));
    put(o, "model.ffn_hidden_size", num(m.ffnHidden));
    put(o, "model.num_attention_heads", num(std::int64_t(m.heads)));
    put(o, "model.num_query_groups", num(std::int64_t(m.kvHeads)));
    put(o, "model.kv_channels", num(std::int64_t(m.headDim)));
    put(o, "model.seq_length", num(plan.training.seqLen));
    put(o, "model.vocab_size", num(m.vocab));
    put(o, "model.gated_linear_unit", boolText(isGatedMlp(m.mlp)));
    put(o, "model.activation_func",
        m.mlp == MlpKind::ClampedSwiGlu ? "quick_gelu"
        : isGatedMlp(m.mlp)             ? "silu"
                                        : "gelu");
    modelKeyOverrides(plan, o);
    put(o, "model.share_embeddings_and_output_weights", boolText(m.tiedEmbeddings));
    if (m.mla) {
        put(o, "model.multi_latent_attention", "true");
        put(o, "model.q_lora_rank",
            m.mla->qLoraRank > 0 ? num(std::int64_t(m.mla->qLoraRank)) : "null");
        put(o, "model.kv_lora_rank", num(std::int64_t(m.mla->kvLoraRank)));
        put(o, "model.qk_head_dim", num(std::int64_t(m.mla->qkNopeHeadDim)));
        put(o, "model.qk_pos_emb_head_dim", num(std::int64_t(m.mla->qkRopeHeadDim)));
        put(o, "model.v_head_dim", num(std::int64_t(m.mla->vHeadDim)));
    }
    if (!m.moe) {
        put(o, "model.num_moe_experts", "null");
        return;
    }
    const auto& e = *m.moe;
    put(o, "model.num_moe_experts", num(std::int64_t(e.experts)));
    put(o, "model.moe_router_topk", num(std::int64_t(e.topK)));
    put(o, "model.moe_ffn_hidden_size", num(e.expertFfnHidden));
    put(o, "model.moe_shared_expert_intermediate_size",
        e.sharedExperts > 0 ? num(e.sharedExperts * e.expertFfnHidden) : "null");
    std::string freq = "[";
    for (int i = 0; i < m.layers; ++i)
        freq += std::string(i ? "," : "") + (i < e.firstDenseLayers ? "0" : "1");
    put(o, "model.moe_layer_freq", freq + "]");
    put(o, "model.moe_expert_capacity_factor", e.capacityFactor ? num(*e.capacityFactor) : "null");
    put(o, "model.moe_router_num_groups",
        e.groupCount() ? num(std::int64_t(e.groupCount())) : "null");
    put(o, "model.moe_router_group_topk",
        e.groupCount() ? num(std::int64_t(e.groupsPerTokenCount())) : "null");
}

void parallelOverrides(const ResolvedScenario& plan, Overrides& o) {
    const auto& p = plan.parallel;
    put(o, "model.tensor_model_parallel_size", std::to_string(p.tp));
    put(o, "model.pipeline_model_parallel_size", std::to_string(p.pp));
    put(o, "model.virtual_pipeline_model_parallel_size",
        p.vpp > 1 ? std::to_string(p.vpp) : "null");
    bool even = true;
    for (int layers : p.pipelineLayers)
        even = even && layers == p.pipelineLayers.front();
    if (p.pp > 1 && !even) {
        std::string layout;
        for (std::size_t i = 0; i < p.pipelineLayers.size(); ++i) {
            layout += i ? '|' : 'E';
            layout.append(std::size_t(p.pipelineLayers[i]), 't');
        }
        put(o, "model.pipeline_model_parallel_layout", layout + "L");
    }
    put(o, "model.context_parallel_size", std::to_string(p.cp));
    put(o, "model.cp_comm_type", std::string(enumName(p.cpComm)));
    put(o, "model.sequence_parallel", boolText(p.tp > 1 && p.sequenceParallel));
    put(o, "model.tp_comm_overlap", boolText(p.tp > 1 && p.overlap.tp));
    put(o, "model.overlap_p2p_comm", boolText(p.overlap.pp));
    put(o, "model.expert_model_parallel_size", std::to_string(p.ep));
    put(o, "model.expert_tensor_parallel_size", std::to_string(p.etp));
    put(o, "model.overlap_moe_expert_parallel_comm", boolText(p.ep > 1 && p.overlap.ep));
    const char* granularity = p.recompute == RecomputeMode::Full        ? "full"
                              : p.recompute == RecomputeMode::Selective ? "selective"
                                                                        : "null";
    put(o, "model.recompute_granularity", granularity);
    const bool full = p.recompute == RecomputeMode::Full;
    put(o, "model.recompute_method", !full ? "null" : p.recomputeLayers ? "block" : "uniform");
    put(o, "model.recompute_num_layers",
        !full               ? "null"
        : p.recomputeLayers ? std::to_string(*p.recomputeLayers / p.vpp)
                            : "1");
    const bool hybrid = p.dpShard > 0 && p.dpShard < p.dp;
    put(o, "ddp.use_distributed_optimizer", boolText(p.zero == 1));
    put(o, "optimizer.use_distributed_optimizer", boolText(p.zero == 1));
    put(o, "ddp.num_distributed_optimizer_instances",
        std::to_string(p.zero == 1 && hybrid ? p.dp / p.dpShard : 1));
    put(o, "ddp.use_megatron_fsdp", boolText(p.zero >= 2));
    put(o, "ddp.data_parallel_sharding_strategy",
        p.zero == 3   ? "optim_grads_params"
        : p.zero == 2 ? "optim_grads"
                      : "no_shard");
    put(o, "ddp.overlap_grad_reduce", boolText(p.overlap.dp && p.dp > 1));
    put(o, "ddp.overlap_param_gather", boolText(p.overlap.dp && p.dp > 1 && p.zero >= 1));
    const bool offload = p.offload.optimizer == OffloadTarget::Cpu;
    put(o, "optimizer.optimizer_cpu_offload", boolText(offload));
    put(o, "optimizer.optimizer_offload_fraction", offload ? "1.0" : "0.0");
}

} // namespace

std::string_view BridgeExporter::id() const {
    return "bridge";
}
std::string_view BridgeExporter::title() const {
    return "Megatron-Bridge / NeMo 2 (v0.6.0 recipe overrides)";
}
std::vector<std::string> BridgeExporter::fileNames() const {
    return {"run_bridge.sh"};
}

BridgeRecipe bridgeRecipe(const ResolvedScenario& plan, const LaunchShape& shape,
                          const ExportOptions& options, std::vector<ExportRefusal>& refusals) {
    BridgeRecipe recipe;
    {
        // Megatron-Core's limits, less what Bridge's config reaches and pretrain_gpt.py's flags
        // do not: the FP8 weight cache (model.disable_parameter_transpose_cache below).
        std::vector<ExportRefusal> core;
        (void)megatronArgs(plan, shape, options, core);
        for (ExportRefusal& r : core)
            if (r.path != "/execution/fp8_weight_cache")
                refusals.push_back(std::move(r));
    }
    const std::string tuneStem = plan.finetune ? fineTuningStem(plan.modelPreset) : std::string();
    if (plan.finetune && tuneStem.empty())
        refusals.push_back({"/model/preset", "Megatron-Bridge v0.6.0 has fine-tuning recipes for "
                                             "Llama 3 / 3.1 8B, 70B and 405B only; this model "
                                             "has none"});
    Overrides& o = recipe.overrides;
    if (plan.finetune && plan.finetune->adapters()) {
        put(o, "peft.dim", std::to_string(plan.finetune->loraRank));
        put(o, "peft.alpha", num(plan.finetune->loraAlpha));
        put(o, "peft.target_modules", loraModules(*plan.finetune, refusals));
    }
    modelOverrides(plan, o);
    parallelOverrides(plan, o);
    const auto& t = plan.training;
    put(o, "train.micro_batch_size", num(t.microBatch));
    put(o, "train.global_batch_size", num(t.globalBatch));
    put(o, "train.train_iters", "$TRAIN_ITERS");
    put(o, "dataset.seq_length", num(t.seqLen));
    put(o, "mixed_precision", mixedPrecision(t));
    // Every registered preset reduces bf16 runs' gradients in FP32 (bf16_mixed:
    // grad_reduce_in_fp32=True) and MixedPrecisionConfig.setup copies it over
    // ddp.grad_reduce_in_fp32 (training/mixed_precision.py @ v0.6.0,
    // update_config_with_precision_overrides), so no override states bf16 gradients.
    if (t.masterWeights && t.gradReduceDtype == GradReduceDtype::Bf16)
        refusals.push_back({"/training/grad_reduce_dtype",
                            "Megatron-Bridge v0.6.0's mixed-precision presets reduce gradients "
                            "in FP32 and reset ddp.grad_reduce_in_fp32; set "
                            "cfg.mixed_precision.grad_reduce_in_fp32 = False in the recipe's "
                            "Python as scripts/performance does, or use \"fp32\""});
    put(o, "optimizer.optimizer", t.optimizer == OptimizerKind::Sgd ? "sgd" : "adam");
    put(o, "optimizer.lr", "$LR");
    if (!options.dataPath.empty())
        put(o, "dataset.data_path", options.dataPath);
    // --mode lora loads <stem>_peft_config, sft <stem>_sft_config (run_recipe.py @ v0.6.0); a
    // fine-tuning recipe brings its own SFT dataset.
    if (plan.finetune) {
        put(o, "checkpoint.pretrained_checkpoint", "$PRETRAINED_CHECKPOINT");
        recipe.program = {"--model", tuneStem, "--mode",
                          plan.finetune->adapters() ? "lora" : "sft"};
        recipe.checkpoint = "/checkpoints/" + tuneStem;
    } else {
        recipe.program = {"--model", recipeStem(plan.modelPreset), "--mode", "pretrain"};
        if (options.dataPath.empty())
            recipe.program.insert(recipe.program.end(), {"--dataset", "mock"});
    }
    return recipe;
}

void bridgeVariables(ShellScript& s, const LaunchShape& shape, const ExportOptions& options,
                     const BridgeRecipe& recipe) {
    s.assignDefault("TRAIN_ITERS", num(shape.trainIters > 0 ? shape.trainIters : 100));
    s.assignDefault("LR", "3.0e-4");
    s.assignDefault("MEGATRON_BRIDGE",
                    options.megatronDir.empty() ? "/opt/Megatron-Bridge" : options.megatronDir);
    if (!recipe.checkpoint.empty()) {
        s.comment("Fine-tuning starts from the base model's Megatron checkpoint (convert a "
                  "Hugging Face one with Megatron-Bridge's AutoBridge).");
        s.assignDefault("PRETRAINED_CHECKPOINT", recipe.checkpoint);
    }
}

std::vector<CliArg> shellOverrides(const BridgeRecipe& recipe) {
    std::vector<CliArg> out;
    for (const auto& item : recipe.overrides) {
        const auto eq = item.find('=');
        const std::string value = item.substr(eq + 1);
        if (!value.empty() && value[0] == '$') // "key=${VAR}" as one double-quoted word
            out.push_back({item.substr(0, eq + 1) + "\"${" + value.substr(1) + "}\"", {}});
        else
            out.push_back({shellQuote(item), {}});
    }
    return out;
}

ExportResult BridgeExporter::render(const ResolvedScenario& plan,
                                    const ExportOptions& options) const {
    ExportResult result;
    const LaunchShape shape = launchShape(plan, result.refusals, FineTuning::FullAndLora);
    const BridgeRecipe recipe = bridgeRecipe(plan, shape, options, result.refusals);
    if (!result.refusals.empty())
        return result;
    ShellScript s;
    s.line("#!/usr/bin/env bash");
    s.comment(
        "Megatron-Bridge v0.6.0 run_recipe.py launch, generated by Trainscape " TRAINSCAPE_VERSION
        ".");
    s.comment("Scenario: " + (plan.name.empty() ? std::string("(unnamed)") : plan.name));
    for (const auto& line : planSummary(plan, shape))
        s.comment(line);
    s.comment("Every plan setting is a Hydra override; run on each node with NODE_RANK and "
              "MASTER_ADDR set; DRY_RUN=1 prints the command.");
    s.line("set -euo pipefail");
    s.line();
    // Megatron-FSDP refuses one connection (core_v0.15.0 arguments.py:715, which Bridge's
    // Megatron-Core config checks repeat); the others want 1 for TP overlap ordering.
    s.line(std::string("export CUDA_DEVICE_MAX_CONNECTIONS=") +
           megatronCudaConnections(megatronFsdp(plan)));
    s.assign("GPUS_PER_NODE", num(shape.gpusPerNode));
    s.assign("NNODES", num(shape.nodes));
    s.assignDefault("NODE_RANK", "0");
    s.assignDefault("MASTER_ADDR", "localhost");
    s.assignDefault("MASTER_PORT", "6000");
    bridgeVariables(s, shape, options, recipe);
    s.line();
    s.array("OVERRIDES", shellOverrides(recipe));
    s.line("CMD=(torchrun --nproc_per_node \"${GPUS_PER_NODE}\" --nnodes \"${NNODES}\"");
    s.line("    --node_rank \"${NODE_RANK}\" --master_addr \"${MASTER_ADDR}\" --master_port "
           "\"${MASTER_PORT}\"");
    std::string program;
    for (const auto& word : recipe.program)
        program += " " + word;
    s.line("    \"${MEGATRON_BRIDGE}/scripts/training/run_recipe.py\"" + program);
    s.line("    \"${OVERRIDES[@]}\")");
    s.line("if [[ \"${DRY_RUN:-0}\" == 1 ]]; then");
    s.line("    printf '%s\\n' \"${CMD[@]}\"");
    s.line("    exit 0");
    s.line("fi");
    s.line("exec \"${CMD[@]}\"");
    result.files.push_back({"run_bridge.sh", s.text(), FileSyntax::Shell, true});
    return result;
}

} // namespace ts
