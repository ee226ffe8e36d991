// A DeepSpeed ds_config.json (v0.19.5 keys) as a scenario: the inverse of
// core/export/DeepSpeedConfig.cpp. The model comes from a Hugging Face config.json and the
// sequence length from the caller, since a DeepSpeed config holds neither.

#include "import/LaunchImport.h"

#include <cctype>
#include <set>

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

// Keys read into the scenario, and keys with no effect on the plan; every other key is
// listed as unsupported.
const std::set<std::string> kRead = {"train_batch_size",
                                     "train_micro_batch_size_per_gpu",
                                     "gradient_accumulation_steps",
                                     "bf16.enabled",
                                     "bfloat16.enabled",
                                     "fp16.enabled",
                                     "optimizer.type",
                                     "zero_optimization.stage",
                                     "zero_optimization.overlap_comm",
                                     "zero_optimization.offload_optimizer.device",
                                     "zero_optimization.offload_param.device",
                                     "zero_optimization.mics_shard_size",
                                     "activation_checkpointing.number_checkpoints",
                                     "activation_checkpointing.cpu_checkpointing",
                                     "pipeline.stages",
                                     "tensor_parallel.autotp_size",
                                     "tensor_parallel.tp_overlap_comm",
                                     "sequence_parallel_size",
                                     "expert_parallel.enabled",
                                     "expert_parallel.autoep_size"};
const std::set<std::string> kIgnoredPrefixes = {"gradient_clipping",
                                                "steps_per_print",
                                                "wall_clock_breakdown",
                                                "optimizer.params",
                                                "scheduler",
                                                "zero_allow_untested_optimizer",
                                                "fp16.",
                                                "zero_optimization.contiguous_gradients",
                                                "zero_optimization.reduce_scatter",
                                                "zero_optimization.reduce_bucket_size",
                                                "zero_optimization.allgather",
                                                "zero_optimization.stage3_",
                                                "zero_optimization.sub_group_size",
                                                "zero_optimization.round_robin_gradients",
                                                "zero_optimization.offload_optimizer.",
                                                "zero_optimization.offload_param.",
                                                "activation_checkpointing.",
                                                "pipeline.partition",
                                                "tensor_parallel.",
                                                "expert_parallel.preset_model",
                                                "expert_parallel.expert_tensor_parallel_size",
                                                "bf16.",
                                                "communication_data_type",
                                                "prescale_gradients",
                                                "flops_profiler",
                                                "tensorboard",
                                                "wandb",
                                                "csv_monitor",
                                                "comms_logger",
                                                "dump_state"};

void listKeys(const nlohmann::ordered_json& value, const std::string& prefix, ImportResult& r) {
    for (const auto& [key, child] : value.items()) {
        const std::string path = prefix + key;
        if (child.is_object() && !kRead.count(path)) {
            listKeys(child, path + ".", r);
            continue;
        }
        if (kRead.count(path))
            continue;
        bool ignored = false;
        for (const auto& p : kIgnoredPrefixes)
            ignored = ignored || path.rfind(p, 0) == 0;
        (ignored ? r.ignored : r.unsupported).push_back(path);
    }
}

std::int64_t at(const nlohmann::ordered_json& j, const char* a, const char* b,
                std::int64_t fallback) {
    if (j.contains(a) && j[a].is_object() && j[a].contains(b) && j[a][b].is_number_integer())
        return j[a][b].get<std::int64_t>();
    return fallback;
}

} // namespace

ImportResult importDeepSpeed(const ImportInput& input) {
    ImportResult r;
    const auto ds = nlohmann::ordered_json::parse(input.text, nullptr, false);
    if (ds.is_discarded() || !ds.is_object()) {
        r.error = "not a JSON object: a DeepSpeed config is one";
        return r;
    }
    if (!input.hfConfig || !input.seqLen) {
        r.error = "a DeepSpeed config names no model and no sequence length: pass --hf-config "
                  "config.json and --seq-len N";
        return r;
    }
    auto model = modelFromHuggingFace(*input.hfConfig, r.error, r.notes);
    if (!model)
        return r;
    listKeys(ds, "", r);
    const auto integer = [&](const char* key) -> std::optional<std::int64_t> {
        if (ds.contains(key) && ds[key].is_number_integer())
            return ds[key].get<std::int64_t>();
        return std::nullopt;
    };
    const auto train = integer("train_batch_size");
    const auto micro = integer("train_micro_batch_size_per_gpu");
    const auto accum = integer("gradient_accumulation_steps");
    if (!train || !micro || !accum || *micro <= 0 || *accum <= 0 || *train % (*micro * *accum)) {
        r.error = "train_batch_size, train_micro_batch_size_per_gpu and "
                  "gradient_accumulation_steps must all be given, with the first a multiple of "
                  "the other two: they fix the data-parallel size";
        return r;
    }
    const std::int64_t dp = *train / (*micro * *accum);
    const std::int64_t tp = at(ds, "tensor_parallel", "autotp_size", 1);
    const std::int64_t pp = at(ds, "pipeline", "stages", 1);
    const std::int64_t sp = integer("sequence_parallel_size").value_or(1);
    Json s;
    s["format"] = "trainscape.scenario/1";
    s["name"] = "Imported DeepSpeed job";
    s["model"] = *model;
    s["cluster"] = {{"preset", input.clusterPreset}, {"num_gpus", dp * tp * pp * sp}};
    const auto enabled = [&](const char* key) {
        return ds.contains(key) && ds[key].is_object() && ds[key].value("enabled", false);
    };
    const bool bf16 = enabled("bf16") || enabled("bfloat16"); // "bfloat16": the legacy alias
    const bool fp16 = enabled("fp16");
    std::string optimizer =
        ds.contains("optimizer") ? ds["optimizer"].value("type", std::string("AdamW")) : "AdamW";
    for (auto& c : optimizer)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (optimizer != "adam" && optimizer != "adamw" && optimizer != "sgd")
        r.unsupported.push_back("optimizer.type " + optimizer + " (read as adam)");
    s["training"] = {{"seq_len", *input.seqLen},
                     {"global_batch", *train},
                     {"micro_batch", *micro},
                     {"precision", bf16   ? "bf16"
                                   : fp16 ? "fp16"
                                          : "fp32"},
                     {"optimizer", optimizer == "sgd" ? "sgd" : "adam"}};
    Json p = {{"tp", tp}, {"pp", pp}, {"cp", sp}, {"dp", dp}};
    if (sp > 1)
        p["cp_comm"] = "a2a";
    p["sequence_parallel"] = false;
    const nlohmann::ordered_json zero =
        ds.value("zero_optimization", nlohmann::ordered_json::object());
    p["zero"] = zero.value("stage", 0);
    if (zero.contains("mics_shard_size") && zero["mics_shard_size"].get<std::int64_t>() > 0)
        p["dp_shard"] = zero["mics_shard_size"].get<std::int64_t>();
    Json offload = Json::object();
    for (const auto& [key, name] :
         {std::pair{"offload_optimizer", "optimizer"}, {"offload_param", "params"}})
        if (zero.contains(key) && zero[key].value("device", std::string("none")) != "none")
            offload[name] = zero[key].value("device", std::string("none"));
    if (ds.contains("activation_checkpointing")) {
        const auto& ac = ds["activation_checkpointing"];
        p["recompute"] = "full";
        const std::int64_t perStage = (*model)["layers"].get<std::int64_t>() / pp;
        if (ac.contains("number_checkpoints") && ac["number_checkpoints"].is_number_integer() &&
            ac["number_checkpoints"].get<std::int64_t>() != perStage)
            p["recompute_layers"] = ac["number_checkpoints"].get<std::int64_t>();
        if (ac.value("cpu_checkpointing", false))
            offload["activations"] = "cpu";
    }
    if (!offload.empty())
        p["offload"] = offload;
    if (dp > 1)
        p["overlap"]["dp"] = zero.value("overlap_comm", false);
    if (tp > 1)
        p["overlap"]["tp"] = ds["tensor_parallel"].value("tp_overlap_comm", false);
    const Json ep = ds.value("expert_parallel", Json::object());
    if (ep.value("enabled", false)) {
        p["ep"] = ep.value("autoep_size", 1);
        p["etp"] = ep.value("expert_tensor_parallel_size", 1);
    }
    // The "uniform" partition's split when the layers do not divide (runtime/utils.py).
    const std::int64_t layers = (*model)["layers"].get<std::int64_t>();
    if (pp > 1 && layers % pp != 0) {
        p["pipeline_layers"] = Json::array();
        for (std::int64_t i = 0; i < pp; ++i)
            p["pipeline_layers"].push_back(layers / pp + (i < layers % pp ? 1 : 0));
    }
    s["parallelism"] = p;
    r.scenario = std::move(s);
    return r;
}

} // namespace ts
