#pragma once
// A model torchtitan v0.2.2 has no registered flavor for, as a custom flavor: a Python module
// that [experimental] custom_import loads (torchtitan/train.py imports it before reading the
// train spec) and that adds the flavor "trainscape" to the llama3 registry (dense SwiGLU
// decoders, torchtitan/models/llama3/__init__.py llama3_args) or the llama4 registry
// (token-choice mixture of experts, torchtitan/models/llama4/__init__.py llama4_args).
// The hidden sizes go through torchtitan's own formula (FeedForward in model/model.py):
//   h = int(2 * 4 * dim / 3); h = int(ffn_dim_multiplier * h); h rounded up to multiple_of
// so multiple_of = F and ffn_dim_multiplier = F / int(8 dim / 3) give exactly F.

#include "export/Exporter.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ts {

inline constexpr const char* kTorchtitanCustomModule = "trainscape_flavor";
inline constexpr const char* kTorchtitanCustomFlavor = "trainscape";

struct TorchtitanCustomFlavor {
    std::string modelName; // [model] name: "llama3" or "llama4"
    std::string python;    // trainscape_flavor.py
};

// nullopt with refusals naming the /model field torchtitan's llama3 and llama4 cannot build.
std::optional<TorchtitanCustomFlavor> torchtitanCustomFlavor(const ResolvedScenario& plan,
                                                             std::vector<ExportRefusal>& refusals);

// torchtitan's SwiGLU hidden size for (dim, multiple_of, ffn_dim_multiplier).
std::int64_t torchtitanHiddenDim(std::int64_t dim, std::int64_t multipleOf,
                                 std::optional<double> multiplier);

} // namespace ts
