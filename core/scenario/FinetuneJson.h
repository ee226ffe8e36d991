#pragma once
// Reading and writing the scenario's "finetune" section (shared/spec/scenario-format.md,
// "Fine-tuning keys"). The reader checks types and vocabularies; what depends on the model
// or the GPU (a target the model lacks, a rank above the hidden size) is the resolver's
// (scenario/FinetuneResolver.h).

#include "common/JsonObjectReader.h"
#include "scenario/Scenario.h"

namespace ts {

// Reads the object at `path` ("/finetune"); errors name the key's JSON path.
std::optional<FinetuneInput> readFinetune(const Json& value, const std::string& path,
                                          Diagnostics& diags);
Json finetuneToJson(const FinetuneInput& in);

} // namespace ts
