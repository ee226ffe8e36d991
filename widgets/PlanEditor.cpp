#include "PlanEditor.h"

#include "EnumLabels.h"
#include "PlanDegreeOptions.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"

#include <QRegularExpression>
#include <QStringList>
#include <QVBoxLayout>

namespace ts::gui {

namespace {

FieldSpec degreeField(ScenarioDocument* document, const std::string& key, QString label,
                      QString toolTip) {
    FieldSpec f = choiceField("/parallelism/" + key, std::move(label), {}, std::move(toolTip));
    f.shortLabel = QString::fromStdString(key).toUpper();
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

// A field whose edit writes the objects the file lacks around it (see changeCreatingObjects).
FieldSpec withinObjects(ScenarioDocument* document, FieldSpec f) {
    f.changes = [document, pointer = f.pointer](const nlohmann::ordered_json& value) {
        return changeCreatingObjects(*document, pointer, value);
    };
    return f;
}

// Hybrid sharding (FSDP HYBRID_SHARD, torchtitan dp_shard): "full" is null (= dp); a
// divisor of dp below it needs ZeRO, and is listed disabled with core's reason otherwise.
FieldSpec dpShardField(ScenarioDocument* document) {
    FieldSpec f = withinObjects(
        document, choiceField("/parallelism/dp_shard", PlanEditor::tr("Shard group (DP shard)"), {},
                              PlanEditor::tr("ZeRO shards within groups of this many data-parallel "
                                             "ranks and replicates across the groups (hybrid "
                                             "sharding, FSDP HYBRID_SHARD)")));
    f.dynamicChoices = [document] {
        std::vector<FieldChoice> choices{{PlanEditor::tr("Full (= DP)"), nullptr}};
        const auto& r = document->lastResolved();
        for (const DegreeOption& option : PlanDegreeOptions::dpShardOptions(*document)) {
            QString label = QString::number(option.degree);
            if (r && option.degree == r->parallel.dp)
                label = PlanEditor::tr("%1 (= DP)").arg(option.degree);
            choices.push_back({label, option.degree, option.enabled, option.reason});
        }
        return choices;
    };
    return f;
}

// Transformer layers per pipeline chunk, typed as "20, 20, 20, 20" (pp x vpp whole numbers
// summing to model.layers); empty: as even as possible. The reader and the resolver check
// the list and name what is wrong.
FieldSpec pipelineLayersField(ScenarioDocument* document) {
    FieldSpec f = textField("/parallelism/pipeline_layers", PlanEditor::tr("Layers per chunk"),
                            PlanEditor::tr("Transformer layers of each pipeline chunk in order, "
                                           "PP × VPP numbers separated by commas; empty: as "
                                           "even as possible"));
    f.placeholder = [document] {
        const auto& r = document->lastResolved();
        QStringList parts;
        if (r)
            for (int layers : r->parallel.pipelineLayers)
                parts << QString::number(layers);
        return parts.join(QStringLiteral(", "));
    };
    f.changes = [document](const nlohmann::ordered_json& value) {
        nlohmann::ordered_json layers = nlohmann::ordered_json::array();
        const QStringList parts =
            QString::fromStdString(value.get<std::string>())
                .split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
        for (const QString& part : parts) {
            bool ok = false;
            const int n = part.toInt(&ok);
            if (!ok) // the reader names the field and what would be right
                layers.push_back(part.toStdString());
            else
                layers.push_back(n);
        }
        return changeCreatingObjects(*document, "/parallelism/pipeline_layers", layers);
    };
    return f;
}

} // namespace

PlanEditor::PlanEditor(ScenarioDocument* document, QWidget* parent) : QWidget(parent) {
    form_ = new ScenarioForm(document, [this, document] {
        FieldSpec dp = integerField("/parallelism/dp", tr("Data parallel (DP)"), 1, 1e7, {},
                                    tr("GPUs ÷ (TP × PP × CP): follows the other degrees"));
        dp.readOnly = true;
        dp.resettable = false;
        dp.shownValue = [document]() -> std::optional<nlohmann::ordered_json> {
            if (const auto d = PlanDegreeOptions::derivedDp(*document))
                return nlohmann::ordered_json(*d);
            return std::nullopt;
        };
        // Megatron-LM --cp-comm-type; only meaningful with context parallelism.
        FieldSpec cpComm = withinObjects(
            document,
            choiceField("/parallelism/cp_comm", tr("CP communication"), EnumLabels::cpComm(),
                        tr("How context-parallel attention exchanges K/V (needs CP > 1)")));
        cpComm.enabledWhen = [document] {
            const auto& r = document->lastResolved();
            return r && r->parallel.cp > 1;
        };
        return std::vector<FieldSpec>{
            sectionField(tr("Degrees")),
            degreeField(document, "tp", tr("Tensor parallel (TP)"),
                        tr("Splits every layer's matrices over GPUs of one NVLink domain")),
            degreeField(document, "pp", tr("Pipeline parallel (PP)"),
                        tr("Splits the layers into stages")),
            degreeField(document, "vpp", tr("Virtual stages (VPP)"),
                        tr("Model chunks per pipeline rank (interleaved, breadth-first; 2 with "
                           "zero bubble = ZB-V)")),
            degreeField(document, "cp", tr("Context parallel (CP)"),
                        tr("Splits each sequence over GPUs")),
            cpComm,
            degreeField(document, "ep", tr("Expert parallel (EP)"),
                        tr("Splits the experts of a mixture-of-experts model")),
            dp,
            dpShardField(document),
            pipelineLayersField(document),
            sectionField(tr("Memory")),
            flagField("/parallelism/sequence_parallel", tr("Sequence parallel"),
                      tr("Shards the activations between TP regions (Korthikanti et al. 2022)")),
            choiceField("/parallelism/zero", tr("ZeRO stage"), EnumLabels::zero()),
            choiceField("/parallelism/recompute", tr("Recomputation"), EnumLabels::recompute()),
            // ZeRO-Offload (Ren et al. 2021) and ZeRO-Infinity (Rajbhandari et al. 2021).
            withinObjects(document,
                          choiceField("/parallelism/offload/optimizer",
                                      tr("Offload optimizer states"), EnumLabels::offload())),
            withinObjects(document, choiceField("/parallelism/offload/params",
                                                tr("Offload parameters"), EnumLabels::offload())),
            withinObjects(document, choiceField("/parallelism/offload/activations",
                                                tr("Offload activations"), EnumLabels::offload())),
            sectionField(tr("Schedule")),
            choiceField("/parallelism/schedule", tr("Pipeline schedule"), EnumLabels::schedule()),
            flagField("/parallelism/overlap/tp", tr("Overlap TP communication")),
            flagField("/parallelism/overlap/dp", tr("Overlap DP communication")),
            flagField("/parallelism/overlap/pp", tr("Overlap PP communication")),
            withinObjects(document,
                          flagField("/parallelism/overlap/ep", tr("Overlap EP communication"),
                                    tr("Expert all-to-alls hidden behind another micro-batch's "
                                       "compute (DualPipe, Megatron-Core "
                                       "--overlap-moe-expert-parallel-comm)"))),
            // DeepSeek-V3 sec. 3.3.2; DeepEP's dispatch takes FP8 with 1x128 scales.
            withinObjects(document,
                          flagField("/parallelism/moe_dispatch_fp8", tr("FP8 expert dispatch"),
                                    tr("Expert all-to-alls send the tokens in FP8 with one scale "
                                       "per 128 values, about half the bytes; combines stay "
                                       "BF16 (DeepSeek-V3, DeepEP)"))),
        };
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    layout->addStretch(1);
}

} // namespace ts::gui
