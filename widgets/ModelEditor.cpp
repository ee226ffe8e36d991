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
        return std::vector<FieldSpec>{
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
            sectionField(tr("Mixture of experts")),
            integerField("/model/moe/experts", tr("Routed experts"), 1, 100000),
            integerField("/model/moe/top_k", tr("Experts per token"), 1, 1024),
            integerField("/model/moe/expert_ffn_hidden", tr("Expert FFN size"), 1, 1e8),
            integerField("/model/moe/shared_experts", tr("Shared experts"), 0, 1024),
            integerField("/model/moe/first_dense_layers", tr("Leading dense layers"), 0, 100000),
        };
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
