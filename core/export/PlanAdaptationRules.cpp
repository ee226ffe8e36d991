// The answers to refusals: for each scenario field a target refuses, the nearest setting it
// runs. Each rule reads the explicit scenario (every value resolved) and names the JSON
// pointers it changes. "Nearest" keeps the parallel degrees, the model and the batch where it
// can, and prefers a change that lowers memory (full recompute, more sharding) over one that
// raises it; the adaptation loop then checks the result with the estimator.

#include "export/PlanAdaptation.h"

#include <algorithm>
#include <functional>
#include <map>

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

struct RuleContext {
    std::string_view target;
    const ExportRefusal& refusal;
    const Json& plan;

    Json at(const std::string& path) const {
        const Json::json_pointer pointer(path);
        return plan.contains(pointer) ? plan.at(pointer) : Json();
    }
    std::int64_t number(const std::string& path, std::int64_t fallback = 1) const {
        const Json v = at(path);
        return v.is_number_integer() ? v.get<std::int64_t>() : fallback;
    }
    std::string text(const std::string& path) const {
        const Json v = at(path);
        return v.is_string() ? v.get<std::string>() : std::string();
    }
    // `how`: what the rule did about the refusal, after the target's own words.
    PlanChange change(std::string path, Json after, const char* how = nullptr) const {
        Json before = at(path);
        std::string reason = refusal.message;
        if (how)
            reason += std::string(" (adapted: ") + how + ")";
        return {std::move(path), std::move(before), std::move(after), std::move(reason)};
    }
    bool megatronFamily() const {
        return target == "megatron" || target == "bridge" || target == "slurm" || target == "k8s";
    }
};

using Changes = std::vector<PlanChange>;
using Rule = std::function<Changes(const RuleContext&)>;

// deepspeed/runtime/utils.py partition_uniform (v0.19.5): the first (layers % stages) stages
// take one layer more. The DeepSpeed exporter accepts exactly this layout.
Json uniformPartition(std::int64_t layers, std::int64_t stages) {
    Json parts = Json::array();
    for (std::int64_t s = 0; s < stages; ++s)
        parts.push_back(layers / stages + (s < layers % stages ? 1 : 0));
    return parts;
}

Changes precision(const RuleContext& c) {
    return {c.change("/training/precision", "bf16")};
}

Changes schedule(const RuleContext& c) {
    const bool interleave = c.number("/parallelism/vpp") > 1 && c.target != "deepspeed";
    return {c.change("/parallelism/schedule", interleave ? "interleaved" : "1f1b")};
}

Changes singleChunk(const RuleContext& c) {
    Changes out = {c.change("/parallelism/vpp", 1), c.change("/parallelism/pipeline_layers", {})};
    if (c.text("/parallelism/schedule") == "interleaved")
        out.push_back(c.change("/parallelism/schedule", "1f1b"));
    return out;
}

// DeepSpeed's AutoTP and its pipeline engine do not combine: keep TP, fold the pipeline into
// data parallelism and shard with ZeRO-3 what the stages used to split (AutoTP + ZeRO-3 is
// supported, deepspeed/runtime/engine.py _configure_tensor_parallel_states, v0.19.5).
Changes foldPipeline(const RuleContext& c) {
    const std::int64_t pp = c.number("/parallelism/pp");
    const char* how = "TP kept, the pipeline folded into data parallelism, ZeRO-3 shards what "
                      "the stages split; one stage holds every layer, so all are recomputed";
    return {c.change("/parallelism/pp", 1, how),
            c.change("/parallelism/dp", c.number("/parallelism/dp") * pp, how),
            c.change("/parallelism/dp_shard", {}, how),
            c.change("/parallelism/vpp", 1, how),
            c.change("/parallelism/pipeline_layers", {}, how),
            c.change("/parallelism/schedule", "1f1b", how),
            c.change("/parallelism/zero", 3, how),
            c.change("/parallelism/recompute_layers", {}, how)};
}

Changes zero(const RuleContext& c) {
    // torchtitan has no optimizer-only sharding: FSDP2 with reshard_after_forward never is
    // ZeRO-2; the Megatron and DeepSpeed pipelines take ZeRO-1.
    // torchtune's recipes shard the same way (FSDP2 over every data-parallel GPU).
    const bool fsdp2 = c.target == "torchtitan" || c.target == "torchtune";
    return {c.change("/parallelism/zero", fsdp2 ? 2 : 1)};
}

// Megatron-LM counts recomputed layers per virtual chunk; torchtitan recomputes every N-th
// layer. Round up to the next count the target can say (more recompute, less memory).
Changes recomputeLayers(const RuleContext& c) {
    const std::int64_t k = c.number("/parallelism/recompute_layers", 0);
    const std::int64_t pp = c.number("/parallelism/pp");
    const std::int64_t perStage = c.number("/model/layers") / std::max<std::int64_t>(pp, 1);
    std::int64_t next = k;
    if (c.target == "torchtune") // enable_activation_checkpointing: every layer or none
        next = perStage;
    else if (c.megatronFamily()) {
        const std::int64_t vpp = std::max<std::int64_t>(c.number("/parallelism/vpp"), 1);
        next = (k + vpp - 1) / vpp * vpp;
    } else {
        while (next < perStage && perStage % next != 0)
            ++next;
    }
    return {c.change("/parallelism/recompute_layers", next >= perStage ? Json() : Json(next),
                     "rounded up to the next count the target can say: more recompute, less "
                     "memory")};
}

Changes finetune(const RuleContext& c) {
    Json f = c.at("/finetune");
    // Megatron-Bridge's PEFT is LoRA on the bf16 base (src/megatron/bridge/peft/lora.py); slurm
    // and k8s launch it for a LoRA plan.
    const bool lora = c.target == "bridge" || c.target == "slurm" || c.target == "k8s";
    if (lora && f.value("method", "") == "qlora") {
        Json lora = {{"method", "lora"}};
        for (const char* key : {"lora_rank", "lora_alpha", "lora_targets"})
            if (f.contains(key))
                lora[key] = f[key];
        return {c.change("/finetune", lora, "the same adapters over a bf16 base")};
    }
    // torchtune runs full, LoRA and QLoRA; what it refuses here (a plan that pre-trains) has
    // no nearby fine-tuning plan.
    if (lora || c.target == "deepspeed" || c.target == "torchtune")
        return {};
    return {c.change("/finetune", Json{{"method", "full"}},
                     "no LoRA on this target: full fine-tuning is its nearest mode")};
}

Changes gatedMlp(const RuleContext& c) {
    // SwiGLU with two thirds of the hidden width has the same MLP parameters and FLOPs.
    const std::int64_t ffn = c.number("/model/ffn_hidden");
    const char* how = "SwiGLU with two thirds of the width: the same MLP parameters and FLOPs";
    return {c.change("/model/mlp", "swiglu", how), c.change("/model/ffn_hidden", ffn * 2 / 3, how)};
}

const std::map<std::string, Rule>& rules() {
    static const std::map<std::string, Rule> table = {
        {"/training/precision", precision},
        {"/training/fp8_recipe",
         [](const RuleContext& c) {
             return Changes{c.change("/training/fp8_recipe", "tensorwise")};
         }},
        {"/training/optimizer",
         [](const RuleContext& c) { return Changes{c.change("/training/optimizer", "adam")}; }},
        {"/training/optimizer_in_backward",
         [](const RuleContext& c) {
             return Changes{c.change("/training/optimizer_in_backward", false)};
         }},
        {"/training/master_weights",
         [](const RuleContext& c) {
             // torchtune keeps every state in bf16; the other launchers keep FP32 masters.
             return Changes{c.change("/training/master_weights", c.target != "torchtune")};
         }},
        {"/training/grad_reduce_dtype",
         [](const RuleContext& c) {
             return Changes{c.change("/training/grad_reduce_dtype", "fp32")};
         }},
        {"/parallelism/overlap/tp",
         [](const RuleContext& c) { return Changes{c.change("/parallelism/overlap/tp", false)}; }},
        {"/parallelism/schedule", schedule},
        {"/parallelism/vpp", singleChunk},
        {"/parallelism/tp",
         [](const RuleContext& c) {
             return c.target == "deepspeed" ? foldPipeline(c) : Changes{};
         }},
        {"/parallelism/pipeline_layers",
         [](const RuleContext& c) {
             return Changes{c.change(
                 "/parallelism/pipeline_layers",
                 uniformPartition(c.number("/model/layers"), c.number("/parallelism/pp")))};
         }},
        // Refused on (no overlap outside Megatron-LM's interleaved schedule, none in torchtitan):
        // off; refused off (Megatron-LM's interleaved schedule at pp 2, arguments.py:608): on.
        {"/parallelism/overlap/pp",
         [](const RuleContext& c) {
             const Json on = c.at("/parallelism/overlap/pp");
             return Changes{
                 c.change("/parallelism/overlap/pp", !(on.is_boolean() && on.get<bool>()))};
         }},
        {"/parallelism/overlap/ep",
         [](const RuleContext& c) { return Changes{c.change("/parallelism/overlap/ep", false)}; }},
        {"/parallelism/overlap/dp",
         [](const RuleContext& c) { return Changes{c.change("/parallelism/overlap/dp", true)}; }},
        {"/parallelism/moe_dispatch_fp8",
         [](const RuleContext& c) {
             return Changes{c.change("/parallelism/moe_dispatch_fp8", false)};
         }},
        {"/parallelism/recompute",
         [](const RuleContext& c) {
             return Changes{c.change("/parallelism/recompute", "full"),
                            c.change("/parallelism/recompute_layers", {})};
         }},
        {"/parallelism/recompute_layers", recomputeLayers},
        {"/parallelism/zero", zero},
        // torchtitan's async TP needs torch.compile: compile (the estimate counts the compiled
        // activations).
        {"/training/compile",
         [](const RuleContext& c) { return Changes{c.change("/training/compile", true)}; }},
        {"/parallelism/sequence_parallel",
         [](const RuleContext& c) {
             // torchtitan and Megatron-LM's MoE layers need it on; DeepSpeed and torchtune off.
             return Changes{c.change("/parallelism/sequence_parallel",
                                     c.target != "deepspeed" && c.target != "torchtune")};
         }},
        {"/parallelism/cp_comm",
         [](const RuleContext& c) {
             return Changes{
                 c.change("/parallelism/cp_comm", c.target == "deepspeed" ? "a2a" : "p2p")};
         }},
        {"/parallelism/etp",
         [](const RuleContext& c) {
             // AutoEP experts are not tensor-parallel; torchtitan takes etp = tp or 1.
             return Changes{c.change("/parallelism/etp",
                                     c.target == "deepspeed" ? 1 : c.number("/parallelism/tp"))};
         }},
        {"/parallelism/dp_shard",
         [](const RuleContext& c) { return Changes{c.change("/parallelism/dp_shard", {})}; }},
        {"/parallelism/offload/activations",
         [](const RuleContext& c) {
             if (c.target == "deepspeed" && c.text("/parallelism/offload/activations") == "cpu")
                 return Changes{c.change("/parallelism/recompute", "full")};
             return Changes{c.change("/parallelism/offload/activations",
                                     c.target == "deepspeed" ? "cpu" : "none")};
         }},
        {"/finetune", finetune},
        {"/model/mlp", gatedMlp},
        {"/model/tied_embeddings",
         [](const RuleContext& c) { return Changes{c.change("/model/tied_embeddings", false)}; }},
    };
    return table;
}

} // namespace

std::vector<PlanChange> adaptationFor(std::string_view target, const ExportRefusal& refusal,
                                      const nlohmann::ordered_json& plan) {
    const auto it = rules().find(refusal.path);
    if (it == rules().end())
        return {};
    return it->second(RuleContext{target, refusal, plan});
}

} // namespace ts
