#pragma once
// A fully resolved transformer architecture (presets merged, defaults applied).

#include "scenario/Enums.h"

#include <cstdint>
#include <optional>

namespace ts {

// Multi-head latent attention, DeepSeek-V2/V3 (arXiv 2405.04434, 2412.19437).
struct MlaConfig {
    int qLoraRank = 0; // 0 = queries are not compressed (DeepSeek-V2-Lite)
    int kvLoraRank = 0;
    int qkNopeHeadDim = 0;
    int qkRopeHeadDim = 0;
    int vHeadDim = 0;
    bool operator==(const MlaConfig&) const = default;
};

struct MoeConfig {
    int experts = 0;
    int topK = 0;
    std::int64_t expertFfnHidden = 0;
    int sharedExperts = 0;
    int firstDenseLayers = 0;
    std::optional<double> capacityFactor; // nullopt = dropless
    // Group-limited routing (DeepSeek-V3 arXiv 2412.19437 sec. 2.1.2; HF n_group /
    // topk_group; Megatron-Core --moe-router-num-groups / --moe-router-group-topk): the
    // experts form `groups` equal groups and a token's top_k experts come from at most
    // groupsPerToken of them; both are set together. Outer optional: the key is written;
    // inner: null (no group limit) or the count. A resolved model holds no written null.
    std::optional<std::optional<int>> groups;
    std::optional<std::optional<int>> groupsPerToken;
    int groupCount() const { return groups && *groups ? **groups : 0; } // 0: no group limit
    int groupsPerTokenCount() const {
        return groupsPerToken && *groupsPerToken ? **groupsPerToken : 0;
    }
    // Biases on both expert matrices and on the router linear (GPT-OSS: Hugging Face
    // modeling_gpt_oss.py GptOssExperts gate_up_proj_bias / down_proj_bias, GptOssTopKRouter
    // bias). Optional: written only when the file says; unstated expert biases follow the MLP
    // (GELU experts carry them, as GPT-style MLPs do).
    std::optional<bool> expertBias;
    std::optional<bool> routerBias;
    bool operator==(const MoeConfig&) const = default;
};

struct ModelConfig {
    int layers = 0;
    std::int64_t hidden = 0;
    std::int64_t ffnHidden = 0;
    int heads = 0;
    int kvHeads = 0;
    int headDim = 0;
    std::int64_t vocab = 0;
    MlpKind mlp = MlpKind::SwiGlu;
    bool tiedEmbeddings = false;
    std::optional<MlaConfig> mla;
    std::optional<MoeConfig> moe;
    // Sliding-window attention (scenario format, wave 3 "Model keys"): the tokens a query
    // attends to, itself included, on the windowed layers; nullopt = full causal attention.
    std::optional<std::int64_t> slidingWindow;
    WindowLayers windowLayers = WindowLayers::All;
    // One learnable logit per head in the softmax denominator (GPT-OSS; Megatron softmax_type
    // "learnable"; Xiao et al. 2023, "Efficient Streaming Language Models with Attention
    // Sinks", arXiv 2309.17453).
    bool attentionSinks = false;
    // Biases on the QKV and output projections: stated, or (unstated) those of a GELU model.
    bool attentionBias = false;
    // Whether layer `index` (0-based) attends through the window.
    bool windowedLayer(int index) const {
        return slidingWindow && (windowLayers == WindowLayers::All || index % 2 == 0);
    }
    // Fraction of the layers that are windowed: 0 without a window, 1 for "all", and
    // ceil(L/2)/L for "alternate" (layers 0, 2, 4, ...).
    double windowedLayerFraction() const {
        if (!slidingWindow || layers <= 0)
            return 0.0;
        return windowLayers == WindowLayers::All ? 1.0 : double((layers + 1) / 2) / layers;
    }
    bool expertBias() const {
        return moe && moe->expertBias ? *moe->expertBias : mlp == MlpKind::Gelu;
    }
    bool routerBias() const { return moe && moe->routerBias.value_or(false); }
    bool operator==(const ModelConfig&) const = default;
};

} // namespace ts
