// The model, training and parallel sections of a Megatron-LM launch (core_v0.15.0 flags).

#include "import/MegatronFlags.h"

namespace ts {
namespace {

using Json = nlohmann::ordered_json;

void need(const MegatronFlags& f, const char* flag, ImportResult& r) {
    if (r.error.empty() && !flagInteger(f, flag))
        r.error = std::string("the command has no numeric ") + flag + ": the model is unknown";
}

void putInt(Json& j, const char* key, const MegatronFlags& f, const char* flag) {
    if (auto v = flagInteger(f, flag))
        j[key] = *v;
}

} // namespace

const std::set<std::string>& megatronKnownFlags() {
    static const std::set<std::string> known = {
        "--num-layers", "--hidden-size", "--ffn-hidden-size", "--num-attention-heads",
        "--kv-channels", "--group-query-attention", "--num-query-groups", "--seq-length",
        "--vocab-size", "--swiglu", "--untie-embeddings-and-output-weights",
        "--multi-latent-attention", "--q-lora-rank", "--kv-lora-rank", "--qk-head-dim",
        "--qk-pos-emb-head-dim", "--v-head-dim", "--num-experts", "--moe-router-topk",
        "--moe-ffn-hidden-size", "--moe-shared-expert-intermediate-size", "--moe-layer-freq",
        "--moe-expert-capacity-factor", "--moe-router-num-groups", "--moe-router-group-topk",
        "--micro-batch-size", "--finetune", "--pretrained-checkpoint", "--global-batch-size",
        "--train-iters", "--bf16", "--fp16", "--fp8-format", "--fp8-recipe", "--fp4-format",
        "--fp4-recipe", "--grad-reduce-in-bf16", "--optimizer", "--recompute-granularity",
        "--recompute-method", "--recompute-num-layers", "--recompute-activations",
        "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--sequence-parallel",
        "--tp-comm-overlap", "--cross-entropy-loss-fusion",
        "--num-layers-per-virtual-pipeline-stage", "--num-virtual-stages-per-pipeline-rank",
        "--pipeline-model-parallel-layout", "--no-overlap-p2p-communication",
        "--context-parallel-size", "--cp-comm-type", "--expert-model-parallel-size",
        "--expert-tensor-parallel-size", "--overlap-moe-expert-parallel-comm",
        "--use-distributed-optimizer", "--num-distributed-optimizer-instances",
        "--use-megatron-fsdp", "--data-parallel-sharding-strategy", "--overlap-grad-reduce",
        "--overlap-param-gather", "--optimizer-cpu-offload", "--optimizer-offload-fraction",
        "--moe-token-dispatcher-type", "--moe-enable-deepep",
        // Wave-3 model keys (megatronModelKeys).
        "--window-size", "--window-attn-skip-freq", "--softmax-type", "--quick-geglu",
        "--activation-func-clamp-value", "--glu-linear-offset", "--add-qkv-bias",
        "--disable-bias-linear", "--no-bias-dropout-fusion", "--attention-backend"};
    return known;
}

const std::set<std::string>& megatronIgnoredFlags() {
    // Data, tokenizer, logging, learning-rate schedule and architecture details the planner's
    // model does not distinguish (norm kind, position embedding, biases).
    static const std::set<std::string> ignored = {
        "--max-position-embeddings", "--normalization", "--position-embedding-type", "--lr",
        "--min-lr", "--lr-decay-style", "--lr-warmup-iters", "--lr-decay-iters", "--weight-decay",
        "--clip-grad", "--adam-beta1", "--adam-beta2", "--init-method-std", "--log-interval",
        "--eval-iters", "--eval-interval", "--save-interval", "--save", "--load",
        "--tokenizer-type", "--tokenizer-model", "--mock-data", "--data-path", "--split", "--seed",
        "--attention-dropout", "--hidden-dropout", "--tensorboard-dir", "--rotary-base",
        "--norm-epsilon", "--make-vocab-size-divisible-by", "--transformer-impl",
        "--use-flash-attn", "--log-throughput", "--lr-warmup-fraction",
        // What Megatron-FSDP and the optimizer
        // offload need (export/MegatronPlanArgs.cpp),
        // implied by the plan's flags.
        "--ckpt-format", "--use-precision-aware-optimizer"};
    return ignored;
}

Json megatronModel(const MegatronFlags& f, ImportResult& r) {
    for (const char* flag :
         {"--num-layers", "--hidden-size", "--num-attention-heads", "--vocab-size"})
        need(f, flag, r);
    if (!r.error.empty())
        return {};
    Json m;
    const std::int64_t hidden = *flagInteger(f, "--hidden-size");
    const std::int64_t heads = *flagInteger(f, "--num-attention-heads");
    m["layers"] = *flagInteger(f, "--num-layers");
    m["hidden"] = hidden;
    // Without the flag Megatron-LM takes 4 x hidden (arguments.py, validate_args).
    m["ffn_hidden"] = flagInteger(f, "--ffn-hidden-size").value_or(4 * hidden);
    m["heads"] = heads;
    m["kv_heads"] = hasFlag(f, "--group-query-attention")
                        ? flagInteger(f, "--num-query-groups").value_or(1)
                        : heads;
    m["head_dim"] = flagInteger(f, "--kv-channels").value_or(hidden / heads);
    m["vocab"] = *flagInteger(f, "--vocab-size");
    m["mlp"] = hasFlag(f, "--swiglu") || hasFlag(f, "--quick-geglu") ? "swiglu" : "gelu";
    m["tied_embeddings"] = !hasFlag(f, "--untie-embeddings-and-output-weights");
    if (hasFlag(f, "--multi-latent-attention")) {
        Json mla;
        mla["q_lora_rank"] = flagInteger(f, "--q-lora-rank").value_or(0);
        putInt(mla, "kv_lora_rank", f, "--kv-lora-rank");
        putInt(mla, "qk_nope_head_dim", f, "--qk-head-dim");
        putInt(mla, "qk_rope_head_dim", f, "--qk-pos-emb-head-dim");
        putInt(mla, "v_head_dim", f, "--v-head-dim");
        m["mla"] = mla;
    }
    if (!flagInteger(f, "--num-experts"))
        return m;
    Json moe;
    moe["experts"] = *flagInteger(f, "--num-experts");
    moe["top_k"] = flagInteger(f, "--moe-router-topk").value_or(2); // Megatron's default
    const std::int64_t expertFfn =
        flagInteger(f, "--moe-ffn-hidden-size").value_or(m["ffn_hidden"].get<std::int64_t>());
    moe["expert_ffn_hidden"] = expertFfn;
    if (auto shared = flagInteger(f, "--moe-shared-expert-intermediate-size")) {
        moe["shared_experts"] = *shared / expertFfn;
        if (*shared % expertFfn)
            r.notes.push_back("--moe-shared-expert-intermediate-size is not a whole number of "
                              "experts: rounded down");
    }
    if (hasFlag(f, "--moe-layer-freq")) {
        const int dense =
            megatronFirstDense(flagText(f, "--moe-layer-freq"), m["layers"].get<int>());
        if (dense < 0)
            r.unsupported.push_back("--moe-layer-freq " + flagText(f, "--moe-layer-freq") +
                                    " (only dense-first patterns are modelled)");
        else
            moe["first_dense_layers"] = dense;
    }
    if (hasFlag(f, "--moe-expert-capacity-factor"))
        moe["capacity_factor"] = std::stod(flagText(f, "--moe-expert-capacity-factor"));
    if (auto groups = flagInteger(f, "--moe-router-num-groups")) {
        moe["groups"] = *groups;
        putInt(moe, "groups_per_token", f, "--moe-router-group-topk");
    }
    m["moe"] = moe;
    return m;
}

// The flags of export/MegatronModelArgs.cpp read back: window, sinks, biases, clamped GeGLU.
void megatronModelKeys(const MegatronFlags& f, Json& m, ImportResult& r) {
    if (hasFlag(f, "--window-size")) {
        const std::string w = flagText(f, "--window-size");
        const auto comma = w.find(',');
        std::int64_t left = -1, right = -1;
        try {
            left = std::stoll(w.substr(0, comma));
            right = comma == std::string::npos ? -1 : std::stoll(w.substr(comma + 1));
        } catch (const std::exception&) {
        }
        if (left >= 0 && right == 0)
            m["sliding_window"] = left + 1; // (W - 1, 0): W tokens, the query included
        else
            r.unsupported.push_back("--window-size " + w + " (only causal windows (L,0))");
        if (hasFlag(f, "--window-attn-skip-freq")) {
            const std::string freq = flagText(f, "--window-attn-skip-freq");
            if (freq == "2")
                m["window_layers"] = "alternate";
            else
                r.unsupported.push_back("--window-attn-skip-freq " + freq +
                                        " (every layer or every other one)");
        }
    }
    if (hasFlag(f, "--softmax-type")) {
        const std::string t = flagText(f, "--softmax-type");
        if (t == "learnable")
            m["attention_sinks"] = true;
        else if (t != "vanilla")
            r.unsupported.push_back("--softmax-type " + t);
    }
    if (hasFlag(f, "--quick-geglu")) {
        if (flagText(f, "--glu-linear-offset") == "1.0" ||
            flagText(f, "--glu-linear-offset") == "1")
            m["mlp"] = "clamped-swiglu";
        else
            r.unsupported.push_back("--quick-geglu without --glu-linear-offset 1 (only GPT-OSS's "
                                    "clamped form)");
    }
    // add_bias_linear (on unless --disable-bias-linear) covers every linear (export rule).
    const bool biases = !hasFlag(f, "--disable-bias-linear");
    const bool gelu = m["mlp"] == "gelu";
    if (biases != gelu)
        m["attention_bias"] = biases;
    if (!biases && hasFlag(f, "--add-qkv-bias")) {
        m["attention_bias"] = true;
        r.notes.push_back("--add-qkv-bias: QKV biases read as model.attention_bias, which also "
                          "counts the output projection's (h parameters per layer)");
    }
    if (m.contains("moe") && biases != gelu) {
        m["moe"]["expert_bias"] = biases;
        m["moe"]["router_bias"] = biases;
    }
}

Json megatronTraining(const MegatronFlags& f, ImportResult& r) {
    Json t;
    need(f, "--seq-length", r);
    need(f, "--global-batch-size", r);
    if (!r.error.empty())
        return t;
    t["seq_len"] = *flagInteger(f, "--seq-length");
    t["global_batch"] = *flagInteger(f, "--global-batch-size");
    t["micro_batch"] = flagInteger(f, "--micro-batch-size").value_or(1);
    const std::string fp8 = flagText(f, "--fp8-format");
    const std::string recipe = flagText(f, "--fp8-recipe");
    if (hasFlag(f, "--fp4-format"))
        t["precision"] = "nvfp4";
    else if (recipe == "mxfp8")
        t["precision"] = "mxfp8";
    else if (!fp8.empty()) {
        t["precision"] = "fp8";
        t["fp8_recipe"] = recipe.empty() ? "delayed" : recipe;
    } else
        t["precision"] = hasFlag(f, "--bf16") ? "bf16" : hasFlag(f, "--fp16") ? "fp16" : "fp32";
    t["optimizer"] = flagText(f, "--optimizer") == "sgd" ? "sgd" : "adam";
    // --grad-reduce-in-bf16: the main gradients stay bf16 (arguments.py; FP32 otherwise).
    if (hasFlag(f, "--grad-reduce-in-bf16") && t["precision"] != "fp32" && t["precision"] != "fp16")
        t["grad_reduce_dtype"] = "bf16";
    if (auto iters = flagInteger(f, "--train-iters"))
        t["tokens"] = double(*iters) * t["seq_len"].get<double>() * t["global_batch"].get<double>();
    return t;
}

} // namespace ts
