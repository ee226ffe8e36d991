#pragma once
// Transformer arithmetic for dense decoder models: parameters per layer and FLOPs per token.
//
// Conventions (all sources below count the same way):
// - A matrix multiply of an [M x K] by a [K x N] matrix costs 2*M*N*K FLOPs.
// - Training costs 3x the forward FLOPs (forward, input gradient, weight gradient):
//   Kaplan et al. 2020, "Scaling Laws for Neural Language Models", sec. 2.1 (C = 6N per token);
//   Narayanan et al. 2021, SC'21, sec. 5.1 (eq. 3).
// - Attention scores (Q K^T) and the weighted sum (P V) cost 2 * 2 * s * d_head FLOPs per
//   token and head for the full s x s matrix. Causal masking halves the useful work:
//   a causal model needs (s + 1) / (2 s) of it (token i attends to i + 1 positions).
//   Flash-style kernels skip the masked tiles (Dao 2023, FlashAttention-2, sec. 3.1.1), so
//   both the FLOP count and the kernel time use the causal fraction.
// - GPT-style layers (GELU MLP) carry biases and LayerNorm (weight and bias); Llama-style
//   layers (SwiGLU MLP) carry no biases and RMSNorm (weight only). Learned position
//   embeddings are not counted (RoPE models have none; for GPT they are < 0.1% of N).

#include "scenario/ModelConfig.h"

#include <cstdint>
#include <optional>

namespace ts {

struct LayerParameters {
    double attention = 0; // Q, K, V and output projections (with biases for GELU models)
    double mlp = 0;       // 2 (GELU) or 3 (SwiGLU) matrices, with biases for GELU models
    double norms = 0;     // the two pre-norms of the layer
    double total() const { return attention + mlp + norms; }
    // Parameters that tensor parallelism shards (everything except norms and the output
    // projection biases, which Megatron replicates).
    double tensorParallel = 0;
};

struct ParameterCounts {
    LayerParameters perLayer;
    double layers = 0;      // perLayer.total() * number of layers
    double embedding = 0;   // vocab x hidden input embedding
    double outputLayer = 0; // hidden x vocab output projection (0 when tied)
    double finalNorm = 0;
    double total() const { return layers + embedding + outputLayer + finalNorm; }
    // The parameters that take part in matrix multiplies per token: all but the input
    // embedding (a table lookup). With tied embeddings the shared matrix is used once
    // as the output projection.
    double matmulParameters = 0;
};

// Whether attention masks future tokens (decoder LMs: yes).
inline constexpr bool kCausalAttention = true;

// Fraction of the s x s score matrix a causal kernel computes: (s + 1) / (2 s).
double causalFraction(std::int64_t seqLen);

// Keys a query attends to, averaged over the queries of one causal sequence of seqLen tokens:
// (s + 1) / 2 with full attention, and with a sliding window of w tokens (itself included;
// Beltagy et al. 2020, "Longformer", arXiv 2004.05150, sec. 3.1; Mistral 7B, arXiv 2310.06825,
// sec. 2) (w (w + 1) / 2 + (s - w) w) / s. The model form averages over the layers, of which
// ModelConfig::windowedLayerFraction() are windowed.
double meanAttendedKeys(std::int64_t seqLen, std::optional<std::int64_t> window);
double meanAttendedKeys(const ModelConfig& model, std::int64_t seqLen);

ParameterCounts countParameters(const ModelConfig& model);

// Width of the query projection output (heads * head_dim) and of K or V (kv_heads * head_dim).
std::int64_t queryWidth(const ModelConfig& model);
std::int64_t keyValueWidth(const ModelConfig& model);

// Forward FLOPs of one layer for one sequence of seqLen tokens (not divided by any
// parallelism): matrix multiplies of the linear layers and the attention core.
struct LayerForwardFlops {
    double linear = 0;    // QKV, output projection, MLP (2 * params * tokens)
    double attention = 0; // Q K^T and P V, causal fraction applied
    double total() const { return linear + attention; }
};
LayerForwardFlops layerForwardFlops(const ModelConfig& model, std::int64_t seqLen);

// Model FLOPs of training per token: 3x forward, the recompute pass excluded.
// = 6 * matmulParameters + 3 * (attention forward per token), the "6N + attention" rule
// (Chowdhery et al. 2022, PaLM, appendix B; here with the causal discount).
double trainingFlopsPerToken(const ModelConfig& model, std::int64_t seqLen);

} // namespace ts
