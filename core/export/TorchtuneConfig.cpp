// The recipe config torchtune v0.6.1 reads (`tune run RECIPE --config FILE`), in the key order
// of its own configs (recipes/configs/llama3_1/8B_lora_single_device.yaml, 8B_full.yaml,
// 70B_lora.yaml at the tag); every key is one the recipe reads (tests/check_export.py checks
// them against tests/data/torchtune/torchtune-v0.6.1.json).

#include "export/TorchtuneRecipe.h"

#include "export/ShellScript.h"

#include <yaml-cpp/yaml.h>

namespace ts {
namespace {

using Emitter = YAML::Emitter;

template <class V> void entry(Emitter& y, const char* key, const V& value) {
    y << YAML::Key << key << YAML::Value << value;
}

void nullEntry(Emitter& y, const char* key) {
    y << YAML::Key << key << YAML::Value << YAML::Null;
}

void component(Emitter& y, const char* key, const std::string& name) {
    y << YAML::Key << key << YAML::Value << YAML::BeginMap;
    entry(y, "_component_", name);
}

std::string builderName(const TorchtuneBuilder& b, const FinetuneConfig& f) {
    const char* prefix = f.method == FinetuneMethod::Qlora  ? "qlora_"
                         : f.method == FinetuneMethod::Lora ? "lora_"
                                                            : "";
    return std::string("torchtune.models.") + b.family + "." + prefix + b.builder;
}

// lora_attn_modules in torchtune's names (torchtune/modules/peft/_utils.py LORA_ATTN_MODULES).
std::vector<std::string> attentionModules(const FinetuneConfig& f) {
    std::vector<std::string> out;
    const std::pair<LoraTarget, const char*> names[] = {{LoraTarget::QProj, "q_proj"},
                                                        {LoraTarget::KProj, "k_proj"},
                                                        {LoraTarget::VProj, "v_proj"},
                                                        {LoraTarget::OProj, "output_proj"}};
    for (const auto& [target, name] : names)
        if (f.wraps(target))
            out.push_back(name);
    return out;
}

void model(Emitter& y, const TorchtuneBuilder& b, const FinetuneConfig& f) {
    component(y, "model", builderName(b, f));
    if (f.adapters()) {
        y << YAML::Key << "lora_attn_modules" << YAML::Value << YAML::Flow << attentionModules(f);
        entry(y, "apply_lora_to_mlp", f.wraps(LoraTarget::GateProj));
        entry(y, "apply_lora_to_output", f.wraps(LoraTarget::LmHead));
        entry(y, "lora_rank", f.loraRank);
        y << YAML::Key << "lora_alpha" << YAML::Value << num(f.loraAlpha);
        y << YAML::Key << "lora_dropout" << YAML::Value << "0.0"
          << YAML::Comment("the estimate has no dropout mask");
    }
    y << YAML::EndMap;
}

void checkpointer(Emitter& y, const TorchtuneBuilder& b) {
    component(y, "checkpointer", b.checkpointer);
    entry(y, "checkpoint_dir", b.checkpointDir);
    y << YAML::Key << "checkpoint_files" << YAML::Value;
    if (*b.maxFilename)
        y << YAML::BeginMap << YAML::Key << "filename_format" << YAML::Value << b.checkpointFiles
          << YAML::Key << "max_filename" << YAML::Value << YAML::DoubleQuoted << b.maxFilename
          << YAML::EndMap;
    else
        y << YAML::Flow << std::vector<std::string>{b.checkpointFiles};
    nullEntry(y, "recipe_checkpoint");
    entry(y, "output_dir", "${output_dir}");
    entry(y, "model_type", b.modelType);
    y << YAML::EndMap;
}

// Packed to max_seq_len, every sequence is seq_len tokens, as the estimate assumes; unpacked,
// torchtune pads each batch to its longest sample only and uses less memory.
void dataset(Emitter& y, const ExportOptions& options) {
    if (options.dataPath.empty()) {
        for (const char* line :
             {"PLACEHOLDER: Trainscape does not know your data. alpaca_cleaned_dataset (from the",
              "Hugging Face Hub) stands in: replace it with your dataset (torchtune.datasets.*),",
              "or export with a data path."})
            y << YAML::Newline << YAML::Comment(line);
        component(y, "dataset", "torchtune.datasets.alpaca_cleaned_dataset");
    } else {
        const auto& path = options.dataPath;
        const bool json = path.size() > 5 && (path.ends_with(".json") || path.ends_with(".jsonl"));
        component(y, "dataset", "torchtune.datasets.text_completion_dataset");
        entry(y, "source", json ? "json" : "text");
        y << YAML::Key << "data_files" << YAML::Value << YAML::DoubleQuoted << path;
        entry(y, "column", "text");
        entry(y, "split", "train");
    }
    y << YAML::Key << "packed" << YAML::Value << true
      << YAML::Comment("every sequence max_seq_len tokens, as planned");
    y << YAML::EndMap;
}

void optimizer(Emitter& y, const ResolvedScenario& plan) {
    if (plan.training.optimizer == OptimizerKind::Adam8bit) {
        component(y, "optimizer", "bitsandbytes.optim.PagedAdamW8bit");
    } else {
        component(y, "optimizer", "torch.optim.AdamW");
        // training.optimizer_impl through the one flag torchtune's configs set (fused); without
        // it torch.optim runs foreach. full_finetune_distributed raises on a fused optimizer
        // with tensor parallelism.
        const OptimizerImpl impl = plan.training.optimizerImpl;
        const bool tp = plan.parallel.tp > 1;
        if (impl == OptimizerImpl::Fused && !tp) {
            entry(y, "fused", true);
        } else {
            y << YAML::Key << "fused" << YAML::Value << false;
            if (impl != OptimizerImpl::Foreach) // what was planned cannot run: say so
                y << YAML::Comment(impl == OptimizerImpl::Fused
                                       ? "refused with tensor parallelism: foreach runs"
                                       : "no torchtune config sets for-loop: foreach runs");
        }
    }
    if (plan.finetune->adapters())
        entry(y, "weight_decay", 0.01);
    // The configs' learning rates (3e-4 LoRA, 2e-5 full), written with a decimal point so that
    // YAML 1.1 parsers read a float, not the string "3e-4".
    y << YAML::Key << "lr" << YAML::Value << (plan.finetune->adapters() ? "0.0003" : "0.00002");
    y << YAML::EndMap;
}

void training(Emitter& y, const ResolvedScenario& plan, const TorchtuneRecipe& recipe,
              const LaunchShape& shape) {
    const auto& t = plan.training;
    component(y, "lr_scheduler",
              "torchtune.training.lr_schedulers.get_cosine_schedule_with_warmup");
    entry(y, "num_warmup_steps", 100);
    y << YAML::EndMap;
    // execution.cross_entropy: "plain" is the whole-logits F.cross_entropy of the
    // torch.nn.CrossEntropyLoss configs, "chunked" torchtune's default. A Megatron-LM plan's
    // "fused" loss has no torchtune component: the recipe runs its chunked loss, as it runs
    // its own modules for the plan's layers, and the file says so.
    const CrossEntropy loss = plan.execution.crossEntropy;
    component(y, "loss",
              loss == CrossEntropy::Plain ? "torch.nn.CrossEntropyLoss"
                                          : "torchtune.modules.loss.CEWithChunkedOutputLoss");
    // execution.loss_chunks: the recipe sets the model's num_output_chunks from the loss's
    // (full_finetune_distributed.py at v0.6.1, `self._model.set_num_output_chunks`).
    if (loss == CrossEntropy::Chunked && plan.execution.lossChunks != kDefaultLossChunks)
        entry(y, "num_output_chunks", plan.execution.lossChunks);
    y << YAML::EndMap;
    if (loss == CrossEntropy::Fused)
        y << YAML::Comment("execution.cross_entropy \"fused\" (Megatron-LM's kernel) has no "
                           "torchtune component: its chunked loss runs instead");
    entry(y, "epochs", 1);
    if (shape.trainIters > 0)
        y << YAML::Key << "max_steps_per_epoch" << YAML::Value << shape.trainIters
          << YAML::Comment("training.tokens / (seq_len x global_batch)");
    else
        nullEntry(y, "max_steps_per_epoch");
    entry(y, "gradient_accumulation_steps", shape.gradAccum);
    nullEntry(y, "clip_grad_norm");
    entry(y, "compile", t.compiled());
    if (!recipe.adapters)
        entry(y, "optimizer_in_bwd", t.optimizerInBackward);
}

void environment(Emitter& y, const ResolvedScenario& plan, const TorchtuneRecipe& recipe) {
    const auto& p = plan.parallel;
    component(y, "metric_logger", "torchtune.training.metric_logging.DiskLogger");
    entry(y, "log_dir", "${output_dir}/logs");
    y << YAML::EndMap;
    entry(y, "log_every_n_steps", 1);
    entry(y, "log_peak_memory_stats", true);
    entry(y, "device", "cuda");
    entry(y, "dtype", plan.training.precision == Precision::Fp32 ? "fp32" : "bf16");
    entry(y, "enable_activation_checkpointing", p.recompute == RecomputeMode::Full);
    entry(y, "enable_activation_offloading", p.offload.activations == OffloadTarget::Cpu);
    if (!recipe.distributed)
        return;
    entry(y, "fsdp_cpu_offload", p.offload.params == OffloadTarget::Cpu);
    y << YAML::Key << "fsdp_reshard_after_forward" << YAML::Value << (p.zero >= 3)
      << YAML::Comment(p.zero >= 3 ? "ZeRO-3" : "ZeRO-2");
    if (p.tp > 1) {
        entry(y, "tensor_parallel_dim", p.tp);
        component(y, "tensor_parallel_plan", "torchtune.models.llama3.base_llama_tp_plan");
        y << YAML::EndMap;
    }
}

} // namespace

std::string torchtuneConfig(const ResolvedScenario& plan, const TorchtuneBuilder& builder,
                            const TorchtuneRecipe& recipe, const LaunchShape& shape,
                            const ExportOptions& options) {
    const FinetuneConfig& f = *plan.finetune;
    Emitter y;
    y.SetBoolFormat(YAML::TrueFalseBool);
    y.SetNullFormat(YAML::LowerNull);
    y << YAML::BeginMap;
    entry(y, "output_dir", "./outputs/" + jobName(plan, options));
    model(y, builder, f);
    component(y, "tokenizer", builder.tokenizer);
    entry(y, "path", builder.tokenizerPath);
    entry(y, "max_seq_len", plan.training.seqLen);
    y << YAML::EndMap;
    checkpointer(y, builder);
    entry(y, "resume_from_checkpoint", false);
    if (recipe.adapters)
        entry(y, "save_adapter_weights_only", true);
    dataset(y, options);
    nullEntry(y, "seed");
    entry(y, "shuffle", true);
    entry(y, "batch_size", plan.training.microBatch);
    optimizer(y, plan);
    training(y, plan, recipe, shape);
    environment(y, plan, recipe);
    y << YAML::EndMap;

    std::string text = "# torchtune v0.6.1 config for recipes/" + recipe.name +
                       ".py, generated by Trainscape " TRAINSCAPE_VERSION "\n";
    text += "# Scenario: " + commentText(plan.name.empty() ? "(unnamed)" : plan.name) + "\n";
    for (const auto& line : planSummary(plan, shape))
        text += "# " + line + "\n";
    const auto alternatives = torchtuneAlternatives(plan);
    if (!alternatives.empty()) {
        std::string names;
        for (const auto& a : alternatives)
            names += (names.empty() ? "" : ", ") + a;
        text += "# Model: " + names + " have these dimensions; " + builder.builder +
                " is written.\n# Set model.preset to choose another (its tokenizer and "
                "checkpoint follow).\n";
    }
    text += "# Weights, fetched first:\n";
    for (const auto& line : torchtuneDownload(builder))
        text += "#   " + line + "\n";
    text += "# Run: ./run_torchtune.sh (tune run " +
            (recipe.distributed ? "--nproc_per_node " + num(shape.gpusPerNode) + " " : "") +
            recipe.name + " --config torchtune.yaml)\n\n";
    return text + y.c_str() + "\n";
}

} // namespace ts
