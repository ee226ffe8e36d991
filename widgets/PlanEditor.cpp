#include "PlanEditor.h"

#include "EnumLabels.h"
#include "PlanDegreeOptions.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"

#include <QVBoxLayout>

namespace ts::gui {

namespace {

FieldSpec degreeField(ScenarioDocument* document, const std::string& key, QString label,
                      QString toolTip) {
    FieldSpec f = choiceField("/parallelism/" + key, std::move(label), {}, std::move(toolTip));
    f.dynamicChoices = [document, key] {
        std::vector<FieldChoice> choices;
        for (const DegreeOption& option : PlanDegreeOptions::options(*document, key))
            choices.push_back(
                {QString::number(option.degree), option.degree, option.enabled, option.reason});
        return choices;
    };
    f.changes = [document, key](const nlohmann::ordered_json& value) {
        return PlanDegreeOptions::changesFor(*document, key, value.get<int>());
    };
    return f;
}

} // namespace

PlanEditor::PlanEditor(ScenarioDocument* document, QWidget* parent) : QWidget(parent) {
    form_ = new ScenarioForm(document, [this, document] {
        FieldSpec dp = integerField("/parallelism/dp", tr("Data parallel (DP)"), 1, 1e7, {},
                                    tr("GPUs ÷ (TP × PP × CP): follows the other degrees"));
        dp.readOnly = true;
        return std::vector<FieldSpec>{
            sectionField(tr("Degrees")),
            degreeField(document, "tp", tr("Tensor parallel (TP)"),
                        tr("Splits every layer's matrices over GPUs of one NVLink domain")),
            degreeField(document, "pp", tr("Pipeline parallel (PP)"),
                        tr("Splits the layers into stages")),
            degreeField(document, "vpp", tr("Virtual stages (VPP)"),
                        tr("Model chunks per pipeline rank (interleaved schedules)")),
            degreeField(document, "cp", tr("Context parallel (CP)"),
                        tr("Splits each sequence over GPUs")),
            degreeField(document, "ep", tr("Expert parallel (EP)"),
                        tr("Splits the experts of a mixture-of-experts model")),
            dp,
            sectionField(tr("Memory")),
            flagField("/parallelism/sequence_parallel", tr("Sequence parallel"),
                      tr("Shards the activations between TP regions (Korthikanti et al. 2022)")),
            choiceField("/parallelism/zero", tr("ZeRO stage"), EnumLabels::zero()),
            choiceField("/parallelism/recompute", tr("Recomputation"), EnumLabels::recompute()),
            sectionField(tr("Schedule")),
            choiceField("/parallelism/schedule", tr("Pipeline schedule"), EnumLabels::schedule()),
            flagField("/parallelism/overlap/tp", tr("Overlap TP communication")),
            flagField("/parallelism/overlap/dp", tr("Overlap DP communication")),
            flagField("/parallelism/overlap/pp", tr("Overlap PP communication")),
        };
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    layout->addStretch(1);
}

} // namespace ts::gui
