#include "ModelEditor.h"

#include "EnumLabels.h"
#include "HuggingFaceConfig.h"
#include "ScenarioDocument.h"
#include "ScenarioForm.h"

#include "catalog/Catalog.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <utility>

namespace ts::gui {

namespace {

using Json = nlohmann::ordered_json;

std::vector<FieldChoice> modelPresets(const QString& customLabel) {
    std::vector<FieldChoice> choices;
    for (const auto& [id, preset] : Catalog::builtIn().models())
        choices.push_back(
            {QString::fromStdString(preset.name), id, true, QString::fromStdString(preset.notes)});
    choices.push_back({customLabel, nullptr});
    return choices;
}

// The MoE object in effect (the file's, else the preset's), or nullopt for a dense model.
std::optional<Json> moeInEffect(const ScenarioDocument& document) {
    std::optional<Json> moe = document.explicitValue("/model/moe");
    if (!moe)
        moe = document.resolvedValue("/model/moe");
    if (!moe || !moe->is_object())
        return std::nullopt;
    return moe;
}

int moeInt(const Json& moe, const char* key) {
    const auto it = moe.find(key);
    return it != moe.end() && it->is_number_integer() ? it->get<int>() : 0;
}

// Groups per token that core accepts with `groups` groups (core/scenario/SectionJson.cpp):
// 1 to min(groups, top_k), and the chosen groups must hold top_k experts.
std::pair<int, int> perTokenRange(int experts, int topK, int groups) {
    if (groups <= 0 || experts % groups != 0)
        return {1, 0};
    const int groupSize = experts / groups;
    return {std::max(1, (topK + groupSize - 1) / groupSize), std::min(groups, topK)};
}

// Group-limited routing: core refuses groups without groups_per_token, so the groups field
// writes both. Into the file's MoE object key by key, or, when the model's MoE comes from
// the preset, as a copy of the preset's object with them.
std::vector<ScenarioValueChange> moeGroupChanges(const ScenarioDocument& document,
                                                 const Json& groups, const Json& perToken) {
    using Value = std::optional<Json>;
    const Value g = groups.is_null() ? Value() : Value(groups);
    const Value t = groups.is_null() ? Value() : Value(perToken);
    if (document.explicitValue("/model/moe"))
        return {{"/model/moe/groups", g}, {"/model/moe/groups_per_token", t}};
    std::optional<Json> moe = moeInEffect(document);
    if (!moe)
        return {};
    moe->erase("groups");
    moe->erase("groups_per_token");
    if (g) {
        (*moe)["groups"] = *g;
        (*moe)["groups_per_token"] = *t;
    }
    return {{"/model/moe", *moe}};
}

// Expert groups: none, or a divisor of the experts that leaves a valid groups_per_token.
FieldSpec groupsField(ScenarioDocument* document) {
    FieldSpec f = choiceField(
        "/model/moe/groups", ModelEditor::tr("Expert groups"), {},
        ModelEditor::tr("Group-limited routing: the experts form this many groups and a token's "
                        "experts come from a few of them (DeepSeek-V3: 8 groups, one per node)"));
    f.dynamicChoices = [document] {
        std::vector<FieldChoice> choices{{ModelEditor::tr("None"), nullptr}};
        const std::optional<Json> moe = moeInEffect(*document);
        if (!moe)
            return choices;
        const int experts = moeInt(*moe, "experts"), topK = moeInt(*moe, "top_k");
        for (int g = 2; g <= experts && g <= 1024; ++g) {
            if (experts % g != 0)
                continue;
            const auto [lo, hi] = perTokenRange(experts, topK, g);
            choices.push_back({QString::number(g), g, lo <= hi,
                               lo <= hi ? QString()
                                        : ModelEditor::tr("Groups of %1 experts: %2 experts per "
                                                          "token need more groups than that")
                                              .arg(experts / g)
                                              .arg(topK)});
        }
        return choices;
    };
    f.changes = [document](const Json& value) {
        const std::optional<Json> moe = moeInEffect(*document);
        if (!moe || moe->value("groups", Json(nullptr)) == value) // as it is: no step
            return std::vector<ScenarioValueChange>{};
        if (value.is_null())
            return moeGroupChanges(*document, value, value);
        // Keep the groups per token when they still fit, else the nearest that does.
        const auto [lo, hi] =
            perTokenRange(moeInt(*moe, "experts"), moeInt(*moe, "top_k"), value.get<int>());
        const int was = moeInt(*moe, "groups_per_token");
        const int perToken = std::clamp(was ? was : value.get<int>() / 2, lo, std::max(lo, hi));
        return moeGroupChanges(*document, value, perToken);
    };
    f.enabledWhen = [document] { return moeInEffect(*document).has_value(); };
    return f;
}

// Groups per token: 1 to the number of groups; those core would refuse are listed disabled.
FieldSpec groupsPerTokenField(ScenarioDocument* document) {
    FieldSpec f =
        choiceField("/model/moe/groups_per_token", ModelEditor::tr("Groups per token"), {},
                    ModelEditor::tr("How many expert groups a token's experts may "
                                    "come from (DeepSeek-V3: 4 of 8)"));
    f.dynamicChoices = [document] {
        std::vector<FieldChoice> choices;
        const std::optional<Json> moe = moeInEffect(*document);
        const int groups = moe ? moeInt(*moe, "groups") : 0;
        if (groups <= 0)
            return choices;
        const auto [lo, hi] = perTokenRange(moeInt(*moe, "experts"), moeInt(*moe, "top_k"), groups);
        for (int g = 1; g <= groups; ++g)
            choices.push_back({QString::number(g), g, g >= lo && g <= hi,
                               g > hi   ? ModelEditor::tr("More than the experts per token or "
                                                            "the groups")
                               : g < lo ? ModelEditor::tr("Too few experts in that many groups "
                                                          "for the experts per token")
                                        : QString()});
        return choices;
    };
    f.changes = [document](const Json& value) {
        const std::optional<Json> moe = moeInEffect(*document);
        if (!moe || !moe->contains("groups") || moe->value("groups_per_token", Json()) == value)
            return std::vector<ScenarioValueChange>{};
        if (document->explicitValue("/model/moe")) // the key alone: its own undo step
            return std::vector<ScenarioValueChange>{{"/model/moe/groups_per_token", value}};
        return moeGroupChanges(*document, moe->at("groups"), value);
    };
    f.enabledWhen = [document] {
        const std::optional<Json> moe = moeInEffect(*document);
        return moe && moeInt(*moe, "groups") > 0;
    };
    return f;
}

// A key of an object a preset may give (model.moe, model.mla): into the file's object key
// by key, or, when the object comes from the preset, as a copy of it with the key, since the
// reader needs the object whole. Enabled while the model has the object.
FieldSpec presetObjectKey(ScenarioDocument* document, FieldSpec f, const std::string& object) {
    f.changes = [document, object, key = f.pointer.substr(object.size() + 1)](const Json& value) {
        if (document->explicitValue(object))
            return std::vector<ScenarioValueChange>{{object + "/" + key, value}};
        std::optional<Json> inEffect = document->resolvedValue(object);
        if (!inEffect || !inEffect->is_object())
            return std::vector<ScenarioValueChange>{};
        (*inEffect)[key] = value;
        return std::vector<ScenarioValueChange>{{object, *inEffect}};
    };
    f.enabledWhen = [document, object] {
        std::optional<Json> inEffect = document->explicitValue(object);
        if (!inEffect)
            inEffect = document->resolvedValue(object);
        return inEffect && inEffect->is_object();
    };
    return f;
}

// Multi-head latent attention (DeepSeek-V2/V3): the five figures of model.mla, which the
// reader needs together (a key alone of a preset's MLA writes the preset's object with it).
std::vector<FieldSpec> mlaFields(ScenarioDocument* document) {
    const auto field = [document](const char* key, QString label, double minimum) {
        FieldSpec f =
            integerField(std::string("/model/mla/") + key, std::move(label), minimum, 100000);
        f.resettable = false; // the MLA object needs each of its figures
        return presetObjectKey(document, std::move(f), "/model/mla");
    };
    return {
        sectionField(ModelEditor::tr("Multi-head latent attention")),
        field("q_lora_rank", ModelEditor::tr("Query LoRA rank"), 0),
        field("kv_lora_rank", ModelEditor::tr("KV LoRA rank"), 1),
        field("qk_nope_head_dim", ModelEditor::tr("QK head dim (no RoPE)"), 1),
        field("qk_rope_head_dim", ModelEditor::tr("QK head dim (RoPE)"), 0),
        field("v_head_dim", ModelEditor::tr("V head dim"), 1),
    };
}

// Token capacity per expert as a multiple of the even share (Switch Transformer); empty: no
// capacity limit (dropless).
FieldSpec capacityFactorField(ScenarioDocument* document) {
    FieldSpec f =
        numberField("/model/moe/capacity_factor", ModelEditor::tr("Capacity factor"), 0.01, 1000,
                    ModelEditor::tr("Tokens an expert takes, as a multiple of the even "
                                    "share; empty: no limit (dropless)"));
    f.placeholder = [document] {
        const auto v = document->resolvedValue("/model/moe/capacity_factor");
        return v && v->is_number() ? QLocale().toString(v->get<double>(), 'g', 6)
                                   : ModelEditor::tr("dropless");
    };
    return presetObjectKey(document, std::move(f), "/model/moe");
}

// model.sliding_window: tokens a query attends to on the windowed layers; cleared, the key
// goes (full attention, or the preset's window).
FieldSpec slidingWindowField(ScenarioDocument* document) {
    FieldSpec f = numberField("/model/sliding_window", ModelEditor::tr("Sliding window"), 1, 1e9,
                              ModelEditor::tr("Tokens a query attends to, itself included, on "
                                              "the windowed layers; empty: full attention"));
    f.placeholder = [document] {
        const auto v = document->resolvedValue("/model/sliding_window");
        return v && v->is_number_integer() ? QLocale().toString(v->get<qint64>())
                                           : ModelEditor::tr("full attention");
    };
    return f;
}

FieldSpec windowLayersField(ScenarioDocument* document) {
    FieldSpec f = choiceField("/model/window_layers", ModelEditor::tr("Windowed layers"),
                              EnumLabels::windowLayers(),
                              ModelEditor::tr("Which layers the sliding window applies to"));
    f.enabledWhen = [document] {
        const auto v = document->resolvedValue("/model/sliding_window");
        return v && v->is_number_integer();
    };
    return f;
}

} // namespace

ModelEditor::ModelEditor(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    importButton_ = new QPushButton(this);
    importButton_->setIcon(QIcon::fromTheme(QStringLiteral("document-import")));
    connect(importButton_, &QPushButton::clicked, this, &ModelEditor::importFromDialog);

    form_ = new ScenarioForm(document, [this] {
        FieldSpec preset = choiceField("/model/preset", tr("Preset"), modelPresets(tr("Custom")),
                                       tr("A published architecture from the catalog"));
        // A preset replaces the whole architecture; "Custom" writes out the one in effect.
        preset.changes = [this](const Json& value) {
            Json model = Json::object();
            if (value.is_string()) {
                model["preset"] = value;
            } else if (std::optional<Json> resolved = document_->resolvedValue("/model")) {
                model = *resolved;
                model.erase("preset");
            }
            return std::vector<ScenarioValueChange>{{"/model", model}};
        };
        std::vector<FieldSpec> fields{
            preset,
            sectionField(tr("Architecture")),
            integerField("/model/layers", tr("Layers"), 1, 100000),
            integerField("/model/hidden", tr("Hidden size"), 1, 1e8),
            integerField("/model/ffn_hidden", tr("FFN hidden size"), 1, 1e8),
            integerField("/model/heads", tr("Attention heads"), 1, 100000),
            integerField("/model/kv_heads", tr("KV heads"), 1, 100000, {},
                         tr("Fewer than the attention heads: grouped-query attention")),
            integerField("/model/head_dim", tr("Head dimension"), 1, 100000),
            integerField("/model/vocab", tr("Vocabulary"), 1, 1e8),
            choiceField("/model/mlp", tr("MLP"), EnumLabels::mlp()),
            flagField("/model/tied_embeddings", tr("Tied embeddings")),
            sectionField(tr("Attention")),
            slidingWindowField(document_),
            windowLayersField(document_),
            flagField("/model/attention_sinks", tr("Attention sinks"),
                      tr("One learnable logit per head in the softmax (GPT-OSS); fused only in "
                         "cuDNN attention")),
            flagField("/model/attention_bias", tr("Attention biases"),
                      tr("Biases on the QKV and output projections (unset: a GELU model has "
                         "them)")),
            sectionField(tr("Mixture of experts")),
            integerField("/model/moe/experts", tr("Routed experts"), 1, 100000),
            integerField("/model/moe/top_k", tr("Experts per token"), 1, 1024),
            integerField("/model/moe/expert_ffn_hidden", tr("Expert FFN size"), 1, 1e8),
            integerField("/model/moe/shared_experts", tr("Shared experts"), 0, 1024),
            integerField("/model/moe/first_dense_layers", tr("Leading dense layers"), 0, 100000),
            groupsField(document_),
            groupsPerTokenField(document_),
            capacityFactorField(document_),
            presetObjectKey(document_,
                            flagField("/model/moe/expert_bias", tr("Expert biases"),
                                      tr("Biases on both expert matrices (GPT-OSS)")),
                            "/model/moe"),
            presetObjectKey(document_,
                            flagField("/model/moe/router_bias", tr("Router bias"),
                                      tr("A bias on the router's logits (GPT-OSS)")),
                            "/model/moe"),
        };
        for (FieldSpec& f : mlaFields(document_))
            fields.push_back(std::move(f));
        return fields;
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_);
    auto* importRow = new QHBoxLayout;
    importRow->setContentsMargins(10, 0, 10, 8);
    importRow->addWidget(importButton_);
    importRow->addStretch(1);
    layout->addLayout(importRow);
    layout->addStretch(1);
    importButton_->setText(tr("Import Hugging Face config.json…"));
}

bool ModelEditor::importHuggingFaceConfig(const QString& path, QString* error) {
    const HuggingFaceImport imported = HuggingFaceConfig::fromFile(path);
    if (!imported.model) {
        if (error)
            *error = imported.error;
        return false;
    }
    if (!document_->setValues({{"/model", *imported.model}},
                              tr("Import %1").arg(QFileInfo(path).fileName()), false)) {
        if (error)
            *error = tr("the imported model is not a valid scenario model");
        return false;
    }
    if (error)
        *error = imported.notes.join(QLatin1Char('\n'));
    return true;
}

void ModelEditor::importFromDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import Hugging Face Config"), QString(),
                                     tr("Hugging Face config (config.json *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString message;
    if (!importHuggingFaceConfig(path, &message))
        QMessageBox::warning(this, tr("Import Hugging Face Config"),
                             tr("Cannot import %1: %2").arg(QFileInfo(path).fileName(), message));
    else if (!message.isEmpty())
        QMessageBox::information(this, tr("Import Hugging Face Config"), message);
}

void ModelEditor::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        importButton_->setText(tr("Import Hugging Face config.json…"));
    QWidget::changeEvent(event);
}

} // namespace ts::gui
