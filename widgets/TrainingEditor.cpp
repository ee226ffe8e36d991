#include "TrainingEditor.h"

#include "EnumLabels.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"
#include "ScenarioHeadline.h"

#include <QVBoxLayout>

namespace ts::gui {

namespace {

constexpr const char* kPrecision = "/training/precision";
constexpr const char* kFp8Recipe = "/training/fp8_recipe";

bool precisionIsFp8(const ScenarioDocument& document) {
    const std::optional<nlohmann::ordered_json> precision = document.effectiveValue(kPrecision);
    return precision && *precision == "fp8";
}

// Leaving "fp8" also removes the recipe, which core refuses with any other precision: one
// undo step for both.
FieldSpec precisionField(ScenarioDocument* document) {
    FieldSpec f = choiceField(kPrecision, TrainingEditor::tr("Precision"), EnumLabels::precision());
    f.changes = [document](const nlohmann::ordered_json& value) {
        std::vector<ScenarioValueChange> changes{{kPrecision, value}};
        if (value != "fp8" && document->explicitValue(kFp8Recipe))
            changes.push_back({kFp8Recipe, std::nullopt});
        return changes;
    };
    return f;
}

// Megatron-LM --fp8-recipe (MX scaling is the precision "mxfp8"); only with precision "fp8".
FieldSpec fp8RecipeField(ScenarioDocument* document) {
    FieldSpec f = choiceField(
        kFp8Recipe, TrainingEditor::tr("FP8 scaling"),
        {{TrainingEditor::tr("Delayed (per tensor, amax history)"), "delayed", true,
          TrainingEditor::tr("TransformerEngine DelayedScaling: scales from earlier "
                             "iterations, one cast pass per GEMM input")},
         {TrainingEditor::tr("Tensorwise (per tensor, current)"), "tensorwise", true,
          TrainingEditor::tr("Current scaling (TransformerEngine Float8CurrentScaling, torchao "
                             "tensorwise): an amax pass before each cast")},
         {TrainingEditor::tr("Blockwise (1×128 and 128×128 blocks)"), "blockwise", true,
          TrainingEditor::tr("TransformerEngine Float8BlockScaling, as DeepSeek-V3: FP32 "
                             "scales per block")}},
        TrainingEditor::tr("How FP8 GEMM inputs are scaled (Megatron-LM --fp8-recipe; needs "
                           "precision FP8)"));
    f.enabledWhen = [document] { return precisionIsFp8(*document); };
    return f;
}

constexpr const char* kFinetune = "/finetune";
constexpr const char* kMethod = "/finetune/method";

bool adapterMethod(const ScenarioDocument& document) {
    const std::optional<nlohmann::ordered_json> method = document.effectiveValue(kMethod);
    return method && (*method == "lora" || *method == "qlora");
}

// Method: none (pre-training), full, LoRA or QLoRA. The whole "finetune" object is written in
// one undo step: "full" drops the adapter keys (refused with it), a change of method drops
// base_weights (its default follows the method), and "none" removes the section.
FieldSpec methodField(ScenarioDocument* document) {
    FieldSpec f = choiceField(
        kMethod, TrainingEditor::tr("Method"),
        {{TrainingEditor::tr("None (pre-training)"), nullptr, true,
          TrainingEditor::tr("Every weight trains with full optimizer states")},
         {TrainingEditor::tr("Full fine-tuning"), "full", true,
          TrainingEditor::tr("Every weight trains; states in the training precision")},
         {TrainingEditor::tr("LoRA"), "lora", true,
          TrainingEditor::tr("Low-rank adapters on a frozen 16-bit base (Hu et al. 2021)")},
         {TrainingEditor::tr("QLoRA"), "qlora", true,
          TrainingEditor::tr("Adapters on a 4-bit NF4 base (Dettmers et al. 2023)")}},
        TrainingEditor::tr("Which weights train (the scenario's finetune section)"));
    f.changes = [document](const nlohmann::ordered_json& value) {
        std::vector<ScenarioValueChange> changes;
        if (value.is_null()) {
            if (document->explicitValue(kFinetune))
                changes.push_back({kFinetune, std::nullopt});
            return changes;
        }
        nlohmann::ordered_json section = nlohmann::ordered_json::object();
        section["method"] = value;
        if (value != "full")
            for (const char* key : {"lora_rank", "lora_alpha", "lora_targets"})
                if (auto v = document->explicitValue(std::string(kFinetune) + "/" + key))
                    section[key] = *v;
        changes.push_back({kFinetune, section});
        return changes;
    };
    return f;
}

// Common choices of adapter targets (Hugging Face PEFT names, in the format's order).
FieldSpec targetsField(ScenarioDocument* document) {
    using Json = nlohmann::ordered_json;
    FieldSpec f = choiceField(
        "/finetune/lora_targets", TrainingEditor::tr("Adapter targets"),
        {{TrainingEditor::tr("q, v (PEFT default)"), Json::array({"q_proj", "v_proj"})},
         {TrainingEditor::tr("q, k, v"), Json::array({"q_proj", "k_proj", "v_proj"})},
         {TrainingEditor::tr("Attention (q, k, v, o)"),
          Json::array({"q_proj", "k_proj", "v_proj", "o_proj"})},
         // torchtune's Llama LoRA configs: lora_attn_modules [q_proj, v_proj,
         // output_proj], apply_lora_to_mlp (recipes/configs/llama3_1/8B_lora*.yaml).
         {TrainingEditor::tr("q, v, o and the MLP (torchtune)"),
          Json::array({"q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"})},
         {TrainingEditor::tr("All linear layers"),
          Json::array(
              {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"})},
         {TrainingEditor::tr("All linear layers and lm_head"),
          Json::array({"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
                       "lm_head"})}},
        TrainingEditor::tr("The modules the adapters wrap"));
    f.enabledWhen = [document] { return adapterMethod(*document); };
    return f;
}

FieldSpec baseWeightsField(ScenarioDocument* document) {
    FieldSpec f = choiceField(
        "/finetune/base_weights", TrainingEditor::tr("Base weights"),
        {{TrainingEditor::tr("BF16"), "bf16"},
         {TrainingEditor::tr("FP16"), "fp16"},
         {TrainingEditor::tr("FP8"), "fp8"},
         {TrainingEditor::tr("INT8"), "int8"},
         {TrainingEditor::tr("NF4 (4-bit)"), "nf4"}},
        TrainingEditor::tr("Storage of the frozen base: 16-bit for LoRA, quantised for QLoRA"));
    f.enabledWhen = [document] { return adapterMethod(*document); };
    return f;
}

} // namespace

TrainingEditor::TrainingEditor(ScenarioDocument* document, QWidget* parent) : QWidget(parent) {
    form_ = new ScenarioForm(document, [this, document] {
        FieldSpec name = textField("/name", tr("Name"),
                                   tr("The scenario's name; empty: the headline derived from "
                                      "the model, the GPUs and the plan"));
        name.placeholder = [document] {
            const auto& r = document->lastResolved();
            return r ? ScenarioHeadline::of(*r) : QString();
        };
        return std::vector<FieldSpec>{
            sectionField(tr("Scenario")),
            name,
            sectionField(tr("Batch")),
            required(integerField("/training/seq_len", tr("Sequence length"), 1, 4194304,
                                  tr(" tokens"))),
            required(integerField("/training/global_batch", tr("Global batch"), 1, 1e8,
                                  tr(" sequences"),
                                  tr("Sequences per optimizer step, over all data-parallel "
                                     "ranks"))),
            integerField("/training/micro_batch", tr("Micro-batch"), 1, 4096, tr(" sequences"),
                         tr("Sequences per forward/backward pass on one pipeline")),
            // Absent by default (the whole sequence attends), so settable while unset.
            settable(
                integerField("/training/document_tokens", tr("Tokens per packed document"), 1,
                             4194304, tr(" tokens"),
                             tr("Sequences packed from shorter documents whose attention stays "
                                "within each (THD / variable-length attention, packed SFT data): "
                                "their mean length. Empty: the whole sequence attends"))),
            sectionField(tr("Numerics")),
            precisionField(document),
            fp8RecipeField(document),
            choiceField("/training/optimizer", tr("Optimizer"), EnumLabels::optimizer()),
            choiceField("/training/optimizer_impl", tr("Optimizer kernels"),
                        EnumLabels::optimizerImpl(),
                        tr("How the optimizer step runs. Fused: Megatron, DeepSpeed, torchtitan; "
                           "foreach (torch.optim without fused=True) holds a temporary the size "
                           "of Adam's second moments during the step")),
            flagField("/training/optimizer_in_backward", tr("Optimizer step in backward"),
                      tr("Step each weight in its gradient hook: no whole-model gradient buffer "
                         "(torchtune optimizer_in_bwd; one micro-batch per step)")),
            flagField("/training/master_weights", tr("FP32 master weights"),
                      tr("FP32 master weights, gradients and optimizer states (Megatron-LM, "
                         "torchtitan); off: all states in the training precision (torchtune)")),
            [document] {
                FieldSpec f = choiceField(
                    "/training/grad_reduce_dtype", tr("Gradient buffer"),
                    EnumLabels::gradReduceDtype(),
                    tr("The dtype gradients accumulate and are reduced in beside FP32 master "
                       "weights: FP32 by default; BF16 halves the gradient memory and the "
                       "data-parallel traffic (Megatron-LM --grad-reduce-in-bf16)"));
                f.enabledWhen = [document] {
                    const auto& r = document->lastResolved();
                    return !r || r->training.masterWeights;
                };
                return f;
            }(),
            flagField("/training/compile", tr("torch.compile"),
                      tr("Compiled model: fused elementwise kernels keep fewer activations")),
            sectionField(tr("Fine-tuning")),
            methodField(document),
            [document] {
                FieldSpec rank = integerField("/finetune/lora_rank", tr("LoRA rank"), 1, 65536, {},
                                              tr("Rank r of each adapter (typically 8 to 64)"));
                rank.enabledWhen = [document] { return adapterMethod(*document); };
                return rank;
            }(),
            [document] {
                FieldSpec alpha = realField("/finetune/lora_alpha", tr("LoRA alpha"), 0.01, 1e6, 2,
                                            {}, tr("Scaling alpha / r of the update"));
                alpha.enabledWhen = [document] { return adapterMethod(*document); };
                return alpha;
            }(),
            targetsField(document),
            baseWeightsField(document),
            flagField("/finetune/double_quant", tr("Double quantisation"),
                      tr("QLoRA: 8-bit NF4 block scales (0.127 instead of 0.5 bits per weight)")),
            sectionField(tr("Run")),
            // Not in the file: the run's days, cost, energy and CO2 are not computed.
            numberField("/training/tokens", tr("Tokens to train (billions)"), 1, 1e16,
                        tr("Total training tokens, in billions (15000 = 15T, as Llama 3). The "
                           "run's days, cost, energy and CO₂ need it."),
                        1e9),
        };
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    layout->addStretch(1);
}

} // namespace ts::gui
