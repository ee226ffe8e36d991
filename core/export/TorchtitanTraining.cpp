// torchtitan v0.2.2 [training], [optimizer], [activation_checkpoint], [compile] and
// [quantize] sections (torchtitan/config/job_config.py).

#include "export/LaunchShape.h"

#include <toml++/toml.h>

namespace ts {
namespace {

void refuse(std::vector<ExportRefusal>& r, std::string path, std::string message) {
    r.push_back({std::move(path), std::move(message)});
}

// Activation checkpointing: "selective" with an integer N checkpoints every N-th layer
// (torchtitan/distributed/activation_checkpoint.py), so K recomputed layers of L per stage
// need L % K == 0 and L / K == N.
toml::table activationCheckpoint(const ResolvedScenario& plan, std::vector<ExportRefusal>& r) {
    const auto& p = plan.parallel;
    toml::table ac;
    if (p.recompute == RecomputeMode::None) {
        ac.insert("mode", "none");
    } else if (p.recompute == RecomputeMode::Selective) {
        ac.insert("mode", "selective");
        ac.insert("selective_ac_option", "op");
    } else if (!p.recomputeLayers) {
        ac.insert("mode", "full");
    } else {
        const int perStage = plan.model.layers / p.pp;
        const int k = *p.recomputeLayers;
        if (k <= 0 || plan.model.layers % p.pp != 0 || perStage % k != 0) {
            refuse(r, "/parallelism/recompute_layers",
                   "torchtitan recomputes every N-th layer (selective_ac_option N): " +
                       std::to_string(k) + " of " + std::to_string(perStage) +
                       " layers per stage is no such pattern; use a divisor of the layers per "
                       "stage or null");
        } else {
            ac.insert("mode", "selective");
            ac.insert("selective_ac_option", std::to_string(perStage / k));
        }
    }
    return ac;
}

void precision(const ResolvedScenario& plan, toml::table& training, toml::table& doc,
               std::vector<ExportRefusal>& r) {
    const auto& t = plan.training;
    toml::array converters;
    switch (t.precision) {
    case Precision::Fp32:
        training.insert("mixed_precision_param", "float32");
        break;
    case Precision::Fp16:
    case Precision::NvFp4:
        refuse(r, "/training/precision",
               "torchtitan trains in bfloat16 or float32 with optional "
               "float8 / MXFP8 linears; \"" +
                   std::string(enumName(t.precision)) + "\" has no setting");
        break;
    case Precision::Bf16:
        training.insert("mixed_precision_param", "bfloat16");
        break;
    case Precision::Fp8: {
        training.insert("mixed_precision_param", "bfloat16");
        if (t.fp8Recipe != Fp8Recipe::Tensorwise) {
            refuse(r, "/training/fp8_recipe",
                   "torchtitan's float8 linears (torchao) scale tensorwise or rowwise; \"" +
                       std::string(enumName(t.fp8Recipe)) + "\" has no recipe: use \"tensorwise\"");
            break;
        }
        converters.push_back("quantize.linear.float8");
        doc.insert(
            "quantize",
            toml::table{{"linear", toml::table{{"float8", toml::table{{"recipe_name", "tensorwise"},
                                                                      {"filter_fqns",
                                                                       toml::array{"output"}}}}}}});
        break;
    }
    case Precision::MxFp8:
        training.insert("mixed_precision_param", "bfloat16");
        converters.push_back("quantize.linear.mx");
        doc.insert("quantize",
                   toml::table{
                       {"linear",
                        toml::table{{"mx", toml::table{{"recipe_name", "mxfp8_cublas"},
                                                       {"filter_fqns", toml::array{"output"}}}}}}});
        break;
    }
    // FSDP2's reduce dtype (MixedPrecisionPolicy.reduce_dtype). torchtitan v0.2.2 declares
    // `mixed_precision_reduce: Literal["float32"]` (torchtitan/config/job_config.py, Training),
    // so its config manager rejects "bfloat16": bf16 gradients have no setting there.
    if (t.masterWeights && t.gradReduceDtype == GradReduceDtype::Bf16)
        refuse(r, "/training/grad_reduce_dtype",
               "torchtitan v0.2.2 reduces gradients in float32 only (training."
               "mixed_precision_reduce is Literal[\"float32\"] in job_config.py); set "
               "grad_reduce_dtype to \"fp32\" or use the megatron or deepspeed target");
    training.insert("mixed_precision_reduce", "float32");
    if (auto* model = doc["model"].as_table())
        model->insert("converters", converters);
}

} // namespace

void torchtitanTraining(const ResolvedScenario& plan, const LaunchShape& shape, toml::table& doc,
                        std::vector<ExportRefusal>& r) {
    const auto& t = plan.training;
    const auto& p = plan.parallel;
    // torchtitan v0.2.2's loss is cross_entropy_loss on the whole logits
    // (torchtitan/components/loss.py at the tag): no linear-chunked form.
    if (plan.execution.crossEntropy == CrossEntropy::LinearChunked)
        refuse(r, "/execution/cross_entropy",
               "torchtitan v0.2.2 computes the loss on the whole logits "
               "(components/loss.py cross_entropy_loss): choose \"plain\"");
    toml::table training;
    // Gradient accumulation is global / (local x dp) (torchtitan/train.py); with a pipeline,
    // one local batch holds every micro-batch of the step.
    training.insert("local_batch_size", p.pp > 1 ? t.microBatch * shape.gradAccum : t.microBatch);
    training.insert("global_batch_size", t.globalBatch);
    training.insert("seq_len", t.seqLen);
    training.insert("steps", shape.trainIters > 0 ? shape.trainIters : 100);
    training.insert("max_norm", 1.0);
    training.insert("dataset", "c4");
    const auto& o = p.offload;
    const bool cpuOffload = o.optimizer == OffloadTarget::Cpu && o.params == OffloadTarget::Cpu;
    if (!cpuOffload && (o.optimizer != OffloadTarget::None || o.params != OffloadTarget::None))
        refuse(r,
               o.optimizer != OffloadTarget::None ? "/parallelism/offload/optimizer"
                                                  : "/parallelism/offload/params",
               "torchtitan's enable_cpu_offload (FSDP2 CPUOffloadPolicy) moves parameters, "
               "gradients and optimizer states together: set offload optimizer and params both "
               "to \"cpu\" or both to \"none\"");
    if (o.activations != OffloadTarget::None)
        refuse(r, "/parallelism/offload/activations", "torchtitan has no activation offload");
    if (cpuOffload && p.zero < 2)
        refuse(r, "/parallelism/zero", "torchtitan's CPU offload needs FSDP2: set zero to 2 or 3");
    training.insert("enable_cpu_offload", cpuOffload);
    precision(plan, training, doc, r);
    doc.insert("training", std::move(training));
    if (t.optimizer != OptimizerKind::Adam)
        refuse(r, "/training/optimizer", "torchtitan's optimizers are Adam and AdamW; choose adam");
    // optimizer.implementation (torchtitan/config/job_config.py: "for-loop", "foreach",
    // "fused"); its foreach step holds a temporary the size of the second moments.
    const char* implementation = t.optimizerImpl == OptimizerImpl::Foreach   ? "foreach"
                                 : t.optimizerImpl == OptimizerImpl::ForLoop ? "for-loop"
                                                                             : "fused";
    doc.insert("optimizer", toml::table{{"name", "AdamW"},
                                        {"lr", 3.0e-4},
                                        {"eps", 1e-8},
                                        {"weight_decay", 0.1},
                                        {"implementation", implementation}});
    doc.insert("lr_scheduler", toml::table{{"warmup_steps", 200}});
    doc.insert("activation_checkpoint", activationCheckpoint(plan, r));
    // The scenario's training.compile (async TP without it is refused: TorchtitanExporter.cpp).
    // torchtitan's mxfp8 converter refuses compile with tp > 1 ("TP not yet supported with
    // torch.compile for mxfp8", components/quantization/mx.py:50-52).
    const bool compiled = plan.training.compiled();
    if (compiled && p.tp > 1 && t.precision == Precision::MxFp8)
        refuse(r, "/training/precision",
               "torchtitan's MXFP8 does not combine torch.compile with tp > 1 (mx.py:50-52), "
               "which async TP needs: use fp8, tp 1, or overlap tp false and compile false");
    doc.insert("compile",
               toml::table{{"enable", compiled}, {"components", toml::array{"model", "loss"}}});
    doc.insert("metrics", toml::table{{"log_freq", 1}});
    // Full fine-tuning: the base model's Hugging Face safetensors, beside its tokenizer
    // (job_config.py Checkpoint.initial_load_path / initial_load_in_hf).
    const std::string assets =
        doc["model"]["hf_assets_path"].value<std::string>().value_or("./assets/hf");
    if (plan.finetune)
        doc.insert("checkpoint", toml::table{{"enable", true},
                                             {"initial_load_path", assets},
                                             {"initial_load_model_only", true},
                                             {"initial_load_in_hf", true}});
    else
        doc.insert("checkpoint", toml::table{{"enable", false}});
}

} // namespace ts
