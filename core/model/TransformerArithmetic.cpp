#include "model/TransformerArithmetic.h"

namespace ts {

double causalFraction(std::int64_t seqLen) {
    if (!kCausalAttention || seqLen <= 0)
        return 1.0;
    const double s = static_cast<double>(seqLen);
    return (s + 1.0) / (2.0 * s);
}

double meanAttendedKeys(std::int64_t seqLen, std::optional<std::int64_t> window) {
    if (seqLen <= 0)
        return 0.0;
    const double s = static_cast<double>(seqLen);
    if (!kCausalAttention)
        return s;
    if (!window || *window >= seqLen)
        return s * causalFraction(seqLen);
    // Query i (1-based) attends to min(i, w) keys: the first w queries 1..w, the rest w each.
    const double w = static_cast<double>(*window);
    return (w * (w + 1.0) / 2.0 + (s - w) * w) / s;
}

double meanAttendedKeys(const ModelConfig& model, std::int64_t seqLen) {
    const double full = meanAttendedKeys(seqLen, std::nullopt);
    const double f = model.windowedLayerFraction();
    if (f <= 0)
        return full;
    return f * meanAttendedKeys(seqLen, model.slidingWindow) + (1.0 - f) * full;
}

std::int64_t queryWidth(const ModelConfig& model) {
    return static_cast<std::int64_t>(model.heads) * model.headDim;
}

std::int64_t keyValueWidth(const ModelConfig& model) {
    return static_cast<std::int64_t>(model.kvHeads) * model.headDim;
}

ParameterCounts countParameters(const ModelConfig& model) {
    const double h = static_cast<double>(model.hidden);
    const double q = static_cast<double>(queryWidth(model));
    const double kv = static_cast<double>(keyValueWidth(model));
    const double ffn = static_cast<double>(model.ffnHidden);
    const bool gpt = model.mlp == MlpKind::Gelu;

    LayerParameters layer;
    // Q (h x q), K and V (h x kv each), output projection (q x h); biases where the model has
    // them (model.attention_bias; GELU models by default); one sink logit per head.
    const double attnWeights = h * (q + 2.0 * kv) + q * h;
    const double attnBiases = model.attentionBias ? (q + 2.0 * kv) + h : 0.0;
    const double sinks = model.attentionSinks ? double(model.heads) : 0.0;
    layer.attention = attnWeights + attnBiases + sinks;
    const double mlpMatrices = gpt ? 2.0 : 3.0;
    const double mlpWeights = mlpMatrices * h * ffn;
    const double mlpBiases = gpt ? ffn + h : 0.0;
    layer.mlp = mlpWeights + mlpBiases;
    // LayerNorm: weight and bias; RMSNorm: weight.
    layer.norms = 2.0 * (gpt ? 2.0 * h : h);
    // Row-parallel output biases (attention output, MLP down) are replicated in Megatron.
    layer.tensorParallel =
        layer.attention + layer.mlp - (model.attentionBias ? h : 0.0) - (gpt ? h : 0.0);

    ParameterCounts counts;
    counts.perLayer = layer;
    counts.layers = layer.total() * model.layers;
    counts.embedding = static_cast<double>(model.vocab) * h;
    counts.outputLayer = model.tiedEmbeddings ? 0.0 : static_cast<double>(model.vocab) * h;
    counts.finalNorm = gpt ? 2.0 * h : h;
    counts.matmulParameters =
        (attnWeights + mlpWeights) * model.layers + static_cast<double>(model.vocab) * h;
    return counts;
}

LayerForwardFlops layerForwardFlops(const ModelConfig& model, std::int64_t seqLen) {
    const double h = static_cast<double>(model.hidden);
    const double q = static_cast<double>(queryWidth(model));
    const double kv = static_cast<double>(keyValueWidth(model));
    const double ffn = static_cast<double>(model.ffnHidden);
    const double s = static_cast<double>(seqLen);
    const double mlpMatrices = model.mlp == MlpKind::Gelu ? 2.0 : 3.0;
    LayerForwardFlops flops;
    flops.linear = 2.0 * s * (h * (q + 2.0 * kv) + q * h + mlpMatrices * h * ffn);
    // Q K^T and P V: 2 FLOPs x s x (keys attended) x head_dim each, per head; averaged over
    // the layers where a sliding window applies to some of them.
    flops.attention = 2.0 * 2.0 * s * meanAttendedKeys(model, seqLen) * model.headDim * model.heads;
    return flops;
}

double trainingFlopsPerToken(const ModelConfig& model, std::int64_t seqLen) {
    const ParameterCounts counts = countParameters(model);
    const LayerForwardFlops layer = layerForwardFlops(model, seqLen);
    const double attentionPerToken = layer.attention / static_cast<double>(seqLen) * model.layers;
    return 6.0 * counts.matmulParameters + 3.0 * attentionPerToken;
}

} // namespace ts
