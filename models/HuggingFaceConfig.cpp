#include "HuggingFaceConfig.h"

#include "import/HuggingFaceAttention.h"

#include <QFile>

#include <string>

namespace ts::gui {

namespace {

using Json = nlohmann::json;

std::optional<std::int64_t> integer(const Json& config, const char* key) {
    const auto it = config.find(key);
    if (it == config.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

// A member of the given JSON type, `fallback` when absent; a member of another type sets
// `wrong` to its key (nlohmann's value() would throw type_error out of the import).
template <class T>
T member(const Json& config, const char* key, T fallback, bool (Json::*isType)() const,
         const char*& wrong) {
    const auto it = config.find(key);
    if (it == config.end() || it->is_null())
        return fallback;
    if (!((*it).*isType)()) {
        if (!wrong)
            wrong = key;
        return fallback;
    }
    return it->get<T>();
}

bool hasAny(const Json& config, std::initializer_list<const char*> keys) {
    for (const char* key : keys)
        if (config.contains(key))
            return true;
    return false;
}

} // namespace

HuggingFaceImport HuggingFaceConfig::toScenarioModel(const Json& config) {
    HuggingFaceImport result;
    if (!config.is_object()) {
        result.error = tr("config.json must hold a JSON object");
        return result;
    }
    // Keys of the wrong type are refused by name, before anything is read.
    const char* wrong = nullptr;
    const auto text = [&](const char* key, const std::string& fallback) {
        return member<std::string>(config, key, fallback, &Json::is_string, wrong);
    };
    const auto flag = [&](const char* key, bool fallback) {
        return member<bool>(config, key, fallback, &Json::is_boolean, wrong);
    };
    const std::string type = text("model_type", std::string());
    const std::string act = text("hidden_act", std::string("silu"));
    const bool tied = flag("tie_word_embeddings", false);
    const std::string topkMethod = text("topk_method", std::string());
    const Json denseOnly =
        member<Json>(config, "mlp_only_layers", Json::array(), &Json::is_array, wrong);
    const std::int64_t sparseStep =
        member<std::int64_t>(config, "decoder_sparse_step", 1, &Json::is_number_integer, wrong);
    if (wrong) {
        result.error = tr("config.json: \"%1\" has the wrong type (a string, true or false, "
                          "an array or an integer, as transformers writes it)")
                           .arg(QLatin1String(wrong));
        return result;
    }
    auto missing = [&](const char* key) {
        result.error = tr("config.json has no integer \"%1\"").arg(QLatin1String(key));
        return result;
    };

    const auto layers = integer(config, "num_hidden_layers");
    const auto hidden = integer(config, "hidden_size");
    const auto heads = integer(config, "num_attention_heads");
    const auto vocab = integer(config, "vocab_size");
    if (!layers)
        return missing("num_hidden_layers");
    if (!hidden)
        return missing("hidden_size");
    if (!heads || *heads <= 0)
        return missing("num_attention_heads");
    if (!vocab)
        return missing("vocab_size");
    const auto intermediate = integer(config, "intermediate_size");

    nlohmann::ordered_json model;
    model["layers"] = *layers;
    model["hidden"] = *hidden;
    model["heads"] = *heads;
    // Multi-head attention when the key is absent (the transformers default).
    model["kv_heads"] = integer(config, "num_key_value_heads").value_or(*heads);
    model["head_dim"] = integer(config, "head_dim").value_or(*hidden / *heads);
    model["vocab"] = *vocab;
    model["mlp"] = act.rfind("gelu", 0) == 0 ? "gelu" : "swiglu";
    model["tied_embeddings"] = tied;

    // Multi-head latent attention (DeepSeek-V2/V3).
    if (config.contains("kv_lora_rank") && config["kv_lora_rank"].is_number_integer()) {
        nlohmann::ordered_json mla;
        mla["q_lora_rank"] = integer(config, "q_lora_rank").value_or(0); // null: uncompressed
        mla["kv_lora_rank"] = *integer(config, "kv_lora_rank");
        mla["qk_nope_head_dim"] = integer(config, "qk_nope_head_dim").value_or(128);
        mla["qk_rope_head_dim"] = integer(config, "qk_rope_head_dim").value_or(64);
        mla["v_head_dim"] = integer(config, "v_head_dim").value_or(128);
        model["mla"] = mla;
    } else {
        model["mla"] = nullptr;
    }

    // Mixture of experts: Mixtral (num_local_experts), Qwen-MoE (num_experts), DeepSeek
    // (n_routed_experts). The expert size is moe_intermediate_size where the config has
    // one (Qwen, DeepSeek), else intermediate_size (Mixtral: every FFN is an expert).
    std::optional<std::int64_t> experts = integer(config, "num_local_experts");
    if (!experts)
        experts = integer(config, "n_routed_experts");
    if (!experts)
        experts = integer(config, "num_experts");
    if (experts && *experts > 1) {
        const auto topK = integer(config, "num_experts_per_tok");
        if (!topK)
            return missing("num_experts_per_tok");
        const auto expertFfn = integer(config, "moe_intermediate_size");
        if (!expertFfn && !intermediate)
            return missing("moe_intermediate_size");
        nlohmann::ordered_json moe;
        moe["experts"] = *experts;
        moe["top_k"] = *topK;
        moe["expert_ffn_hidden"] = expertFfn.value_or(intermediate.value_or(0));
        std::int64_t shared = integer(config, "n_shared_experts").value_or(0);
        // Qwen2-MoE: one shared expert of shared_expert_intermediate_size, counted in
        // routed-expert units.
        if (const auto sharedFfn = integer(config, "shared_expert_intermediate_size");
            sharedFfn && expertFfn && *expertFfn > 0) {
            shared = *sharedFfn / *expertFfn;
            if (*sharedFfn % *expertFfn != 0)
                result.notes << tr("the shared expert (%1) is not a whole number of routed "
                                   "experts (%2): rounded down to %3")
                                    .arg(*sharedFfn)
                                    .arg(*expertFfn)
                                    .arg(shared);
        }
        moe["shared_experts"] = shared;
        moe["first_dense_layers"] = integer(config, "first_k_dense_replace").value_or(0);
        moe["capacity_factor"] = nullptr; // dropless, as these models train
        // Group-limited routing (DeepSeek-V2 "group_limited_greedy", DeepSeek-V3 "noaux_tc":
        // n_group groups, topk_group of them per token; transformers' DeepseekV3MoE). A single
        // group, or topk_method "greedy" (DeepSeek-V2-Lite), limits nothing.
        const auto groups = integer(config, "n_group");
        const auto perToken = integer(config, "topk_group");
        if (groups && perToken && *groups > 1 && *perToken < *groups && topkMethod != "greedy") {
            moe["groups"] = *groups;
            moe["groups_per_token"] = *perToken;
        }
        model["moe"] = moe;
        // A model with no dense layers repeats the expert size (the catalog's convention).
        model["ffn_hidden"] = intermediate.value_or(moe["expert_ffn_hidden"].get<std::int64_t>());
        if (hasAny(config, {"mlp_only_layers", "decoder_sparse_step"}) &&
            (sparseStep != 1 || !denseOnly.empty()))
            result.notes << tr("dense layers between MoE layers are not modelled: every layer "
                               "after the first dense ones is taken as MoE");
    } else {
        if (!intermediate)
            return missing("intermediate_size");
        model["ffn_hidden"] = *intermediate;
        model["moe"] = nullptr;
    }

    // Window, sinks, biases and the clamped SwiGLU: the command line's reader
    // (core/import/HuggingFaceAttention.h).
    std::vector<std::string> keyNotes;
    std::string keyError;
    if (!addHuggingFaceAttentionKeys(config, model, keyNotes, keyError)) {
        result.error = QString::fromStdString(keyError);
        return result;
    }
    for (const std::string& note : keyNotes)
        result.notes << QString::fromStdString(note);
    static const char* known[] = {"llama", "mistral",   "mixtral",     "qwen2",       "qwen2_moe",
                                  "qwen3", "qwen3_moe", "deepseek_v2", "deepseek_v3", "gpt_oss"};
    bool isKnown = false;
    for (const char* k : known)
        isKnown = isKnown || type == k;
    if (!isKnown)
        result.notes << tr("model_type \"%1\" is not one Trainscape knows; its keys were read "
                           "as Llama's")
                            .arg(QString::fromStdString(type));
    result.model = std::move(model);
    return result;
}

HuggingFaceImport HuggingFaceConfig::fromText(const QByteArray& text) {
    const Json config = Json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (config.is_discarded()) {
        HuggingFaceImport result;
        result.error = tr("not a JSON file");
        return result;
    }
    return toScenarioModel(config);
}

HuggingFaceImport HuggingFaceConfig::fromFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        HuggingFaceImport result;
        result.error = file.errorString();
        return result;
    }
    return fromText(file.read(4 << 20));
}

} // namespace ts::gui
