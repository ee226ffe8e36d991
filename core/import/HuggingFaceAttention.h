#pragma once
// The wave-3 model keys of a Hugging Face config.json (GPT-OSS, Mistral, Qwen2): sliding window
// and the layers it applies to, attention sinks and biases, the clamped SwiGLU, expert and
// router biases. Shared by the command-line importers (HuggingFaceModel.cpp) and the desktop's
// Model > Import (models/HuggingFaceConfig.cpp). Keys and meanings: transformers
// GptOssConfig / modeling_gpt_oss.py, MistralConfig, Qwen2Config (docs/gpt-oss-keys-sources.md).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

// Adds the keys the config states to `model` (a scenario "model" object whose "mlp" and
// "moe" are set); what it cannot state goes to `notes`. Returns false, with `error`, on a key
// of the wrong type.
bool addHuggingFaceAttentionKeys(const nlohmann::json& config, nlohmann::ordered_json& model,
                                 std::vector<std::string>& notes, std::string& error);

} // namespace ts
