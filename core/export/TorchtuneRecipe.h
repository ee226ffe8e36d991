#pragma once
// A plan as a torchtune recipe and its config (pytorch/torchtune tag v0.6.1): which of the four
// fine-tuning recipes runs it (recipes/{lora,full}_finetune_{single_device,distributed}.py),
// the refusals for what those recipes cannot run, and the YAML config they read.

#include "export/Exporter.h"
#include "export/LaunchShape.h"
#include "export/TorchtuneModels.h"

#include <string>
#include <vector>

namespace ts {

struct TorchtuneRecipe {
    std::string name; // "lora_finetune_single_device", ...
    bool distributed = false;
    bool adapters = false;
};

TorchtuneRecipe torchtuneRecipe(const ResolvedScenario& plan, const LaunchShape& shape);

// Refuses (into `refusals`) every setting the recipe cannot run, by its scenario path.
void refuseForTorchtune(const ResolvedScenario& plan, const TorchtuneBuilder* builder,
                        const TorchtuneRecipe& recipe, const LaunchShape& shape,
                        std::vector<ExportRefusal>& refusals);

// The `tune download` command that fetches the builder's checkpoint and tokenizer, in lines
// continued with a backslash.
std::vector<std::string> torchtuneDownload(const TorchtuneBuilder& builder);

// The recipe's config as YAML text (yaml-cpp), header comments included.
std::string torchtuneConfig(const ResolvedScenario& plan, const TorchtuneBuilder& builder,
                            const TorchtuneRecipe& recipe, const LaunchShape& shape,
                            const ExportOptions& options);

} // namespace ts
