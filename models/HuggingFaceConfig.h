#pragma once
// A Hugging Face transformers `config.json` as the scenario's "model" object. Understood:
// Llama (1-3), Mistral, Mixtral, Qwen2, Qwen2-MoE, Qwen3, Qwen3-MoE and DeepSeek-V2/V3
// (multi-head latent attention and routed plus shared experts). Unknown architectures are
// read with the Llama keys when those are present, with a note saying so.

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

namespace ts::gui {

struct HuggingFaceImport {
    std::optional<nlohmann::ordered_json> model; // scenario "model" keys; nullopt on error
    QString error;                               // why not, naming the missing key
    QStringList notes;                           // what was assumed
};

class HuggingFaceConfig {
    Q_DECLARE_TR_FUNCTIONS(HuggingFaceConfig)
public:
    static HuggingFaceImport toScenarioModel(const nlohmann::json& config);
    static HuggingFaceImport fromText(const QByteArray& text);
    static HuggingFaceImport fromFile(const QString& path);
};

} // namespace ts::gui
