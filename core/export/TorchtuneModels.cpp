#include "export/TorchtuneModels.h"

#include <sstream>
#include <vector>

namespace ts {
namespace {

constexpr const char* kLlama2Tokenizer = "torchtune.models.llama2.llama2_tokenizer";
constexpr const char* kLlama3Tokenizer = "torchtune.models.llama3.llama3_tokenizer";
constexpr const char* kHf = "torchtune.training.FullModelHFCheckpointer";
constexpr const char* kMeta = "torchtune.training.FullModelMetaCheckpointer";

// Dimensions: torchtune v0.6.1 torchtune/models/<family>/_model_builders.py. Tokenizer and
// checkpoint: the family's LoRA configs at the tag (e.g. llama3_1/8B_lora_single_device.yaml,
// llama3_1/70B_lora.yaml, llama2/70B_lora.yaml, llama3/8B_lora_single_device.yaml). Among
// builders with the same dimensions llama3_1 comes last: without a preset that names another,
// a plan gets the family with 8B, 70B and 405B builders.
const std::vector<TorchtuneBuilder>& builders() {
    static const std::vector<TorchtuneBuilder> list = {
        {"llama2",
         "llama2_7b",
         "llama2-7b",
         32,
         4096,
         11008,
         32,
         32,
         32000,
         false,
         kLlama2Tokenizer,
         "/tmp/Llama-2-7b-hf/tokenizer.model",
         kHf,
         "/tmp/Llama-2-7b-hf",
         "pytorch_model-{}-of-{}.bin",
         "00002",
         "LLAMA2",
         "meta-llama/Llama-2-7b-hf",
         false,
         true},
        {"llama2",
         "llama2_13b",
         "llama2-13b",
         40,
         5120,
         13824,
         40,
         40,
         32000,
         false,
         kLlama2Tokenizer,
         "/tmp/Llama-2-13b-hf/tokenizer.model",
         kHf,
         "/tmp/Llama-2-13b-hf/",
         "pytorch_model-{}-of-{}.bin",
         "00003",
         "LLAMA2",
         "meta-llama/Llama-2-13b-hf",
         false,
         true},
        {"llama2",
         "llama2_70b",
         "llama2-70b",
         80,
         8192,
         28672,
         64,
         8,
         32000,
         false,
         kLlama2Tokenizer,
         "/tmp/Llama-2-70b-hf/tokenizer.model",
         kHf,
         "/tmp/Llama-2-70b-hf",
         "pytorch_model-{}-of-{}.bin",
         "00015",
         "LLAMA2",
         "meta-llama/Llama-2-70b-hf",
         false,
         true},
        {"llama3",
         "llama3_8b",
         "llama3-8b",
         32,
         4096,
         14336,
         32,
         8,
         128256,
         false,
         kLlama3Tokenizer,
         "/tmp/Meta-Llama-3-8B-Instruct/original/tokenizer.model",
         kMeta,
         "/tmp/Meta-Llama-3-8B-Instruct/original/",
         "consolidated.00.pth",
         "",
         "LLAMA3",
         "meta-llama/Meta-Llama-3-8B-Instruct",
         true,
         true},
        {"llama3_1",
         "llama3_1_8b",
         "llama3.1-8b",
         32,
         4096,
         14336,
         32,
         8,
         128256,
         false,
         kLlama3Tokenizer,
         "/tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model",
         kHf,
         "/tmp/Meta-Llama-3.1-8B-Instruct/",
         "model-{}-of-{}.safetensors",
         "00004",
         "LLAMA3",
         "meta-llama/Meta-Llama-3.1-8B-Instruct",
         true,
         true},
        {"llama3",
         "llama3_70b",
         "llama3-70b",
         80,
         8192,
         28672,
         64,
         8,
         128256,
         false,
         kLlama3Tokenizer,
         "/tmp/Meta-Llama-3-70B-Instruct/original/tokenizer.model",
         kHf,
         "/tmp/Meta-Llama-3-70B-Instruct",
         "model-{}-of-{}.safetensors",
         "00030",
         "LLAMA3",
         "meta-llama/Meta-Llama-3-70B-Instruct",
         true,
         true},
        {"llama3_3",
         "llama3_3_70b",
         "llama3.3-70b",
         80,
         8192,
         28672,
         64,
         8,
         128256,
         false,
         kLlama3Tokenizer,
         "/tmp/Llama-3.3-70B-Instruct/original/tokenizer.model",
         kHf,
         "/tmp/Llama-3.3-70B-Instruct/",
         "model-{}-of-{}.safetensors",
         "00030",
         "LLAMA3",
         "meta-llama/Llama-3.3-70B-Instruct",
         true,
         true},
        {"llama3_1",
         "llama3_1_70b",
         "llama3.1-70b",
         80,
         8192,
         28672,
         64,
         8,
         128256,
         false,
         kLlama3Tokenizer,
         "/tmp/Meta-Llama-3.1-70B-Instruct/original/tokenizer.model",
         kHf,
         "/tmp/Meta-Llama-3.1-70B-Instruct/",
         "model-{}-of-{}.safetensors",
         "00030",
         "LLAMA3",
         "meta-llama/Meta-Llama-3.1-70B-Instruct",
         true,
         true},
        {"llama3_1",
         "llama3_1_405b",
         "llama3.1-405b",
         126,
         16384,
         53248,
         128,
         8,
         128256,
         false,
         kLlama3Tokenizer,
         "/tmp/Meta-Llama-3.1-405B-Instruct/original/mp8/tokenizer.model",
         kHf,
         "/tmp/Meta-Llama-3.1-405B-Instruct/",
         "model-{}-of-{}.safetensors",
         "00191",
         "LLAMA3",
         "meta-llama/Meta-Llama-3.1-405B-Instruct",
         true,
         true},
        {"llama3_2",
         "llama3_2_1b",
         "llama3.2-1b",
         16,
         2048,
         8192,
         32,
         8,
         128256,
         true,
         kLlama3Tokenizer,
         "/tmp/Llama-3.2-1B-Instruct/original/tokenizer.model",
         kHf,
         "/tmp/Llama-3.2-1B-Instruct/",
         "model.safetensors",
         "",
         "LLAMA3_2",
         "meta-llama/Llama-3.2-1B-Instruct",
         true,
         false},
        {"llama3_2",
         "llama3_2_3b",
         "llama3.2-3b",
         28,
         3072,
         8192,
         24,
         8,
         128256,
         true,
         kLlama3Tokenizer,
         "/tmp/Llama-3.2-3B-Instruct/original/tokenizer.model",
         kHf,
         "/tmp/Llama-3.2-3B-Instruct/",
         "model-{}-of-{}.safetensors",
         "00002",
         "LLAMA3_2",
         "meta-llama/Llama-3.2-3B-Instruct",
         true,
         false},
    };
    return list;
}

bool namedFor(const TorchtuneBuilder& b, const std::string& preset) {
    std::istringstream words(b.presets);
    std::string w;
    while (words >> w)
        if (w == preset)
            return true;
    return false;
}

std::vector<const TorchtuneBuilder*> sameDimensions(const ModelConfig& m) {
    std::vector<const TorchtuneBuilder*> out;
    // torchtune v0.6.1's builders: full attention without sinks or biases (its Qwen2 builders'
    // QKV-only biases are not model.attention_bias, which adds the output projection's).
    if (m.moe || m.mla || m.mlp != MlpKind::SwiGlu || m.slidingWindow || m.attentionSinks ||
        m.attentionBias)
        return out;
    for (const auto& b : builders())
        if (b.layers == m.layers && b.hidden == m.hidden && b.ffnHidden == m.ffnHidden &&
            b.heads == m.heads && b.kvHeads == m.kvHeads && b.vocab == m.vocab &&
            b.tiedEmbeddings == m.tiedEmbeddings && (!m.headDim || m.headDim == b.hidden / b.heads))
            out.push_back(&b);
    return out;
}

} // namespace

const TorchtuneBuilder* torchtuneBuilder(const ResolvedScenario& plan) {
    const auto matches = sameDimensions(plan.model);
    for (const TorchtuneBuilder* b : matches)
        if (namedFor(*b, plan.modelPreset))
            return b;
    return matches.empty() ? nullptr : matches.back();
}

std::vector<std::string> torchtuneAlternatives(const ResolvedScenario& plan) {
    const auto matches = sameDimensions(plan.model);
    std::vector<std::string> out;
    for (const TorchtuneBuilder* b : matches)
        if (namedFor(*b, plan.modelPreset))
            return {};
    if (matches.size() > 1)
        for (const TorchtuneBuilder* b : matches)
            out.push_back(b->builder);
    return out;
}

std::string torchtuneBuilderNames() {
    std::string out;
    for (const auto& b : builders())
        out += (out.empty() ? "" : ", ") + std::string(b.builder);
    return out;
}

} // namespace ts
