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
    // With cluster.pools, tp and pp belong to each pipeline's stages (Cluster dock, pools).
    if (key == "tp" || key == "pp")
        f.enabledWhen = [document] { return !document->explicitValue("/cluster/pools"); };
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

// The embedding / loss pipeline-split slots shape the default split only, so an edit also
// drops a written pipeline_layers (one undo step), or the checkbox would change nothing.
FieldSpec pipelineSplitField(ScenarioDocument* document, const std::string& key, QString label,
                             QString toolTip) {
    FieldSpec f = flagField("/parallelism/" + key, std::move(label), std::move(toolTip));
    f.changes = [document, pointer = f.pointer](const nlohmann::ordered_json& value) {
        std::vector<ScenarioValueChange> changes = changeCreatingObjects(*document, pointer, value);
        const auto layers = document->explicitValue("/parallelism/pipeline_layers");
        if (!changes.empty() && layers && !layers->is_null())
            changes.push_back({"/parallelism/pipeline_layers", nlohmann::ordered_json(nullptr)});
        return changes;
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

bool hasMoe(const ScenarioDocument* document) {
    const auto& r = document->lastResolved();
    return r && r->model.moe.has_value();
}

// Expert tensor parallelism (Megatron --expert-tensor-parallel-size): empty is the default,
// the TP degree, shown as the placeholder.
FieldSpec etpField(ScenarioDocument* document) {
    FieldSpec f = withinObjects(
        document,
        numberField("/parallelism/etp", PlanEditor::tr("Expert tensor parallel (ETP)"), 1, 1e7,
                    PlanEditor::tr("Splits each expert's matrices; empty: as TP "
                                   "(Megatron --expert-tensor-parallel-size)")));
    f.placeholder = [document] {
        const auto& r = document->lastResolved();
        return r ? QString::number(r->parallel.etp) : QString();
    };
    f.enabledWhen = [document] { return hasMoe(document); };
    return f;
}

// Full recomputation of the first n layers of each stage (Megatron --recompute-method block
// --recompute-num-layers); empty: every layer.
FieldSpec recomputeLayersField(ScenarioDocument* document) {
    FieldSpec f = withinObjects(
        document, numberField("/parallelism/recompute_layers",
                              PlanEditor::tr("Recomputed layers per stage"), 0, 1e5,
                              PlanEditor::tr("Full recomputation of this many layers of each stage "
                                             "(Megatron --recompute-num-layers); empty: all")));
    f.placeholder = [] { return PlanEditor::tr("all"); };
    f.enabledWhen = [document] {
        const auto& r = document->lastResolved();
        return r && r->parallel.recompute == RecomputeMode::Full;
    };
    return f;
}

// --recompute-modules combinations of the published recipes (Megatron-Bridge perf configs);
// a file's other combination is shown as written.
std::vector<FieldChoice> recomputeModuleChoices() {
    using Json = nlohmann::ordered_json;
    return {{PlanEditor::tr("Attention core (default)"), Json::array({"core_attn"})},
            {PlanEditor::tr("MLA up-projections"), Json::array({"mla_up_proj"})},
            {PlanEditor::tr("MLA up-projections + expert activation"),
             Json::array({"mla_up_proj", "moe_act"})},
            {PlanEditor::tr("Norms + expert activation"), Json::array({"layernorm", "moe_act"})},
            {PlanEditor::tr("Norms + whole MoE layer"), Json::array({"layernorm", "moe"})},
            {PlanEditor::tr("Attention core + MLP"), Json::array({"core_attn", "mlp"})}};
}

// The "execution" section: how the framework runs the plan (scenario format, Execution keys).
std::vector<FieldSpec> executionFields(ScenarioDocument* document) {
    auto moeOnly = [document](FieldSpec f) {
        f.enabledWhen = [document] { return hasMoe(document); };
        return withinObjects(document, std::move(f));
    };
    FieldSpec modules = withinObjects(
        document, choiceField("/execution/recompute_modules", PlanEditor::tr("Recomputed modules"),
                              recomputeModuleChoices(),
                              PlanEditor::tr("What selective recomputation recomputes (Megatron "
                                             "--recompute-modules; needs recompute selective)")));
    modules.enabledWhen = [document] {
        const auto& r = document->lastResolved();
        return r && r->parallel.recompute == RecomputeMode::Selective;
    };
    FieldSpec launch = withinObjects(
        document, realField("/execution/host_launch_us", PlanEditor::tr("Host launch per kernel"),
                            0, 10000, 1, PlanEditor::tr(" µs"),
                            PlanEditor::tr("CPU time to issue one kernel; a layer takes the longer "
                                           "of its GPU time and its launch time")));
    return {
        sectionField(PlanEditor::tr("Execution")),
        withinObjects(document,
                      choiceField("/execution/framework", PlanEditor::tr("Framework"),
                                  EnumLabels::framework(),
                                  PlanEditor::tr("Whose kernels run the layers: it sets what "
                                                 "memory they keep and, on Hopper, the "
                                                 "attention kernel. Unset: inferred (PyTorch "
                                                 "with compile, bf16 states or ZeRO 2/3)"))),
        withinObjects(document,
                      choiceField("/execution/cross_entropy", PlanEditor::tr("Cross entropy"),
                                  EnumLabels::crossEntropy(),
                                  PlanEditor::tr("How the loss is computed: it sets the memory "
                                                 "the logits take. Unset: inferred from the "
                                                 "framework"))),
        withinObjects(document,
                      integerField("/execution/loss_chunks", PlanEditor::tr("Loss chunks"), 1,
                                   1 << 20, {},
                                   PlanEditor::tr("Chunks of a chunked or linear-chunked loss"))),
        withinObjects(document,
                      choiceField("/execution/attention_backend",
                                  PlanEditor::tr("Attention kernel"),
                                  EnumLabels::attentionBackend(),
                                  PlanEditor::tr("Which kernel runs attention; sinks need cuDNN "
                                                 "or the unfused path"))),
        withinObjects(document,
                      choiceField("/execution/cuda_graphs", PlanEditor::tr("CUDA graphs"),
                                  EnumLabels::cudaGraphs(),
                                  PlanEditor::tr("Captured kernels launch without host cost"))),
        launch,
        modules,
        withinObjects(document,
                      flagField("/execution/fp8_attention", PlanEditor::tr("FP8 attention"),
                                PlanEditor::tr("Attention in FP8 (with an FP8 precision)"))),
        withinObjects(document,
                      flagField("/execution/fp8_weight_cache", PlanEditor::tr("FP8 weight cache"),
                                PlanEditor::tr("Keep each weight's FP8 copy from the first "
                                               "micro-batch to the step (Transformer Engine); "
                                               "off: cast afresh per micro-batch"))),
        moeOnly(choiceField("/execution/moe_dispatcher", PlanEditor::tr("Token dispatcher"),
                            EnumLabels::moeDispatcher(),
                            PlanEditor::tr("How tokens reach their experts (Megatron "
                                           "--moe-token-dispatcher-type)"))),
        moeOnly(choiceField("/execution/moe_grouped_gemm", PlanEditor::tr("Expert GEMMs"),
                            EnumLabels::moeGroupedGemm())),
        moeOnly(flagField("/execution/moe_force_balance", PlanEditor::tr("Force expert balance"),
                          PlanEditor::tr("Tokens spread evenly over the experts (benchmarks; "
                                         "--moe-router-force-load-balancing)"))),
    };
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
        std::vector<FieldSpec> fields{
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
            etpField(document),
            dp,
            dpShardField(document),
            pipelineLayersField(document),
            pipelineSplitField(document, "embedding_in_pipeline_split",
                               tr("Embedding takes a layer slot"),
                               tr("The input embedding counts as one layer in the default "
                                  "pipeline split (Megatron "
                                  "--account-for-embedding-in-pipeline-split)")),
            pipelineSplitField(document, "loss_in_pipeline_split", tr("Loss takes a layer slot"),
                               tr("The output layer and loss count as one layer in the default "
                                  "pipeline split (Megatron "
                                  "--account-for-loss-in-pipeline-split)")),
            sectionField(tr("Memory")),
            flagField("/parallelism/sequence_parallel", tr("Sequence parallel"),
                      tr("Shards the activations between TP regions (Korthikanti et al. 2022)")),
            choiceField("/parallelism/zero", tr("ZeRO stage"), EnumLabels::zero()),
            choiceField("/parallelism/recompute", tr("Recomputation"), EnumLabels::recompute()),
            recomputeLayersField(document),
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
        for (FieldSpec& f : executionFields(document))
            fields.push_back(std::move(f));
        return fields;
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    layout->addStretch(1);
}

} // namespace ts::gui
