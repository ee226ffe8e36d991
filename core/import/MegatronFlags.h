#pragma once
// Internal to the Megatron-LM importer: parsed flags and the pieces that read them.

#include "import/LaunchImport.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ts {

using MegatronFlags = std::map<std::string, std::vector<std::string>>;

std::optional<std::int64_t> flagInteger(const MegatronFlags& f, const char* flag);
std::string flagText(const MegatronFlags& f, const char* flag);
bool hasFlag(const MegatronFlags& f, const char* flag);
// Dense layers before the first MoE layer of a --moe-layer-freq value; -1 when the pattern
// is not "dense first, then every layer MoE".
int megatronFirstDense(const std::string& freq, int layers);

nlohmann::ordered_json megatronModel(const MegatronFlags& f, ImportResult& r);
// The wave-3 model keys from their flags (--window-size, --window-attn-skip-freq,
// --softmax-type, --quick-geglu, the bias flags), added to the model megatronModel read.
void megatronModelKeys(const MegatronFlags& f, nlohmann::ordered_json& model, ImportResult& r);
nlohmann::ordered_json megatronTraining(const MegatronFlags& f, ImportResult& r);
nlohmann::ordered_json megatronParallel(const MegatronFlags& f, const nlohmann::ordered_json& model,
                                        std::int64_t world, ImportResult& r);
const std::set<std::string>& megatronKnownFlags();   // read into the scenario
const std::set<std::string>& megatronIgnoredFlags(); // no effect on the plan

} // namespace ts
