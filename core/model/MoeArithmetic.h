#pragma once
// Parameters and FLOPs of mixture-of-experts layers and of multi-head latent attention.
//
// MoE (Shazeer et al. 2017, arXiv 1701.06538; Fedus et al. 2021, Switch Transformer, arXiv
// 2101.03961; DeepSeek-V3 technical report, arXiv 2412.19437, sec. 2.1.2): a MoE layer
// replaces the MLP by `experts` routed experts (SwiGLU or GELU MLPs of expert_ffn_hidden),
// of which each token uses top_k, plus `shared_experts` that every token uses, and a router
// (a hidden x experts linear layer). The first `first_dense_layers` layers keep a dense MLP
// of ffn_hidden. Active parameters: those one token uses (attention, router, top_k routed
// and the shared experts, the dense layers, the output layer).
//
// MLA (DeepSeek-V2, arXiv 2405.04434, sec. 2.1; DeepSeek-V3 sec. 2.1.1): queries go through
// a down-projection h -> q_lora_rank (with an RMSNorm) and an up-projection to
// heads x (qk_nope + qk_rope); keys and values share a down-projection
// h -> kv_lora_rank + qk_rope (the decoupled RoPE key, shared over heads, with an RMSNorm on
// the latent) and an up-projection kv_lora_rank -> heads x (qk_nope + v_head_dim); the output
// projection is heads x v_head_dim -> h. The model's head_dim is not used under MLA.

#include "scenario/ModelConfig.h"

#include <cstdint>

namespace ts {

// Weights of the attention block of one layer (no norms): MLA, or Q, K, V, O of GQA/MHA.
struct AttentionWeights {
    double replicated = 0; // not sharded by TP (MLA down-projections)
    double sharded = 0;    // sharded over TP (heads)
    double norms = 0;      // MLA latent norms
    double total() const { return replicated + sharded + norms; }
};
AttentionWeights attentionWeights(const ModelConfig& model);

// Per-layer parameters of a MoE model's two kinds of layer.
struct SparseLayerParams {
    AttentionWeights attention;
    double norms = 0;          // the two pre-norms
    double denseMlp = 0;       // a dense layer's MLP
    double router = 0;         // a MoE layer's router
    double routedExpert = 0;   // one routed expert
    double sharedExperts = 0;  // all shared experts of a MoE layer
    int experts = 0, topK = 0; // 0 when the model has no MoE
    int denseLayers = 0, moeLayers = 0;
};
SparseLayerParams sparseLayerParams(const ModelConfig& model);

struct SparseParameterCounts {
    double total = 0;        // every parameter
    double active = 0;       // the parameters one token uses, input embedding included
    double activeMatmul = 0; // active ones taking part in matrix multiplies (no embedding, norms)
};
SparseParameterCounts sparseParameterCounts(const ModelConfig& model);

// Model FLOPs of training per token: 6 x active matmul parameters + 3 x attention forward
// (the causal discount as in TransformerArithmetic.h); MLA's QK uses qk_nope + qk_rope, its
// PV v_head_dim.
double sparseTrainingFlopsPerToken(const ModelConfig& model, std::int64_t seqLen);

// How a token picks its experts, for counting where its dispatch goes. Without groups, top_k
// distinct experts out of `experts`; with group-limited routing (DeepSeek-V2 arXiv 2405.04434
// sec. 2.1.2 "device-limited routing", DeepSeek-V3 arXiv 2412.19437 sec. 2.1.2 "node-limited
// routing"; HF config n_group / topk_group; Megatron-Core --moe-router-num-groups /
// --moe-router-group-topk) the experts form `groups` contiguous groups of experts / groups,
// a token first picks `groupsPerToken` groups and then its top_k experts inside them.
// Routing is taken as uniform (balanced load, which DeepSeek-V3's bias-based balancing and
// the benchmarks' forced balancing aim at): the groups drawn without replacement, each of
// the top_k experts uniformly from the chosen groups' experts, independently of the others.
// Independent draws are the estimator's long-standing approximation (ep (1 - (1 - 1/ep)^k)
// ranks per token); top_k distinct experts would give up to ~2% more destinations when a
// rank holds several experts, which moves the published MoE cases (tests/tst_accuracy) the
// wrong way, by 0.2-0.6 points.
struct ExpertRouting {
    int experts = 0;
    int topK = 0;
    int groups = 0;         // 0: no group limit
    int groupsPerToken = 0; // with groups
};
ExpertRouting expertRouting(const MoeConfig& moe);

// Expected number of distinct bins a token's top_k experts fall into, the bins being
// consecutive blocks of `binExperts` experts in expert order (the last one shorter when
// binExperts does not divide experts). Experts are laid out in order over the expert-parallel
// ranks (Megatron-Core: rank r holds experts r x experts/ep ...), so a bin of experts/ep
// experts is a rank and one of k x experts/ep a scale-up domain of k ranks. Exact under the
// routing above: sum over bins of P(the bin holds one of the token's experts), where
//   P(miss) = sum over the subsets T of the groups the bin meets, of
//             P(the chosen groups meet the bin's groups in exactly T) x (1 - m_T / N)^k,
// N = groupsPerToken x experts / groups the experts left after the group choice, m_T the
// bin's experts in T; without groups, one group of every expert: (1 - m / E)^k.
double expectedDistinctBins(const ExpertRouting& routing, int binExperts);

// Head dims of the attention core: (QK, PV). MLA: (nope + rope, v); else (head_dim, head_dim).
struct AttentionHeadDims {
    int qk = 0, v = 0;
};
AttentionHeadDims attentionHeadDims(const ModelConfig& model);

} // namespace ts
