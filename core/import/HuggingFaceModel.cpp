// A Hugging Face transformers config.json as the scenario's "model" object, for importers
// that run without Qt (the desktop's Model > Import reads the same keys, models/
// HuggingFaceConfig.cpp). Keys: transformers' LlamaConfig, MixtralConfig, Qwen2/3(Moe)Config,
// DeepseekV3Config.

#include "import/LaunchImport.h"

#include "import/HuggingFaceAttention.h"

#include <type_traits>

namespace ts {
namespace {

std::optional<std::int64_t> integer(const nlohmann::json& c, const char* key) {
    const auto it = c.find(key);
    if (it == c.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

// A string or boolean member, `fallback` when absent or null; a member of another type sets
// `wrong` to its key (nlohmann's value() would throw type_error out of the import).
template <class T>
T typed(const nlohmann::json& c, const char* key, T fallback, const char*& wrong) {
    const auto it = c.find(key);
    if (it == c.end() || it->is_null())
        return fallback;
    const bool right = std::is_same_v<T, bool> ? it->is_boolean() : it->is_string();
    if (!right) {
        if (!wrong)
            wrong = key;
        return fallback;
    }
    return it->get<T>();
}

} // namespace

std::optional<nlohmann::ordered_json>
modelFromHuggingFace(const nlohmann::json& c, std::string& error, std::vector<std::string>& notes) {
    for (const char* key :
         {"num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size"})
        if (!integer(c, key) || *integer(c, key) <= 0) {
            error = std::string("the Hugging Face config has no positive integer \"") + key + "\"";
            return std::nullopt;
        }
    const char* wrong = nullptr;
    const std::string act = typed<std::string>(c, "hidden_act", "silu", wrong);
    const bool tied = typed<bool>(c, "tie_word_embeddings", false, wrong);
    const std::string topkMethod = typed<std::string>(c, "topk_method", "", wrong);
    const std::string type = typed<std::string>(c, "model_type", "", wrong);
    if (wrong) {
        error = std::string("the Hugging Face config's \"") + wrong +
                "\" has the wrong type (a string, or true or false, as transformers writes it)";
        return std::nullopt;
    }
    nlohmann::ordered_json m;
    const std::int64_t hidden = *integer(c, "hidden_size");
    const std::int64_t heads = *integer(c, "num_attention_heads");
    m["layers"] = *integer(c, "num_hidden_layers");
    m["hidden"] = hidden;
    m["heads"] = heads;
    m["kv_heads"] = integer(c, "num_key_value_heads").value_or(heads);
    m["head_dim"] = integer(c, "head_dim").value_or(hidden / heads);
    m["vocab"] = *integer(c, "vocab_size");
    m["mlp"] = act.rfind("gelu", 0) == 0 ? "gelu" : "swiglu";
    m["tied_embeddings"] = tied;
    if (integer(c, "kv_lora_rank"))
        m["mla"] = {{"q_lora_rank", integer(c, "q_lora_rank").value_or(0)},
                    {"kv_lora_rank", *integer(c, "kv_lora_rank")},
                    {"qk_nope_head_dim", integer(c, "qk_nope_head_dim").value_or(128)},
                    {"qk_rope_head_dim", integer(c, "qk_rope_head_dim").value_or(64)},
                    {"v_head_dim", integer(c, "v_head_dim").value_or(128)}};
    const auto intermediate = integer(c, "intermediate_size");
    auto experts = integer(c, "num_local_experts");
    if (!experts)
        experts = integer(c, "n_routed_experts");
    if (!experts)
        experts = integer(c, "num_experts");
    if (experts && *experts > 1) {
        const auto topK = integer(c, "num_experts_per_tok");
        const auto expertFfn =
            integer(c, "moe_intermediate_size").value_or(intermediate.value_or(0));
        if (!topK || expertFfn <= 0) {
            error = "the Hugging Face config has experts but no num_experts_per_tok or expert size";
            return std::nullopt;
        }
        nlohmann::ordered_json moe = {
            {"experts", *experts},
            {"top_k", *topK},
            {"expert_ffn_hidden", expertFfn},
            {"shared_experts", integer(c, "n_shared_experts").value_or(0)},
            {"first_dense_layers", integer(c, "first_k_dense_replace").value_or(0)},
            {"capacity_factor", nullptr}};
        const auto groups = integer(c, "n_group");
        const auto perToken = integer(c, "topk_group");
        if (groups && perToken && *groups > 1 && *perToken < *groups && topkMethod != "greedy") {
            moe["groups"] = *groups;
            moe["groups_per_token"] = *perToken;
        }
        m["moe"] = moe;
        m["ffn_hidden"] = intermediate.value_or(expertFfn);
    } else {
        if (!intermediate) {
            error = "the Hugging Face config has no integer \"intermediate_size\"";
            return std::nullopt;
        }
        m["ffn_hidden"] = *intermediate;
    }
    if (!addHuggingFaceAttentionKeys(c, m, notes, error))
        return std::nullopt;
    static const char* known[] = {"llama", "mistral",   "mixtral",     "qwen2",       "qwen2_moe",
                                  "qwen3", "qwen3_moe", "deepseek_v2", "deepseek_v3", "gpt_oss"};
    bool isKnown = false;
    for (const char* k : known)
        isKnown = isKnown || type == k;
    if (!isKnown)
        notes.push_back("model_type \"" + type + "\" is unknown: its keys were read as Llama's");
    return m;
}

std::optional<ImportFormat> importFormatFromString(const std::string& name) {
    if (name == "megatron")
        return ImportFormat::Megatron;
    if (name == "deepspeed")
        return ImportFormat::DeepSpeed;
    if (name == "torchtitan")
        return ImportFormat::Torchtitan;
    return std::nullopt;
}

ImportResult importLaunchConfig(ImportFormat format, const ImportInput& input) {
    switch (format) {
    case ImportFormat::Megatron:
        return importMegatron(input);
    case ImportFormat::DeepSpeed:
        return importDeepSpeed(input);
    case ImportFormat::Torchtitan:
        return importTorchtitan(input);
    }
    return {};
}

} // namespace ts
