#pragma once
// torchtune builds a model from a named builder, not from dimensions: the Llama builders of
// pytorch/torchtune tag v0.6.1 (torchtune/models/<family>/_model_builders.py), with their
// dimensions, and the tokenizer and checkpoint their configs load
// (recipes/configs/<family>/*.yaml at the tag; copies in tests/data/torchtune/v0.6.1).

#include "export/Exporter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct TorchtuneBuilder {
    const char* family;  // torchtune.models.<family>
    const char* builder; // <family>_<size>: the full model; lora_ and qlora_ prefixed for adapters
    const char* presets; // catalog presets this builder is named for, space separated
    int layers;
    std::int64_t hidden;
    std::int64_t ffnHidden;
    int heads;
    int kvHeads;
    std::int64_t vocab;
    bool tiedEmbeddings;
    // As the builder's own configs at the tag load it.
    const char* tokenizer;       // tokenizer _component_
    const char* tokenizerPath;   // tokenizer.path
    const char* checkpointer;    // checkpointer _component_
    const char* checkpointDir;   // checkpointer.checkpoint_dir
    const char* checkpointFiles; // a file name, or a filename_format with {} placeholders
    const char* maxFilename;     // the last shard ("00030") for a filename_format; "" otherwise
    const char* modelType;       // checkpointer.model_type
    const char* download;        // the Hugging Face repository `tune download` fetches
    // Tensor parallelism in full_finetune_distributed: Llama 3 and later share
    // torchtune.models.llama3.base_llama_tp_plan (torchtune/models/llama3/_parallelism.py).
    bool tensorParallel;
    // lora_llama3_2 raises on apply_lora_to_output (models/llama3_2/_component_builders.py).
    bool loraOnOutput;
};

// The builder for the plan's model: among those with its dimensions, the one named for its
// preset, else llama3_1's. nullptr when no builder has the dimensions.
const TorchtuneBuilder* torchtuneBuilder(const ResolvedScenario& plan);
// Every builder with the plan's dimensions, when its preset names none of them and more than one
// has them (Llama 3, 3.1 and 3.3 70B share theirs): the config's header lists them.
std::vector<std::string> torchtuneAlternatives(const ResolvedScenario& plan);
// The builders' names for messages: "llama2_7b, llama2_13b, ...".
std::string torchtuneBuilderNames();

} // namespace ts
