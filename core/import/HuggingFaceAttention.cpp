#include "import/HuggingFaceAttention.h"

namespace ts {

namespace {

// "all" or "alternate" from transformers' layer_types ("sliding_attention" /
// "full_attention" per layer), or empty when the pattern is neither.
std::string windowLayers(const nlohmann::json& types, bool& anyWindow) {
    bool all = true, alternate = true;
    anyWindow = false;
    for (std::size_t i = 0; i < types.size(); ++i) {
        const bool sliding = types[i].is_string() && types[i] == "sliding_attention";
        anyWindow = anyWindow || sliding;
        all = all && sliding;
        alternate = alternate && sliding == (i % 2 == 0);
    }
    return all ? "all" : alternate ? "alternate" : "";
}

} // namespace

bool addHuggingFaceAttentionKeys(const nlohmann::json& c, nlohmann::ordered_json& m,
                                 std::vector<std::string>& notes, std::string& error) {
    const auto typeIt = c.find("model_type");
    const std::string type =
        typeIt != c.end() && typeIt->is_string() ? typeIt->get<std::string>() : std::string();
    const auto window = c.find("sliding_window");
    const auto use = c.find("use_sliding_window"); // Qwen2: the window applies only when true
    const bool enabled = use == c.end() || !use->is_boolean() || use->get<bool>();
    if (window != c.end() && !window->is_null() && enabled) {
        if (!window->is_number_integer() || window->get<std::int64_t>() <= 0) {
            error =
                "the Hugging Face config's \"sliding_window\" must be a positive integer or null";
            return false;
        }
        std::string layers = "all";
        if (const auto types = c.find("layer_types"); types != c.end() && types->is_array()) {
            bool anyWindow = false;
            layers = windowLayers(*types, anyWindow);
            if (!anyWindow)
                layers = "none";
            else if (layers.empty()) {
                layers = "alternate";
                notes.push_back("layer_types mixes sliding and full attention in a pattern other "
                                "than every other layer: read as \"alternate\"");
            }
        } else if (c.contains("max_window_layers") && type.rfind("qwen", 0) == 0) {
            notes.push_back("max_window_layers: the window read as applying to every layer");
        }
        if (layers != "none") {
            m["sliding_window"] = window->get<std::int64_t>();
            m["window_layers"] = layers;
        }
    }
    const auto bias = c.find("attention_bias");
    if (bias != c.end() && !bias->is_null()) {
        if (!bias->is_boolean()) {
            error = "the Hugging Face config's \"attention_bias\" must be true or false";
            return false;
        }
        if (bias->get<bool>() != (m.value("mlp", "") == "gelu"))
            m["attention_bias"] = bias->get<bool>();
    }
    if (type == "gpt_oss") {
        // modeling_gpt_oss.py: a learnable sink per head (GptOssAttention.sinks), biases on the
        // router (GptOssTopKRouter.bias) and on both expert projections, and the clamped SwiGLU
        // of swiglu_limit (GptOssExperts: alpha 1.702, limit 7.0).
        m["attention_sinks"] = true;
        if (m.contains("moe") && m["moe"].is_object()) {
            m["moe"]["expert_bias"] = true;
            m["moe"]["router_bias"] = true;
        }
        m["mlp"] = "clamped-swiglu";
        const auto limit = c.find("swiglu_limit");
        if (limit != c.end() && !(limit->is_number() && limit->get<double>() == 7.0))
            notes.push_back("swiglu_limit other than 7.0: the clamp is stated as GPT-OSS's 7");
    }
    return true;
}

} // namespace ts
