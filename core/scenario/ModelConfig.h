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
