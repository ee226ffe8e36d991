#include "TrainingEditor.h"

#include "EnumLabels.h"
#include "ScenarioForm.h"

#include <QVBoxLayout>

namespace ts::gui {

TrainingEditor::TrainingEditor(ScenarioDocument* document, QWidget* parent) : QWidget(parent) {
    form_ = new ScenarioForm(document, [this] {
        return std::vector<FieldSpec>{
            sectionField(tr("Batch")),
            integerField("/training/seq_len", tr("Sequence length"), 1, 4194304, tr(" tokens")),
            integerField("/training/global_batch", tr("Global batch"), 1, 1e8, tr(" sequences"),
                         tr("Sequences per optimizer step, over all data-parallel ranks")),
            integerField("/training/micro_batch", tr("Micro-batch"), 1, 4096, tr(" sequences"),
                         tr("Sequences per forward/backward pass on one pipeline")),
            sectionField(tr("Numerics")),
            choiceField("/training/precision", tr("Precision"), EnumLabels::precision()),
            choiceField("/training/optimizer", tr("Optimizer"), EnumLabels::optimizer()),
            sectionField(tr("Run")),
            [this] {
                FieldSpec tokens = realField("/training/tokens", tr("Tokens to train"), 0, 1e16, 1,
                                             tr(" B"), tr("Total training tokens, in billions"));
                tokens.scale = 1e9;
                return tokens;
            }(),
        };
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    layout->addStretch(1);
}

} // namespace ts::gui
