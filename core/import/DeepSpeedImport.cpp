// A DeepSpeed ds_config.json (v0.19.5 keys) as a scenario: the inverse of
// core/export/DeepSpeedConfig.cpp. The model comes from a Hugging Face config.json and the
// sequence length from the caller, since a DeepSpeed config holds neither.

#include "import/LaunchImport.h"

#include "scenario/Limits.h"

#include <cctype>
#include <cstdint>
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
                                     "data_types.grad_accum_dtype",
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

// A member of `object` when it is an object that has `key`; nullptr otherwise.
const Json* member(const Json* object, const char* key) {
    if (!object || !object->is_object())
        return nullptr;
    const auto it = object->find(key);
    return it == object->end() ? nullptr : &*it;
}

// Typed reads of a ds_config: `fallback` when a key is absent; a value of the wrong type or
// outside its range (scenario/Limits.h) is an error naming the key and what would be right
// (the first one found is kept, and the import stops there).
struct Reader {
    ImportResult& r;

    void refuse(const std::string& key, const std::string& expected) {
        if (r.error.empty())
            r.error = key + ": expected " + expected;
    }
    std::int64_t integer(const Json* v, const std::string& key, std::int64_t fallback,
                         const limits::IntRange& range) {
        if (!v)
            return fallback;
        if (v->is_number_integer()) {
            // Unsigned values past 2^63 are refused, not wrapped to negatives.
            const bool fits = v->is_number_unsigned()
                                  ? v->get<std::uint64_t>() <= std::uint64_t(range.max) &&
                                        range.contains(std::int64_t(v->get<std::uint64_t>()))
                                  : range.contains(v->get<std::int64_t>());
            if (fits)
                return v->get<std::int64_t>();
        }
        refuse(key, "a whole number from " + std::to_string(range.min) + " to " +
                        std::to_string(range.max) + " (" + range.reason + ")");
        return fallback;
    }
    bool boolean(const Json* v, const std::string& key, bool fallback) {
        if (!v)
            return fallback;
        if (v->is_boolean())
            return v->get<bool>();
        refuse(key, "true or false");
        return fallback;
    }
    std::string string(const Json* v, const std::string& key, const std::string& fallback) {
        if (!v)
            return fallback;
        if (v->is_string())
            return v->get<std::string>();
        refuse(key, "a string");
        return fallback;
    }
};

constexpr limits::IntRange kZeroStage{0, 3, "ZeRO stages 0 to 3"};
constexpr limits::IntRange kLayerCount{0, limits::kLayers.max, "at most the model's layers"};

} // namespace

static void deepSpeedParallel(const Json& ds, const Json& model, std::int64_t dp, Reader& read,
                              Json& p);

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
    Reader read{r};
    const auto batch = [&](const char* key, const limits::IntRange& range) {
        const Json* v = member(&ds, key);
        if (!v && r.error.empty())
            r.error = "train_micro_batch_size_per_gpu and gradient_accumulation_steps must be "
                      "given, and train_batch_size a multiple of them (or --num-gpus): they fix "
                      "the data-parallel size";
        return read.integer(v, key, 1, range);
    };
    const bool stated = member(&ds, "train_batch_size") != nullptr;
    const std::int64_t train = stated ? batch("train_batch_size", limits::kGlobalBatch) : 0;
    const std::int64_t micro = batch("train_micro_batch_size_per_gpu", limits::kGlobalBatch);
    const std::int64_t accum = batch("gradient_accumulation_steps", limits::kMicrobatches);
    if (!r.error.empty())
        return r;
    std::int64_t dp = 0;
    if (stated) {
        if (train % (micro * accum)) { // at most 2^32 * 10^7: no overflow
            r.error = "train_batch_size " + std::to_string(train) +
                      " is not a multiple of train_micro_batch_size_per_gpu x "
                      "gradient_accumulation_steps (" +
                      std::to_string(micro * accum) + "): they fix the data-parallel size";
            return r;
        }
        dp = train / (micro * accum);
    } else if (input.numGpus) {
        // DeepSpeed derives train_batch_size from the world size (runtime/config.py:953-957):
        // the data-parallel size is the world over autotp_size x stages x sequence_parallel_size.
        const auto degree = [&](const Json* v) {
            return v && v->is_number_integer() && v->get<std::int64_t>() > 0
                       ? v->get<std::int64_t>()
                       : std::int64_t(1);
        };
        const std::int64_t model = degree(member(member(&ds, "tensor_parallel"), "autotp_size")) *
                                   degree(member(member(&ds, "pipeline"), "stages")) *
                                   degree(member(&ds, "sequence_parallel_size"));
        if (*input.numGpus % model != 0) {
            r.error = "--num-gpus " + std::to_string(*input.numGpus) +
                      " is not a multiple of autotp_size x pipeline stages x "
                      "sequence_parallel_size (" +
                      std::to_string(model) + ")";
            return r;
        }
        dp = *input.numGpus / model;
    } else {
        r.error = "train_batch_size is left out, so DeepSpeed derives it from the world size "
                  "(runtime/config.py:953-957; AutoTP configs leave it out): give --num-gpus N";
        return r;
    }
    Json p;
    deepSpeedParallel(ds, *model, dp, read, p);
    if (!r.error.empty())
        return r;
    const double gpus =
        double(dp) * p["tp"].get<double>() * p["pp"].get<double>() * p["cp"].get<double>();
    if (gpus > double(limits::kGpus.max)) {
        r.error = "the data-parallel size, autotp_size, pipeline stages and "
                  "sequence_parallel_size multiply to " +
                  std::to_string(gpus) + " GPUs, more than " + std::to_string(limits::kGpus.max) +
                  " (" + limits::kGpus.reason + ")";
        return r;
    }
    Json s;
    s["format"] = "trainscape.scenario/1";
    s["name"] = "Imported DeepSpeed job";
    s["model"] = *model;
    s["cluster"] = {{"preset", input.clusterPreset}, {"num_gpus", std::int64_t(gpus)}};
    const auto enabled = [&](const char* key) {
        return read.boolean(member(member(&ds, key), "enabled"), std::string(key) + ".enabled",
                            false);
    };
    const bool bf16 = enabled("bf16") || enabled("bfloat16"); // "bfloat16": the legacy alias
    const bool fp16 = enabled("fp16");
    std::string optimizer =
        read.string(member(member(&ds, "optimizer"), "type"), "optimizer.type", "AdamW");
    for (auto& c : optimizer)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (optimizer != "adam" && optimizer != "adamw" && optimizer != "sgd")
        r.unsupported.push_back("optimizer.type " + optimizer + " (read as adam)");
    if (!r.error.empty())
        return r;
    s["training"] = {{"seq_len", *input.seqLen},
                     {"global_batch", dp * micro * accum},
                     {"micro_batch", micro},
                     {"precision", bf16   ? "bf16"
                                   : fp16 ? "fp16"
                                          : "fp32"},
                     {"optimizer", optimizer == "sgd" ? "sgd" : "adam"}};
    // data_types.grad_accum_dtype (runtime/config.py get_data_types): training.grad_reduce_dtype.
    const std::string accumDtype = read.string(
        member(member(&ds, "data_types"), "grad_accum_dtype"), "data_types.grad_accum_dtype", "");
    if (accumDtype == "bf16" && bf16)
        s["training"]["grad_reduce_dtype"] = "bf16";
    else if (accumDtype == "fp32")
        s["training"]["grad_reduce_dtype"] = "fp32";
    else if (!accumDtype.empty())
        r.unsupported.push_back("data_types.grad_accum_dtype " + accumDtype);
    s["parallelism"] = p;
    s["execution"] = {{"framework", "pytorch"}}; // a PyTorch (Hugging Face) model's modules
    r.scenario = std::move(s);
    return r;
}

// The "parallelism" object: degrees, ZeRO, offload, recomputation and overlap.
static void deepSpeedParallel(const Json& ds, const Json& model, std::int64_t dp, Reader& read,
                              Json& p) {
    const std::int64_t tp = read.integer(member(member(&ds, "tensor_parallel"), "autotp_size"),
                                         "tensor_parallel.autotp_size", 1, limits::kGpus);
    const std::int64_t pp = read.integer(member(member(&ds, "pipeline"), "stages"),
                                         "pipeline.stages", 1, limits::kPipelineStages);
    const std::int64_t sp = read.integer(member(&ds, "sequence_parallel_size"),
                                         "sequence_parallel_size", 1, limits::kGpus);
    p = {{"tp", tp}, {"pp", pp}, {"cp", sp}, {"dp", dp}};
    if (sp > 1)
        p["cp_comm"] = "a2a";
    p["sequence_parallel"] = false;
    const Json* zero = member(&ds, "zero_optimization");
    p["zero"] = read.integer(member(zero, "stage"), "zero_optimization.stage", 0, kZeroStage);
    const std::int64_t mics = read.integer(member(zero, "mics_shard_size"),
                                           "zero_optimization.mics_shard_size", 0, limits::kGpus);
    if (mics > 0)
        p["dp_shard"] = mics;
    Json offload = Json::object();
    for (const auto& [key, name] :
         {std::pair{"offload_optimizer", "optimizer"}, {"offload_param", "params"}}) {
        const std::string device =
            read.string(member(member(zero, key), "device"),
                        std::string("zero_optimization.") + key + ".device", "none");
        if (device != "none")
            offload[name] = device;
    }
    if (const Json* ac = member(&ds, "activation_checkpointing")) {
        p["recompute"] = "full";
        const Json* layers = member(&model, "layers");
        const std::int64_t perStage =
            layers && layers->is_number_integer() ? layers->get<std::int64_t>() / pp : 0;
        const std::int64_t checkpoints =
            read.integer(member(ac, "number_checkpoints"),
                         "activation_checkpointing.number_checkpoints", perStage, kLayerCount);
        if (checkpoints != perStage)
            p["recompute_layers"] = checkpoints;
        if (read.boolean(member(ac, "cpu_checkpointing"),
                         "activation_checkpointing.cpu_checkpointing", false))
            offload["activations"] = "cpu";
    }
    if (!offload.empty())
        p["offload"] = offload;
    if (dp > 1)
        p["overlap"]["dp"] =
            read.boolean(member(zero, "overlap_comm"), "zero_optimization.overlap_comm", false);
    if (tp > 1)
        p["overlap"]["tp"] = read.boolean(member(member(&ds, "tensor_parallel"), "tp_overlap_comm"),
                                          "tensor_parallel.tp_overlap_comm", false);
    const Json* ep = member(&ds, "expert_parallel");
    if (read.boolean(member(ep, "enabled"), "expert_parallel.enabled", false)) {
        p["ep"] = read.integer(member(ep, "autoep_size"), "expert_parallel.autoep_size", 1,
                               limits::kGpus);
        p["etp"] = read.integer(member(ep, "expert_tensor_parallel_size"),
                                "expert_parallel.expert_tensor_parallel_size", 1, limits::kGpus);
    }
    // The "uniform" partition's split when the layers do not divide (runtime/utils.py).
    const Json* layers = member(&model, "layers");
    const std::int64_t count =
        layers && layers->is_number_integer() ? layers->get<std::int64_t>() : 0;
    if (pp > 1 && count > 0 && count % pp != 0) {
        p["pipeline_layers"] = Json::array();
        for (std::int64_t i = 0; i < pp; ++i)
            p["pipeline_layers"].push_back(count / pp + (i < count % pp ? 1 : 0));
    }
}

} // namespace ts
