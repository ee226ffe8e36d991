#include "export/TorchtitanModels.h"

namespace ts {

const std::vector<TorchtitanFlavor>& torchtitanFlavors() {
    // llama3: vocab_size 128256 (model/args.py default); deepseek_v3 671B: vocab 129280.
    static const std::vector<TorchtitanFlavor> flavors = {
        {"llama3", "8B", "meta-llama/Llama-3.1-8B", 32, 4096, 32, 8, 128256, 0},
        {"llama3", "70B", "meta-llama/Llama-3.1-70B", 80, 8192, 64, 8, 128256, 0},
        {"llama3", "405B", "meta-llama/Llama-3.1-405B", 126, 16384, 128, 8, 128256, 0},
        {"deepseek_v3", "671B", "deepseek-ai/DeepSeek-V3", 61, 7168, 128, 128, 129280, 256},
    };
    return flavors;
}

const TorchtitanFlavor* torchtitanFlavor(const ResolvedScenario& plan) {
    const auto& m = plan.model;
    const int experts = m.moe ? m.moe->experts : 0;
    for (const auto& f : torchtitanFlavors())
        if (f.layers == m.layers && f.hidden == m.hidden && f.heads == m.heads &&
            (f.kvHeads == m.kvHeads || m.mla) && f.vocab == m.vocab && f.experts == experts)
            return &f;
    return nullptr;
}

const TorchtitanFlavor* torchtitanFlavorByName(std::string_view name, std::string_view flavor) {
    for (const auto& f : torchtitanFlavors())
        if (name == f.name && flavor == f.flavor)
            return &f;
    return nullptr;
}

} // namespace ts
