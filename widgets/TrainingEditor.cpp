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
            sectionField(tr("Numerics")),
            precisionField(document),
            fp8RecipeField(document),
            choiceField("/training/optimizer", tr("Optimizer"), EnumLabels::optimizer()),
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
