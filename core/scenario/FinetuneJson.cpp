#include "scenario/FinetuneJson.h"

#include "scenario/Limits.h"
#include "scenario/SectionJson.h"

#include <algorithm>

namespace ts {

namespace {

std::string targetNames() {
    std::string out;
    for (std::string_view name : EnumNames<LoraTarget>::names)
        out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

// "lora_targets": a non-empty array of distinct PEFT module names.
std::optional<std::vector<LoraTarget>> readTargets(JsonObjectReader& r) {
    const Json* value = r.raw("lora_targets");
    if (!value || value->is_null())
        return std::nullopt;
    const std::string path = r.childPath("lora_targets");
    if (!value->is_array() || value->empty()) {
        r.diagnostics().error(path, "expected a non-empty array of module names (" + targetNames() +
                                        "), got " + jsonPreview(*value));
        return std::nullopt;
    }
    std::vector<LoraTarget> targets;
    bool ok = true;
    for (std::size_t i = 0; i < value->size(); ++i) {
        const Json& v = (*value)[i];
        const auto target =
            v.is_string() ? enumFromString<LoraTarget>(v.get<std::string>()) : std::nullopt;
        if (!target) {
            r.diagnostics().error(jsonPointerChild(path, i),
                                  "unknown module " + jsonPreview(v) + ": expected one of " +
                                      targetNames() +
                                      " (Hugging Face PEFT names of a Llama-style layer)");
            ok = false;
        } else if (std::find(targets.begin(), targets.end(), *target) != targets.end()) {
            r.diagnostics().error(jsonPointerChild(path, i),
                                  jsonPreview(v) + " is listed twice: name each module once");
            ok = false;
        } else {
            targets.push_back(*target);
        }
    }
    if (!ok)
        return std::nullopt;
    return targets;
}

} // namespace

std::optional<FinetuneInput> readFinetune(const Json& value, const std::string& path,
                                          Diagnostics& diags) {
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return std::nullopt;
    FinetuneInput f;
    r.require("method", "give \"full\", \"lora\" or \"qlora\"");
    f.method = r.enumeration<FinetuneMethod, EnumNames<FinetuneMethod>>("method");
    // 0 is read so that the resolver can say what a rank is; the upper bound is the model's.
    f.loraRank = r.int32("lora_rank", 0, limits::kMaxLoraRank);
    f.loraAlpha = r.number("lora_alpha", 0, 1e6, true);
    f.loraTargets = readTargets(r);
    f.baseWeights = r.enumeration<BaseWeights, EnumNames<BaseWeights>>("base_weights");
    f.doubleQuant = r.boolean("double_quant");
    r.finish();
    return f;
}

Json finetuneToJson(const FinetuneInput& in) {
    Json j = Json::object();
    putEnum(j, "method", in.method);
    putOptional(j, "lora_rank", in.loraRank);
    putOptional(j, "lora_alpha", in.loraAlpha);
    if (in.loraTargets) {
        Json targets = Json::array();
        for (LoraTarget t : *in.loraTargets)
            targets.push_back(std::string(enumName(t)));
        j["lora_targets"] = targets;
    }
    putEnum(j, "base_weights", in.baseWeights);
    putOptional(j, "double_quant", in.doubleQuant);
    return j;
}

} // namespace ts
