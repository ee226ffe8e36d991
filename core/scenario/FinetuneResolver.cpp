#include "scenario/FinetuneResolver.h"

#include <algorithm>
#include <string>

namespace ts {

namespace {

std::string name(auto value) {
    std::string quoted(1, '"');
    quoted += enumName(value);
    quoted += '"';
    return quoted;
}

// Which PEFT module names the resolved model has (Llama-style naming). A GELU MLP has two
// matrices (up_proj, down_proj); MLA attention (DeepSeek-V2/V3) projects through latents
// (q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj) and has no k_proj or v_proj, nor a
// q_proj when queries are compressed.
std::string missingTargetReason(LoraTarget t, const ModelConfig& m) {
    if (t == LoraTarget::GateProj && m.mlp == MlpKind::Gelu)
        return "the model's MLP is \"gelu\" (two matrices: up_proj and down_proj), which has no "
               "gate_proj: remove it, or use mlp \"swiglu\"";
    const bool compressedQ = m.mla && m.mla->qLoraRank > 0;
    if (m.mla && (t == LoraTarget::KProj || t == LoraTarget::VProj ||
                  (t == LoraTarget::QProj && compressedQ)))
        return "MLA attention projects through latents (q_a_proj, q_b_proj, kv_a_proj_with_mqa, "
               "kv_b_proj) and has no " +
               std::string(enumName(t)) + ": target o_proj and the MLP modules";
    return {};
}

bool resolveAdapters(const FinetuneInput& in, const ModelConfig& model, FinetuneConfig& f,
                     Diagnostics& diags) {
    bool ok = true;
    f.loraRank = in.loraRank.value_or(8); // PEFT LoraConfig r = 8
    f.loraAlpha = in.loraAlpha.value_or(8.0);
    if (f.loraRank == 0) {
        diags.error("/finetune/lora_rank", "rank 0 adds no adapter: give a rank of 1 or more "
                                           "(LoRA ranks are typically 8 to 64)");
        ok = false;
    } else if (f.loraRank > model.hidden) {
        diags.error("/finetune/lora_rank",
                    "rank " + std::to_string(f.loraRank) + " exceeds the hidden size " +
                        std::to_string(model.hidden) +
                        ": a low-rank update is at most full rank; give at most " +
                        std::to_string(model.hidden) + " (typically 8 to 64)");
        ok = false;
    }
    const std::vector<LoraTarget> targets =
        in.loraTargets.value_or(std::vector<LoraTarget>{LoraTarget::QProj, LoraTarget::VProj});
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::string why = missingTargetReason(targets[i], model);
        if (why.empty())
            continue;
        diags.error(in.loraTargets ? "/finetune/lora_targets/" + std::to_string(i)
                                   : std::string("/finetune/lora_targets"),
                    name(targets[i]) + " is not a module of this model: " + why);
        ok = false;
    }
    f.targets = targets;
    std::sort(f.targets.begin(), f.targets.end());
    return ok;
}

// The frozen base's storage for LoRA / QLoRA; full fine-tuning trains the weights in the
// training precision and has no separate base.
bool resolveBaseWeights(const FinetuneInput& in, const ResolvedScenario& r, FinetuneConfig& f,
                        Diagnostics& diags) {
    const char* path = "/finetune/base_weights";
    const BaseWeights sixteen =
        r.training.precision == Precision::Fp16 ? BaseWeights::Fp16 : BaseWeights::Bf16;
    const bool quantised = [](BaseWeights b) {
        return b == BaseWeights::Nf4 || b == BaseWeights::Int8 || b == BaseWeights::Fp8;
    }(in.baseWeights.value_or(sixteen));
    switch (f.method) {
    case FinetuneMethod::Full:
        if (in.baseWeights && quantised) {
            diags.error(path, name(*in.baseWeights) +
                                  " stores a frozen, quantised base, but "
                                  "method \"full\" trains every weight: "
                                  "use method \"qlora\" (adapters on a " +
                                  name(*in.baseWeights) + " base), or remove base_weights");
            return false;
        }
        f.baseWeights = in.baseWeights.value_or(sixteen);
        break;
    case FinetuneMethod::Lora:
        if (in.baseWeights == BaseWeights::Nf4) {
            diags.error(path, "adapters on an \"nf4\" base are QLoRA: set method \"qlora\", or "
                              "base_weights \"bf16\" for LoRA");
            return false;
        }
        f.baseWeights = in.baseWeights.value_or(sixteen);
        break;
    case FinetuneMethod::Qlora:
        if (in.baseWeights && !quantised) {
            diags.error(path, "a QLoRA base is quantised: \"nf4\" (the default), \"int8\" or "
                              "\"fp8\"; for adapters on a 16-bit base set method \"lora\"");
            return false;
        }
        f.baseWeights = in.baseWeights.value_or(BaseWeights::Nf4);
        break;
    }
    if (f.baseWeights == BaseWeights::Bf16 && r.cluster.gpu.bf16Tflops <= 0) {
        diags.error(path, r.cluster.gpu.name + " has no BF16 support: store the base in "
                                               "\"fp16\" (or quantise it)");
        return false;
    }
    f.doubleQuant = in.doubleQuant.value_or(true);
    if (in.doubleQuant && f.baseWeights != BaseWeights::Nf4)
        diags.warning("/finetune/double_quant",
                      "has no effect without base_weights \"nf4\" (it quantises NF4's block "
                      "scales)");
    return true;
}

bool resolveSection(const FinetuneInput& in, ResolvedScenario& r, Diagnostics& diags) {
    if (!in.method)
        return false; // reported by the reader
    FinetuneConfig f;
    f.method = *in.method;
    bool ok = true;
    if (f.adapters()) {
        ok = resolveAdapters(in, r.model, f, diags);
    } else {
        for (const auto& [present, key] : {std::pair{in.loraRank.has_value(), "lora_rank"},
                                           std::pair{in.loraAlpha.has_value(), "lora_alpha"},
                                           std::pair{in.loraTargets.has_value(), "lora_targets"}}) {
            if (present) {
                diags.error(std::string("/finetune/") + key,
                            "only applies to method \"lora\" or \"qlora\"; method \"full\" "
                            "trains every weight: remove it, or choose an adapter method");
                ok = false;
            }
        }
    }
    if (!resolveBaseWeights(in, r, f, diags))
        ok = false;
    if (ok)
        r.finetune = f;
    return ok;
}

// training.grad_reduce_dtype: the main gradient buffer beside FP32 masters. "bf16" halves a
// 16-bit-weight run's gradients; FP32 and FP16 training keep their own.
bool resolveGradReduceDtype(const TrainingInput& t, TrainingConfig& training, Diagnostics& diags) {
    training.gradReduceDtype = t.gradReduceDtype;
    if (!t.gradReduceDtype)
        return true;
    if (!training.masterWeights) {
        diags.warning("/training/grad_reduce_dtype",
                      "has no effect with master_weights false: the gradients stay in the "
                      "training precision (" +
                          name(training.precision) + ")");
        return true;
    }
    const bool bf16Weights =
        training.precision != Precision::Fp32 && training.precision != Precision::Fp16;
    if (*t.gradReduceDtype == GradReduceDtype::Bf16 && !bf16Weights) {
        diags.error("/training/grad_reduce_dtype",
                    "\"bf16\" gradients need bf16 weights (precision bf16, fp8, mxfp8 or "
                    "nvfp4; now " +
                        name(training.precision) + "): use \"fp32\" or remove the key");
        return false;
    }
    return true;
}

} // namespace

bool resolveFinetune(const Scenario& s, ResolvedScenario& r, Diagnostics& diags) {
    const TrainingInput& t = s.training;
    TrainingConfig& training = r.training;
    training.optimizerInBackward = t.optimizerInBackward.value_or(false);
    training.optimizerImpl = t.optimizerImpl.value_or(OptimizerImpl::Fused);
    training.compile = t.compile;
    // Fine-tuning recipes keep parameters, gradients and optimizer states in the training
    // precision (torchtune "dtype: bf16"); pre-training frameworks keep FP32 masters.
    training.masterWeights = t.masterWeights.value_or(!s.finetune.has_value());
    // Megatron-Core fine-tunes with FP32 masters too (its optimizers hold FP32 main parameters
    // beside 16-bit weights: Float16OptimizerWithFloat16Params, DistributedOptimizer;
    // Megatron-Bridge's SFT and PEFT recipes set main_params_dtype float32). The default stays
    // the fine-tuning one, which the exports' plans and their imports share; say so.
    const bool statedMegatron =
        s.execution && s.execution->framework && *s.execution->framework == Framework::Megatron;
    if (s.finetune && statedMegatron && !t.masterWeights)
        diags.warning("/training/master_weights",
                      "false by default with a finetune section (states in the training "
                      "precision, as torchtune); Megatron-Core keeps FP32 master weights, "
                      "gradients and optimizer states: set it true for a Megatron job");
    bool ok = true;
    if (!resolveGradReduceDtype(t, training, diags))
        ok = false;
    if (training.precision == Precision::Bf16 && r.cluster.gpu.bf16Tflops <= 0) {
        diags.error("/training/precision", r.cluster.gpu.name +
                                               " has no BF16 support (bf16_tflops 0): use "
                                               "\"fp16\" (mixed precision with loss scaling)");
        ok = false;
    }
    const std::int64_t microbatches =
        r.parallel.dp > 0 && training.microBatch > 0
            ? r.parallel.microbatchesPerStep(training.globalBatch, training.microBatch)
            : 1; // the plan's own error is reported
    if (training.optimizerInBackward && microbatches > 1) {
        diags.error("/training/optimizer_in_backward",
                    "steps each weight as its gradient arrives, so it cannot accumulate "
                    "gradients over " +
                        std::to_string(microbatches) +
                        " micro-batches: make global_batch = dp x micro_batch = " +
                        std::to_string(r.parallel.dp * training.microBatch) +
                        ", or set it false (torchtune refuses optimizer_in_bwd with "
                        "gradient accumulation)");
        ok = false;
    }
    if (s.finetune && !resolveSection(*s.finetune, r, diags))
        ok = false;
    return ok;
}

} // namespace ts
