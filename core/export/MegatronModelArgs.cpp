// Megatron-LM core_v0.15.0 flags for the wave-3 model keys (sliding window, attention sinks,
// biases, clamped SwiGLU), each with the check at the tag that it has to pass; the readings
// with their file:line are in docs/gpt-oss-keys-sources.md.

#include "export/MegatronArgs.h"

#include <string>

namespace ts {

namespace {

void flag(std::vector<CliArg>& args, std::string name) {
    args.push_back({std::move(name), {}});
}
void opt(std::vector<CliArg>& args, std::string name, std::string value) {
    args.push_back({std::move(name), {std::move(value)}});
}

// Dense MLPs (a model without experts, or moe.first_dense_layers) exist in the model.
bool hasDenseMlp(const ModelConfig& m) {
    return !m.moe || m.moe->firstDenseLayers > 0;
}

// add_bias_linear (default on; --disable-bias-linear turns it off) puts biases on the QKV and
// attention output projections, both MLP linears, both expert linears and the router
// (transformer_config.py:147-149; validate_args forces add_qkv_bias with it, arguments.py:976).
// --add-qkv-bias alone covers QKV only: no flag gives the output projection a bias without
// the MLP's, so the model's biases must all be on or all off.
void biasArgs(const ModelConfig& m, std::vector<CliArg>& a, std::vector<ExportRefusal>& refusals) {
    const bool mlpBias = hasDenseMlp(m) ? m.mlp == MlpKind::Gelu : true;
    const bool expertBias = m.moe ? m.expertBias() && m.routerBias() : mlpBias;
    const bool any = m.attentionBias || (hasDenseMlp(m) && m.mlp == MlpKind::Gelu) ||
                     (m.moe && (m.expertBias() || m.routerBias()));
    const bool all = m.attentionBias && mlpBias && expertBias;
    if (!any) {
        flag(a, "--disable-bias-linear");
        return;
    }
    if (!all) {
        const char* path = !m.attentionBias ? "/model/attention_bias"
                           : m.moe          ? "/model/moe/expert_bias"
                                            : "/model/mlp";
        refusals.push_back(
            {path, "Megatron-LM core_v0.15.0 sets biases all together (add_bias_linear: QKV, "
                   "attention output, MLP, experts and router; --add-qkv-bias covers QKV alone): "
                   "state attention_bias, moe.expert_bias and moe.router_bias alike"});
        return;
    }
    if (m.moe) {
        // TEGroupedMLP with bias refuses the fused bias-dropout-add (experts.py:762-764).
        flag(a, "--no-bias-dropout-fusion");
    }
}

} // namespace

void megatronModelKeyArgs(const ResolvedScenario& plan, std::vector<CliArg>& a,
                          std::vector<ExportRefusal>& refusals) {
    const ModelConfig& m = plan.model;
    if (m.slidingWindow) {
        // Query i attends to keys [i - L, i + R] (TE and Megatron alike): W tokens, itself
        // included, is (W - 1, 0). An integer skip frequency N windows layer l (1-based) iff
        // l % N != 0: N = 2 windows 0-based layers 0, 2, 4, ... (arguments.py:1575-1584,
        // transformer_config.py:180-188).
        opt(a, "--window-size", std::to_string(*m.slidingWindow - 1) + ",0");
        if (m.windowLayers == WindowLayers::Alternate)
            opt(a, "--window-attn-skip-freq", "2");
    }
    if (m.attentionSinks) // a learnable softmax offset per head (arguments.py:1571-1574)
        opt(a, "--softmax-type", "learnable");
    biasArgs(m, a, refusals);
    if (m.moe && (m.expertBias() || m.attentionBias) && plan.parallel.etp > 1)
        refusals.push_back({"/parallelism/etp",
                            "Megatron-LM core_v0.15.0 runs MoE layers with biases only at expert "
                            "tensor parallelism 1 (transformer_config.py:1301-1304): set etp 1"});
    if (m.mlp == MlpKind::ClampedSwiGlu) {
        // quick_gelu(gate) * (up + 1), gate clamped above at 7 and up to [-7, 7]
        // (arguments.py:1648-1655; megatron/core/transformer/moe/experts.py:903-935).
        flag(a, "--quick-geglu");
        opt(a, "--activation-func-clamp-value", "7.0");
        opt(a, "--glu-linear-offset", "1.0");
        if (hasDenseMlp(m))
            refusals.push_back({"/model/mlp",
                                "Megatron-LM core_v0.15.0 fuses the clamped quick-GeGLU in the "
                                "experts only; its dense MLP refuses the fusion (mlp.py:175-198): "
                                "\"clamped-swiglu\" exports for MoE models without dense layers"});
    }
}

} // namespace ts
