// The parallelism section of a Megatron-LM launch (core_v0.15.0 flags): the inverse of
// core/export/MegatronPlanArgs.cpp.

#include "import/MegatronFlags.h"

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

// --pipeline-model-parallel-layout "Ettt|tttt|...|tttL": transformer layers per virtual stage.
std::vector<int> layoutChunks(const std::string& layout, ImportResult& r) {
    std::vector<int> chunks{0};
    for (char c : layout) {
        if (c == '|')
            chunks.push_back(0);
        else if (c == 't')
            ++chunks.back();
        else if (c != 'E' && c != 'L' && c != ' ') {
            r.unsupported.push_back("--pipeline-model-parallel-layout " + layout +
                                    " (only E, t, L and | are read)");
            return {};
        }
    }
    return chunks;
}

void pipeline(const MegatronFlags& f, const Json& model, int pp, Json& p, ImportResult& r) {
    const int layers = model["layers"].get<int>();
    int vpp = 1;
    if (hasFlag(f, "--pipeline-model-parallel-layout")) {
        const auto chunks = layoutChunks(flagText(f, "--pipeline-model-parallel-layout"), r);
        if (!chunks.empty() && chunks.size() % std::size_t(pp) == 0) {
            vpp = int(chunks.size()) / pp;
            p["pipeline_layers"] = chunks;
        }
    } else if (auto perStage = flagInteger(f, "--num-layers-per-virtual-pipeline-stage")) {
        if (*perStage > 0)
            vpp = layers / pp / int(*perStage);
    } else if (auto stages = flagInteger(f, "--num-virtual-stages-per-pipeline-rank")) {
        vpp = int(*stages);
    }
    p["vpp"] = vpp;
    if (pp > 1) {
        p["schedule"] = vpp > 1 ? "interleaved" : "1f1b";
        // overlap_p2p_comm defaults to true and acts in the interleaved schedule only
        // (megatron/core/pipeline_parallel/schedules.py).
        if (vpp > 1)
            p["overlap"]["pp"] = !hasFlag(f, "--no-overlap-p2p-communication");
    }
}

void recompute(const MegatronFlags& f, int vpp, Json& p) {
    std::string granularity = flagText(f, "--recompute-granularity");
    if (hasFlag(f, "--recompute-activations"))
        granularity = "selective";
    if (granularity == "selective") {
        p["recompute"] = "selective";
    } else if (granularity == "full") {
        p["recompute"] = "full";
        // block: the first N layers of each model chunk (transformer_block.py); uniform with
        // N = 1 checkpoints every layer.
        if (flagText(f, "--recompute-method") == "block")
            p["recompute_layers"] = flagInteger(f, "--recompute-num-layers").value_or(1) * vpp;
    } else {
        p["recompute"] = "none";
    }
}

void dataParallel(const MegatronFlags& f, std::int64_t dp, Json& p) {
    int zero = 0;
    if (hasFlag(f, "--use-megatron-fsdp")) {
        const std::string s = flagText(f, "--data-parallel-sharding-strategy");
        zero = s == "optim_grads_params" ? 3 : s == "optim_grads" ? 2 : s == "optim" ? 1 : 0;
    } else if (hasFlag(f, "--use-distributed-optimizer")) {
        zero = 1;
        if (auto copies = flagInteger(f, "--num-distributed-optimizer-instances");
            copies && *copies > 1)
            p["dp_shard"] = dp / *copies;
    }
    p["zero"] = zero;
    if (dp > 1)
        p["overlap"]["dp"] = hasFlag(f, "--overlap-grad-reduce");
    if (hasFlag(f, "--optimizer-cpu-offload"))
        p["offload"] = {{"optimizer", "cpu"}};
}

} // namespace

Json megatronParallel(const MegatronFlags& f, const Json& model, std::int64_t world,
                      ImportResult& r) {
    Json p;
    const int tp = int(flagInteger(f, "--tensor-model-parallel-size").value_or(1));
    const int pp = int(flagInteger(f, "--pipeline-model-parallel-size").value_or(1));
    const int cp = int(flagInteger(f, "--context-parallel-size").value_or(1));
    p["tp"] = tp;
    p["pp"] = pp;
    p["cp"] = cp;
    // Each degree is 1 to 10^6 (MegatronImport.cpp checks the flags): the product fits.
    const std::int64_t modelParallel = std::int64_t(tp) * pp * cp;
    if (world % modelParallel != 0) {
        r.error = "the launcher's " + std::to_string(world) +
                  " GPUs are no multiple of tp x pp x cp = " + std::to_string(modelParallel);
        return p;
    }
    const std::int64_t dp = world / modelParallel;
    p["dp"] = dp;
    if (cp > 1 && hasFlag(f, "--cp-comm-type"))
        p["cp_comm"] = flagText(f, "--cp-comm-type");
    if (model.contains("moe")) {
        p["ep"] = flagInteger(f, "--expert-model-parallel-size").value_or(1);
        p["etp"] = flagInteger(f, "--expert-tensor-parallel-size").value_or(tp);
        if (p["ep"].get<int>() > 1)
            p["overlap"]["ep"] = hasFlag(f, "--overlap-moe-expert-parallel-comm");
    }
    p["sequence_parallel"] = tp > 1 && hasFlag(f, "--sequence-parallel");
    if (tp > 1)
        p["overlap"]["tp"] = hasFlag(f, "--tp-comm-overlap");
    pipeline(f, model, pp, p, r);
    recompute(f, p["vpp"].get<int>(), p);
    dataParallel(f, dp, p);
    return p;
}

} // namespace ts
