#pragma once
// Readers and writers of the scenario's building blocks, shared by the scenario format and
// the catalog format (a catalog model preset is a scenario "model" object with an id).

#include "common/JsonObjectReader.h"
#include "scenario/Scenario.h"

namespace ts {

// `value` under `key` when it is set; an unset key stays absent.
template <class T> void putOptional(Json& out, const char* key, const std::optional<T>& value) {
    if (value)
        out[key] = *value;
}

// An enum's name under `key` when it is set.
template <class E> void putEnum(Json& out, const char* key, const std::optional<E>& value) {
    if (value)
        out[key] = std::string(enumName(*value));
}

// The GPU object: name, memory_gib, hbm_gb_s, bf16_tflops, fp8_tflops, fp32_tflops, tdp_w
// (required) and the optional keys of GpuSpec.
std::optional<GpuSpec> readGpuSpec(JsonObjectReader& reader);
void writeGpuSpec(const GpuSpec& gpu, Json& out);

// "gpu" of a cluster or a pool: a catalog id or a GPU object (nullopt when absent, null or
// refused, with the error at r's "gpu"); written back in the same form.
std::optional<GpuInput> readGpuInput(JsonObjectReader& reader);
void putGpuInput(Json& out, const std::optional<GpuInput>& gpu);

// The architecture keys of a "model" object (not "preset").
ModelInput readModelFields(JsonObjectReader& reader);
void writeModelFields(const ModelInput& model, Json& out);
// A preset's fields as an input, for merging.
ModelInput toModelInput(const ModelConfig& model);
// Group-limited routing (model.moe groups, groups_per_token) against experts and top_k, with
// errors at `moePath`/groups or /groups_per_token; false on an error. The resolver checks the
// MoE object in effect (a preset's or the file's); the reader only reads the keys, so that
// an editor may write them one after the other.
bool checkMoeGroups(const MoeConfig& moe, const std::string& moePath, Diagnostics& diags);

ScaleUpInput readScaleUp(JsonObjectReader& reader);
ScaleOutInput readScaleOut(JsonObjectReader& reader);
Json scaleUpToJson(const ScaleUpInput& in);
Json scaleOutToJson(const ScaleOutInput& in);

// cluster.host (scenario) and a cluster preset's "host" (catalog): pcie_gb_s, memory_gib,
// memory_gb_s, nvme_read_gb_s, nvme_write_gb_s, nvme_gib, each optional and > 0.
HostInput readHost(JsonObjectReader& reader);
Json hostToJson(const HostInput& in);

} // namespace ts
