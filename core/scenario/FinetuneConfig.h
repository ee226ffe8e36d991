#pragma once
// A resolved "finetune" section: which weights train, and how the frozen base is stored.

#include "scenario/Enums.h"

#include <vector>

namespace ts {

struct FinetuneConfig {
    FinetuneMethod method = FinetuneMethod::Full;
    // LoRA / QLoRA only (Hu et al. 2021, arXiv 2106.09685): W x + (alpha / r) B A x with
    // A: r x in and B: out x r trained, W frozen. Defaults are Hugging Face PEFT's LoraConfig
    // (r = 8, lora_alpha = 8, the q_proj and v_proj of Llama models).
    int loraRank = 0;
    double loraAlpha = 0;
    std::vector<LoraTarget> targets; // in enum order, no duplicates
    // The frozen base's storage: the training precision's 16 bits for full and LoRA, NF4 for
    // QLoRA (Dettmers et al. 2023, arXiv 2305.14314, sec. 3).
    BaseWeights baseWeights = BaseWeights::Bf16;
    // QLoRA double quantisation: the FP32 absmax of each 64-weight block quantised to 8 bits
    // in blocks of 256 (QLoRA sec. 3; torchao NF4Tensor always does it). Only with nf4.
    bool doubleQuant = true;

    bool adapters() const { return method != FinetuneMethod::Full; }
    bool wraps(LoraTarget t) const {
        for (LoraTarget x : targets)
            if (x == t)
                return true;
        return false;
    }
    bool operator==(const FinetuneConfig&) const = default;
};

} // namespace ts
