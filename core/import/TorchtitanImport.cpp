// A torchtitan v0.2.x TOML job config as a scenario: the inverse of
// core/export/TorchtitanExporter.cpp. The model is the catalog preset of its flavor.

#include "import/LaunchImport.h"

#include "catalog/Catalog.h"
#include "scenario/Limits.h"

#include "export/TorchtitanCustomFlavor.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <toml++/toml.h>

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

struct FlavorPreset {
    const char* name;
    const char* flavor;
    const char* preset; // resources/catalog model preset with the flavor's architecture
};
constexpr FlavorPreset kFlavors[] = {{"llama3", "8B", "llama3-8b"},
                                     {"llama3", "70B", "llama3-70b"},
                                     {"llama3", "405B", "llama3.1-405b"},
                                     {"deepseek_v3", "671B", "deepseek-v3"}};

// Keys read per section; other keys of these sections are unsupported, other sections are
// listed as ignored (job, metrics, checkpoint, comm, lr_scheduler, validation, ...).
const std::map<std::string, std::set<std::string>> kRead = {
    {"model", {"name", "flavor", "converters", "hf_assets_path", "tokenizer_path"}},
    {"parallelism",
     {"data_parallel_replicate_degree", "data_parallel_shard_degree", "fsdp_reshard_after_forward",
      "tensor_parallel_degree", "enable_async_tensor_parallel", "pipeline_parallel_degree",
      "pipeline_parallel_schedule", "pipeline_parallel_microbatch_size",
      "module_fqns_per_model_part", "context_parallel_degree", "context_parallel_rotate_method",
      "expert_parallel_degree", "expert_tensor_parallel_degree"}},
    {"training",
     {"local_batch_size", "global_batch_size", "seq_len", "steps", "mixed_precision_param",
      "mixed_precision_reduce", "enable_cpu_offload", "dataset", "dataset_path", "max_norm"}},
    {"activation_checkpoint", {"mode", "selective_ac_option"}},
    {"optimizer", {"name", "lr", "eps", "weight_decay", "beta1", "beta2", "implementation"}},
    {"compile", {"enable", "components", "backend"}},
    {"quantize", {"linear"}},
    {"experimental", {"custom_import"}},
    {"checkpoint",
     {"enable", "initial_load_path", "initial_load_model_only", "initial_load_in_hf", "folder",
      "interval", "last_save_model_only", "export_dtype", "keep_latest_k"}}};

void listKeys(const toml::table& doc, ImportResult& r) {
    for (const auto& [key, node] : doc) {
        const std::string section(key.str());
        const auto known = kRead.find(section);
        if (known == kRead.end()) {
            r.ignored.push_back("[" + section + "]");
            continue;
        }
        if (const auto* table = node.as_table())
            for (const auto& [k, v] : *table)
                if (!known->second.count(std::string(k.str())))
                    r.unsupported.push_back(section + "." + std::string(k.str()));
    }
}

std::int64_t integer(const toml::table& doc, const char* section, const char* key,
                     std::int64_t fallback) {
    return doc[section][key].value<std::int64_t>().value_or(fallback);
}

// A whole number of `section.key` inside `range` (scenario/Limits.h); otherwise an error naming
// the key, its value and the range, and `fallback`.
std::int64_t bounded(const toml::table& doc, const char* section, const char* key,
                     std::int64_t fallback, const limits::IntRange& range, ImportResult& r) {
    const std::int64_t value = integer(doc, section, key, fallback);
    if (range.contains(value))
        return value;
    if (r.error.empty())
        r.error = std::string(section) + "." + key + " " + std::to_string(value) +
                  ": expected a whole number from " + std::to_string(range.min) + " to " +
                  std::to_string(range.max) + " (" + range.reason + ")";
    return fallback;
}

void schedule(const toml::table& doc, std::int64_t pp, Json& p, ImportResult& r) {
    const auto* parts = doc["parallelism"]["module_fqns_per_model_part"].as_array();
    std::int64_t vpp = 1;
    if (parts) {
        std::vector<int> chunks;
        for (const auto& part : *parts) {
            int layers = 0;
            if (const auto* names = part.as_array())
                for (const auto& n : *names)
                    layers += n.value<std::string>().value_or("").rfind("layers.", 0) == 0;
            chunks.push_back(layers);
        }
        if (chunks.size() % std::size_t(pp) == 0) {
            vpp = std::int64_t(chunks.size()) / pp;
            p["pipeline_layers"] = chunks;
        }
    }
    const std::string name =
        doc["parallelism"]["pipeline_parallel_schedule"].value<std::string>().value_or("1F1B");
    static const std::map<std::string, std::string> kinds = {{"1F1B", "1f1b"},
                                                             {"GPipe", "gpipe"},
                                                             {"Interleaved1F1B", "interleaved"},
                                                             {"LoopedBFS", "breadth-first"},
                                                             {"ZBVZeroBubble", "zero-bubble"}};
    const auto kind = kinds.find(name);
    if (kind == kinds.end())
        r.unsupported.push_back("parallelism.pipeline_parallel_schedule " + name);
    else
        p["schedule"] = kind->second;
    p["vpp"] = vpp;
}

void precision(const toml::table& doc, Json& t, ImportResult& r) {
    const std::string param =
        doc["training"]["mixed_precision_param"].value<std::string>().value_or("bfloat16");
    t["precision"] = param == "float32" ? "fp32" : "bf16";
    const std::string reduce =
        doc["training"]["mixed_precision_reduce"].value<std::string>().value_or("float32");
    if (reduce == "bfloat16" && param != "float32")
        t["grad_reduce_dtype"] = "bf16";
    else if (reduce != "float32")
        r.unsupported.push_back("training.mixed_precision_reduce " + reduce);
    if (const auto* converters = doc["model"]["converters"].as_array())
        for (const auto& c : *converters) {
            const std::string name = c.value<std::string>().value_or("");
            const std::string recipe =
                doc["quantize"]["linear"]["float8"]["recipe_name"].value<std::string>().value_or(
                    "tensorwise");
            if (name == "quantize.linear.float8" || name == "float8") {
                t["precision"] = "fp8";
                if (recipe == "tensorwise")
                    t["fp8_recipe"] = "tensorwise";
                else
                    r.unsupported.push_back("quantize.linear.float8.recipe_name " + recipe);
            } else if (name == "quantize.linear.mx" || name == "mx") {
                t["precision"] = "mxfp8";
            } else {
                r.unsupported.push_back("model.converters " + name);
            }
        }
}

} // namespace

void torchtitanParallel(const toml::table& doc, Json& s, ImportResult& r);
std::optional<Json> customFlavorModel(const std::string& python, const std::string& name,
                                      const std::string& flavor, std::string& error);

ImportResult importTorchtitan(const ImportInput& input) {
    ImportResult r;
    toml::table doc;
    try { // Debian's toml++ is built with exceptions: parse errors are toml::parse_error
        doc = toml::parse(input.text);
    } catch (const toml::parse_error& e) {
        std::ostringstream why;
        why << e.description() << " (line " << e.source().begin.line << ")";
        r.error = "not TOML: " + why.str();
        return r;
    }
    listKeys(doc, r);
    const std::string name = doc["model"]["name"].value<std::string>().value_or("");
    const std::string flavor = doc["model"]["flavor"].value<std::string>().value_or("");
    Json s;
    s["format"] = "trainscape.scenario/1";
    s["name"] = doc["job"]["description"].value<std::string>().value_or("Imported torchtitan job");
    for (const auto& f : kFlavors)
        if (name == f.name && flavor == f.flavor)
            s["model"] = {{"preset", f.preset}};
    if (const auto module = doc["experimental"]["custom_import"].value<std::string>();
        !s.contains("model") && module) {
        const auto file = input.companions.find(*module + ".py");
        if (file == input.companions.end()) {
            r.error = "[experimental] custom_import \"" + *module +
                      "\" registers the flavor; "
                      "pass its file " +
                      *module + ".py beside the TOML";
            return r;
        }
        if (auto model = customFlavorModel(file->second, name, flavor, r.error))
            s["model"] = *model;
        else
            return r;
    }
    if (!s.contains("model")) {
        r.error = "[model] name \"" + name + "\" flavor \"" + flavor +
                  "\" is no flavor Trainscape knows (llama3 8B/70B/405B, deepseek_v3 671B)";
        return r;
    }
    Json t;
    t["seq_len"] = integer(doc, "training", "seq_len", 2048);
    precision(doc, t, r);
    t["optimizer"] = "adam";
    // optimizer.implementation (torchtitan/config/job_config.py, default "fused").
    const auto implNode = doc["optimizer"]["implementation"];
    const std::optional<std::string> impl =
        implNode ? implNode.value<std::string>() : std::optional<std::string>("fused");
    if (impl == "foreach" || impl == "for-loop") {
        t["optimizer_impl"] = impl == "foreach" ? "foreach" : "for_loop";
    } else if (impl != "fused") {
        r.error = "optimizer.implementation" + (impl ? " \"" + *impl + "\"" : std::string()) +
                  ": expected \"fused\", \"foreach\" or \"for-loop\"";
        return r;
    }
    s["training"] = t;
    if (doc["checkpoint"]["enable"].value<bool>().value_or(false) &&
        doc["checkpoint"]["initial_load_path"].value<std::string>() &&
        doc["checkpoint"]["initial_load_model_only"].value<bool>().value_or(true))
        s["finetune"] = {{"method", "full"}}; // every weight, from the loaded model
    torchtitanParallel(doc, s, r);
    if (!r.error.empty())
        return r;
    s["cluster"] = {{"preset", input.clusterPreset},
                    {"num_gpus", s["parallelism"]["dp"].get<std::int64_t>() *
                                     s["parallelism"]["tp"].get<std::int64_t>() *
                                     s["parallelism"]["pp"].get<std::int64_t>() *
                                     s["parallelism"]["cp"].get<std::int64_t>()}};
    s["execution"] = {{"framework", "pytorch"}};
    r.scenario = std::move(s);
    return r;
}

// The flavor a custom_import module registers (export/TorchtitanCustomFlavor.h writes it):
// the keyword arguments of its TransformerModelArgs and MoEArgs, with torchtitan's hidden-size
// formula applied.
std::optional<Json> customFlavorModel(const std::string& python, const std::string& name,
                                      const std::string& flavor, std::string& error) {
    if (python.find(name + "_args[\"" + flavor + "\"]") == std::string::npos ||
        (name != "llama3" && name != "llama4")) {
        error = "the custom_import module registers no flavor \"" + flavor + "\" of " + name +
                " (llama3 or llama4)";
        return std::nullopt;
    }
    std::map<std::string, std::string> args;
    static const std::regex keyword(R"(\b([a-z_0-9]+)=([^,\n)]+))");
    for (auto it = std::sregex_iterator(python.begin(), python.end(), keyword);
         it != std::sregex_iterator(); ++it)
        args[(*it)[1].str()] = (*it)[2].str();
    const auto integer = [&](const char* key, std::int64_t fallback) {
        const auto v = args.find(key);
        return v == args.end() ? fallback : std::atoll(v->second.c_str());
    };
    const std::int64_t dim = integer("dim", 0), heads = integer("n_heads", 0);
    if (dim <= 0 || heads <= 0 || !args.count("n_layers")) {
        error = "the custom flavor needs dim, n_layers and n_heads";
        return std::nullopt;
    }
    std::optional<double> multiplier;
    if (args.count("ffn_dim_multiplier") && args["ffn_dim_multiplier"] != "None")
        multiplier = std::atof(args["ffn_dim_multiplier"].c_str());
    const std::int64_t ffn = torchtitanHiddenDim(dim, integer("multiple_of", 256), multiplier);
    Json model = {{"layers", integer("n_layers", 0)},
                  {"hidden", dim},
                  {"ffn_hidden", ffn},
                  {"heads", heads},
                  {"kv_heads", integer("n_kv_heads", heads)},
                  {"head_dim", dim / heads},
                  {"vocab", integer("vocab_size", name == "llama3" ? 128256 : 202048)},
                  {"mlp", "swiglu"},
                  {"tied_embeddings", false},
                  {"mla", nullptr},
                  {"moe", nullptr}};
    if (name == "llama4")
        model["moe"] = {{"experts", integer("num_experts", 8)},
                        {"top_k", integer("top_k", 1)},
                        {"expert_ffn_hidden", ffn},
                        {"shared_experts", integer("num_shared_experts", 1)},
                        {"first_dense_layers", 0},
                        {"capacity_factor", nullptr}};
    return model;
}

void torchtitanParallel(const toml::table& doc, Json& s, ImportResult& r) {
    const std::int64_t shard = integer(doc, "parallelism", "data_parallel_shard_degree", -1);
    if (shard == -1) {
        r.error = "parallelism.data_parallel_shard_degree -1 depends on the world size, which a "
                  "job config does not hold: write the degree";
        return;
    }
    // Every degree is at least 1 and at most the GPUs a cluster may have, and so are the GPUs
    // they multiply to: the arithmetic below (a product, a division by pp) stays exact.
    const auto degree = [&](const char* key) {
        return bounded(doc, "parallelism", key, 1, limits::kGpus, r);
    };
    const std::int64_t replicate = degree("data_parallel_replicate_degree");
    degree("data_parallel_shard_degree");
    const std::int64_t tp = degree("tensor_parallel_degree");
    const std::int64_t pp = degree("pipeline_parallel_degree");
    const std::int64_t cp = degree("context_parallel_degree");
    const std::int64_t ep = degree("expert_parallel_degree");
    if (!r.error.empty())
        return;
    const double gpus = double(replicate) * double(shard) * double(tp) * double(pp) * double(cp);
    if (gpus > double(limits::kGpus.max)) {
        r.error = "parallelism: the degrees multiply to " + std::to_string(gpus) +
                  " GPUs, more than " + std::to_string(limits::kGpus.max) + " (" +
                  limits::kGpus.reason + ")";
        return;
    }
    Json p = {{"tp", tp}, {"pp", pp}, {"cp", cp}, {"dp", replicate * shard}};
    const std::string reshard =
        doc["parallelism"]["fsdp_reshard_after_forward"].value<std::string>().value_or("default");
    // FSDP2: resharding after forward frees parameters (ZeRO-3); "never" keeps them (ZeRO-2).
    // torchtitan's "default" is "always" except with pipeline parallelism.
    const bool keep = reshard == "never" || (reshard == "default" && pp > 1);
    p["zero"] = shard > 1 ? (keep ? 2 : 3) : 0;
    if (shard > 1 && replicate > 1)
        p["dp_shard"] = shard;
    const Json& model = s["model"];
    const bool moe = model.value("preset", "") == "deepseek-v3" ||
                     (model.contains("moe") && model["moe"].is_object());
    if (ep > 1 || moe) {
        p["ep"] = ep;
        p["etp"] = integer(doc, "parallelism", "expert_tensor_parallel_degree", 1);
    }
    if (cp > 1)
        p["cp_comm"] =
            doc["parallelism"]["context_parallel_rotate_method"].value<std::string>().value_or(
                "allgather") == "allgather"
                ? "allgather"
                : "p2p";
    p["sequence_parallel"] = tp > 1; // torchtitan's TP plan shards norms over the sequence
    // FSDP2 prefetches all-gathers and overlaps reduce-scatters; DDP buckets its all-reduces.
    if (replicate * shard > 1)
        p["overlap"]["dp"] = true;
    if (tp > 1)
        p["overlap"]["tp"] =
            doc["parallelism"]["enable_async_tensor_parallel"].value<bool>().value_or(false);
    if (pp > 1)
        schedule(doc, pp, p, r);
    const std::int64_t local =
        bounded(doc, "training", "local_batch_size", 8, limits::kGlobalBatch, r);
    const std::int64_t micro =
        pp > 1 ? bounded(doc, "parallelism", "pipeline_parallel_microbatch_size", 1,
                         limits::kGlobalBatch, r)
               : local;
    std::int64_t global = integer(doc, "training", "global_batch_size", -1);
    if (global == -1) // a product of numbers within their limits: at most 2^32 * 10^6
        global = local * replicate * shard;
    else
        global = bounded(doc, "training", "global_batch_size", 1, limits::kGlobalBatch, r);
    if (!r.error.empty())
        return;
    s["training"]["global_batch"] = global;
    s["training"]["micro_batch"] = micro;
    if (auto steps = doc["training"]["steps"].value<std::int64_t>())
        s["training"]["tokens"] =
            double(*steps) * double(global) * s["training"]["seq_len"].get<double>();
    const std::string mode =
        doc["activation_checkpoint"]["mode"].value<std::string>().value_or("selective");
    const std::string option =
        doc["activation_checkpoint"]["selective_ac_option"].value<std::string>().value_or("2");
    if (mode == "none" || mode == "full") {
        p["recompute"] = mode;
    } else if (mode == "selective" && option == "op") {
        p["recompute"] = "selective";
    } else if (mode == "selective") {
        // Layer SAC: every N-th layer of a stage recomputed whole (activation_checkpoint.py).
        const ModelPreset* preset = Catalog::builtIn().model(model.value("preset", ""));
        const std::int64_t layers = model.contains("layers") ? model["layers"].get<std::int64_t>()
                                    : preset                 ? preset->model.layers
                                                             : 0;
        const std::int64_t n = std::atoll(option.c_str());
        const std::int64_t perStage = layers / pp;
        if (n <= 0 || perStage <= 0 || perStage % n) {
            r.unsupported.push_back("activation_checkpoint.selective_ac_option " + option);
        } else {
            p["recompute"] = "full";
            if (n > 1)
                p["recompute_layers"] = perStage / n;
        }
    } else {
        r.unsupported.push_back("activation_checkpoint.mode " + mode);
    }
    if (doc["training"]["enable_cpu_offload"].value<bool>().value_or(false))
        p["offload"] = {{"optimizer", "cpu"}, {"params", "cpu"}};
    if (doc["compile"]["enable"].value<bool>().value_or(false))
        s["training"]["compile"] = true; // each block compiled (torchtitan apply_compile)
    s["parallelism"] = p;
}

} // namespace ts
