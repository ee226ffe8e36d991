#pragma once
// Reading a launcher's configuration back into a v1 scenario (the inverse of core/export):
// a Megatron-LM command line or launch script, a DeepSpeed ds_config.json (with the model
// from a Hugging Face config.json), or a torchtitan v0.2.x TOML job config. Every flag or key
// the importer does not turn into a scenario key is listed, never dropped silently.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

struct ImportInput {
    std::string text;                       // the file's content
    std::string clusterPreset = "dgx-h100"; // launch files do not say which GPUs run them
    std::optional<nlohmann::json> hfConfig; // Hugging Face config.json (DeepSpeed)
    std::optional<std::int64_t> seqLen;     // DeepSpeed configs carry no sequence length
    // The job's world size: a DeepSpeed config without train_batch_size (DeepSpeed derives it
    // from the world size, runtime/config.py:953-957) fixes its data-parallel size with it.
    std::optional<std::int64_t> numGpus;
    // Files beside the one read, by name: a torchtitan job's [experimental] custom_import
    // module ("trainscape_flavor.py"), which holds the architecture of a custom flavor.
    std::map<std::string, std::string> companions;
};

struct ImportResult {
    std::optional<nlohmann::ordered_json> scenario; // nullopt: see error
    std::string error;                              // what is missing, and how to give it
    std::vector<std::string> unsupported;           // flags or keys the importer does not know
    std::vector<std::string> ignored;               // known, but with no effect on the plan
    std::vector<std::string> notes;                 // what was assumed
};

enum class ImportFormat { Megatron, DeepSpeed, Torchtitan };
std::optional<ImportFormat> importFormatFromString(const std::string& name);

ImportResult importMegatron(const ImportInput& input);
ImportResult importDeepSpeed(const ImportInput& input);
ImportResult importTorchtitan(const ImportInput& input);
ImportResult importLaunchConfig(ImportFormat format, const ImportInput& input);

// A Hugging Face config.json as the scenario's "model" object (Llama, Mistral, Mixtral,
// Qwen2/3 (MoE), DeepSeek-V2/V3). Sets `error` naming the missing key.
std::optional<nlohmann::ordered_json> modelFromHuggingFace(const nlohmann::json& config,
                                                           std::string& error,
                                                           std::vector<std::string>& notes);

} // namespace ts
