// A DeepSpeed ds_config.json with a Hugging Face config.json -> scenario
// (import/DeepSpeedImport.cpp). The input is the ds_config; after a NUL byte, if there is one,
// comes the Hugging Face config (otherwise Llama 3 8B's, tests/fixtures/hf/llama3-8b), so
// both are fuzzed. Invariants: FuzzImport.h.

#include "FuzzImport.h"

#include <cstdint>
#include <string>
#include <string_view>

using namespace ts;

namespace {

// tests/fixtures/hf/llama3-8b/config.json, the keys the importer reads.
constexpr std::string_view kLlama3_8b = R"({"architectures": ["LlamaForCausalLM"],
 "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
 "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
 "vocab_size": 128256, "max_position_embeddings": 131072, "rms_norm_eps": 1e-05,
 "rope_theta": 500000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    const std::size_t split = all.find('\0');
    ImportInput input;
    input.text = std::string(all.substr(0, split));
    input.seqLen = 4096;
    const std::string_view hf =
        split == std::string_view::npos ? kLlama3_8b : all.substr(split + 1);
    const auto config = nlohmann::json::parse(hf, nullptr, false);
    if (config.is_discarded())
        return 0; // the CLI refuses an --hf-config that is not JSON before importing
    input.hfConfig = config;
    fuzz::checkImport(importDeepSpeed(input));
    return 0;
}
