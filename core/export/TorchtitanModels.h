#pragma once
// torchtitan builds a model from a registered flavor, not from dimensions: the flavors a plan
// can name, with their dimensions as in torchtitan v0.2.2 torchtitan/models/llama3/__init__.py
// and torchtitan/models/deepseek_v3/__init__.py.

#include "export/Exporter.h"

#include <cstdint>
#include <vector>

namespace ts {

struct TorchtitanFlavor {
    const char* name;   // [model] name
    const char* flavor; // [model] flavor
    const char* hfName; // the Hugging Face repository its tokenizer comes from
    int layers;
    std::int64_t hidden;
    int heads;
    int kvHeads;
    std::int64_t vocab;
    int experts; // 0 = dense
};

const std::vector<TorchtitanFlavor>& torchtitanFlavors();
// The registered flavor whose dimensions the plan's model has; nullptr when none (the
// exporter then writes a custom flavor, export/TorchtitanCustomFlavor.h).
const TorchtitanFlavor* torchtitanFlavor(const ResolvedScenario& plan);
const TorchtitanFlavor* torchtitanFlavorByName(std::string_view name, std::string_view flavor);

} // namespace ts
