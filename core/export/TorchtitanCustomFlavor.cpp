#include "export/TorchtitanCustomFlavor.h"

#include <cstdio>

namespace ts {
namespace {

void refuse(std::vector<ExportRefusal>& r, std::string path, std::string message) {
    r.push_back({std::move(path), std::move(message)});
}

std::string exact(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    std::string out = text;
    return out.find_first_of(".e") == std::string::npos ? out + ".0" : out; // a Python float
}

// The multiplier that makes torchtitan's formula give `ffn` for `dim` (see the header).
std::string multiplier(std::int64_t dim, std::int64_t ffn) {
    return exact(double(ffn) / double(8 * dim / 3));
}

void architectureRefusals(const ModelConfig& m, std::vector<ExportRefusal>& r) {
    if (m.mla)
        refuse(r, "/model/mla",
               "torchtitan's multi-latent attention is deepseek_v3's, whose flavors are "
               "registered; a custom flavor is llama3 / llama4 attention (GQA)");
    if (m.mlp != MlpKind::SwiGlu)
        refuse(r, "/model/mlp",
               m.mlp == MlpKind::Gelu
                   ? "torchtitan's llama3 and llama4 feed-forward layers are SwiGLU; there is no "
                     "GELU MLP model in v0.2.2"
                   : "torchtitan v0.2.2's llama3 and llama4 SwiGLU has no clamp or (up + 1) "
                     "offset: set mlp to \"swiglu\"");
    // torchtitan v0.2.2's llama3 / llama4 attention: full causal SDPA over bias-free
    // projections (torchtitan/models/llama3/model/model.py Attention: nn.Linear(..., bias=False)).
    if (m.slidingWindow)
        refuse(r, "/model/sliding_window",
               "torchtitan v0.2.2's llama3 and llama4 attention is full causal; no flavor takes a "
               "sliding window");
    if (m.attentionSinks)
        refuse(r, "/model/attention_sinks",
               "torchtitan v0.2.2's llama3 and llama4 attention has no sink logits");
    if (m.attentionBias)
        refuse(r, "/model/attention_bias",
               "torchtitan v0.2.2's llama3 and llama4 projections carry no biases");
    if (m.moe && (m.moe->expertBias.value_or(false) || m.moe->routerBias.value_or(false)))
        refuse(r,
               m.moe->expertBias.value_or(false) ? "/model/moe/expert_bias"
                                                 : "/model/moe/router_bias",
               "torchtitan v0.2.2's llama4 experts and router carry no biases");
    if (m.tiedEmbeddings)
        refuse(r, "/model/tied_embeddings",
               "torchtitan's llama3 and llama4 keep the output layer apart from the embedding");
    if (m.heads <= 0 || m.headDim * m.heads != m.hidden)
        refuse(r, "/model/head_dim",
               "torchtitan's attention uses head_dim = dim / n_heads; set head_dim to hidden / "
               "heads");
    if (!m.moe)
        return;
    const auto& e = *m.moe;
    if (e.firstDenseLayers > 0)
        refuse(r, "/model/moe/first_dense_layers",
               "torchtitan's llama4 interleaves MoE layers every interleave_moe_layer_step "
               "layers; leading dense layers are deepseek_v3's");
    if (e.capacityFactor)
        refuse(r, "/model/moe/capacity_factor",
               "torchtitan's token-choice MoE is dropless; set capacity_factor to null");
    if (e.groupCount() > 0)
        refuse(r, "/model/moe/groups", "torchtitan's llama4 routes without expert groups");
}

// The TransformerModelArgs both flavors set, one per line, `ffn` the MLP width the hidden-size
// formula must reproduce.
std::string sharedArgs(const ModelConfig& m, std::int64_t ffn) {
    return "    dim=" + std::to_string(m.hidden) + ",\n    n_layers=" + std::to_string(m.layers) +
           ",\n    n_heads=" + std::to_string(m.heads) +
           ",\n    n_kv_heads=" + std::to_string(m.kvHeads) +
           ",\n    vocab_size=" + std::to_string(m.vocab) +
           ",\n    multiple_of=" + std::to_string(ffn) +
           ",\n    ffn_dim_multiplier=" + multiplier(m.hidden, ffn) + ",\n";
}

std::string denseFlavor(const ModelConfig& m) {
    return "from torchtitan.models.llama3 import TransformerModelArgs, llama3_args\n\n"
           "llama3_args[\"" +
           std::string(kTorchtitanCustomFlavor) + "\"] = TransformerModelArgs(\n" +
           sharedArgs(m, m.ffnHidden) + ")\n";
}

// llama4 MoE layers (model/model.py TransformerBlock): auto_scale_hidden_dim False keeps the
// experts at the formula's width; interleave_moe_layer_step 1 makes every layer MoE. Mixtral-
// style routing: softmax over the experts, top-k renormalised, scores applied after them.
std::string moeFlavor(const ModelConfig& m) {
    const auto& e = *m.moe;
    return "from torchtitan.models.llama4 import TransformerModelArgs, llama4_args\n"
           "from torchtitan.models.moe import MoEArgs\n\n"
           "llama4_args[\"" +
           std::string(kTorchtitanCustomFlavor) + "\"] = TransformerModelArgs(\n" +
           sharedArgs(m, e.expertFfnHidden) +
           "    auto_scale_hidden_dim=False,\n    interleave_moe_layer_step=1,\n"
           "    moe_args=MoEArgs(\n        num_experts=" +
           std::to_string(e.experts) +
           ",\n        num_shared_experts=" + std::to_string(e.sharedExperts) +
           ",\n        top_k=" + std::to_string(e.topK) +
           ",\n        score_func=\"softmax\",\n        route_norm=True,\n"
           "        score_before_experts=False,\n    ),\n)\n";
}

} // namespace

std::int64_t torchtitanHiddenDim(std::int64_t dim, std::int64_t multipleOf,
                                 std::optional<double> multiplier) {
    std::int64_t h = 2 * (4 * dim) / 3;
    if (multiplier)
        h = std::int64_t(*multiplier * double(h));
    return multipleOf * ((h + multipleOf - 1) / multipleOf);
}

std::optional<TorchtitanCustomFlavor> torchtitanCustomFlavor(const ResolvedScenario& plan,
                                                             std::vector<ExportRefusal>& refusals) {
    const ModelConfig& m = plan.model;
    const std::size_t before = refusals.size();
    architectureRefusals(m, refusals);
    if (refusals.size() != before)
        return std::nullopt;
    TorchtitanCustomFlavor out;
    out.modelName = m.moe ? "llama4" : "llama3";
    out.python = "# torchtitan v0.2.2 custom flavor, generated by Trainscape " TRAINSCAPE_VERSION
                 ".\n# [experimental] custom_import = \"" +
                 std::string(kTorchtitanCustomModule) +
                 "\" imports it (torchtitan/train.py) before the train\n# spec is read; it "
                 "registers the flavor \"" +
                 std::string(kTorchtitanCustomFlavor) + "\" of " + out.modelName +
                 " with this scenario's architecture\n# (rotary position embeddings and "
                 "RMSNorm, as every " +
                 out.modelName + " flavor).\n" + (m.moe ? moeFlavor(m) : denseFlavor(m));
    return out;
}

} // namespace ts
