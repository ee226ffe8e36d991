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
    bool operator==(const ModelConfig&) const = default;
};

} // namespace ts
