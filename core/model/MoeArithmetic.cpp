#include "model/MoeArithmetic.h"

#include "model/TransformerArithmetic.h"

#include <algorithm>

namespace ts {

AttentionHeadDims attentionHeadDims(const ModelConfig& m) {
    if (m.mla)
        return {m.mla->qkNopeHeadDim + m.mla->qkRopeHeadDim, m.mla->vHeadDim};
    return {m.headDim, m.headDim};
}

AttentionWeights attentionWeights(const ModelConfig& m) {
    const double h = double(m.hidden);
    AttentionWeights w;
    if (m.mla) {
        const MlaConfig& a = *m.mla;
        const double heads = m.heads;
        const double qk = a.qkNopeHeadDim + a.qkRopeHeadDim;
        if (a.qLoraRank > 0) {
            w.replicated += h * a.qLoraRank;       // q down-projection
            w.sharded += a.qLoraRank * heads * qk; // q up-projection
            w.norms += a.qLoraRank;                // q latent RMSNorm
        } else {
            w.sharded += h * heads * qk;
        }
        w.replicated += h * (a.kvLoraRank + a.qkRopeHeadDim);               // kv down + RoPE key
        w.norms += a.kvLoraRank;                                            // kv latent RMSNorm
        w.sharded += a.kvLoraRank * heads * (a.qkNopeHeadDim + a.vHeadDim); // kv up
        w.sharded += heads * a.vHeadDim * h;                                // output
        return w;
    }
    const double q = double(queryWidth(m));
    const double kv = double(keyValueWidth(m));
    w.sharded = h * (q + 2.0 * kv) + q * h;
    if (m.mlp == MlpKind::Gelu)
        w.sharded += q + 2.0 * kv + h; // biases (GPT)
    return w;
}

SparseLayerParams sparseLayerParams(const ModelConfig& m) {
    const double h = double(m.hidden);
    const bool gpt = m.mlp == MlpKind::Gelu;
    const double matrices = gpt ? 2.0 : 3.0;
    const auto mlp = [&](double ffn) { return matrices * h * ffn + (gpt ? ffn + h : 0.0); };
    SparseLayerParams p;
    p.attention = attentionWeights(m);
    p.norms = 2.0 * (gpt ? 2.0 * h : h);
    p.denseMlp = mlp(double(m.ffnHidden));
    if (m.moe) {
        const MoeConfig& e = *m.moe;
        p.experts = e.experts;
        p.topK = e.topK;
        p.router = h * e.experts;
        p.routedExpert = mlp(double(e.expertFfnHidden));
        p.sharedExperts = e.sharedExperts * mlp(double(e.expertFfnHidden));
        p.denseLayers = std::min(e.firstDenseLayers, m.layers);
        p.moeLayers = m.layers - p.denseLayers;
    } else {
        p.denseLayers = m.layers;
    }
    return p;
}

SparseParameterCounts sparseParameterCounts(const ModelConfig& m) {
    const SparseLayerParams p = sparseLayerParams(m);
    const double h = double(m.hidden);
    const double embed = double(m.vocab) * h;
    const double output = m.tiedEmbeddings ? 0.0 : embed;
    const double finalNorm = m.mlp == MlpKind::Gelu ? 2.0 * h : h;
    const double attn = p.attention.total();
    const double dense = attn + p.norms + p.denseMlp;
    const double moeShared = attn + p.norms + p.router + p.sharedExperts;
    SparseParameterCounts c;
    c.total = p.denseLayers * dense + p.moeLayers * (moeShared + p.experts * p.routedExpert) +
              embed + output + finalNorm;
    c.active = p.denseLayers * dense + p.moeLayers * (moeShared + p.topK * p.routedExpert) + embed +
               output + finalNorm;
    const double attnMatmul = p.attention.replicated + p.attention.sharded;
    c.activeMatmul =
        p.denseLayers * (attnMatmul + p.denseMlp) +
        p.moeLayers * (attnMatmul + p.router + p.sharedExperts + p.topK * p.routedExpert) + embed;
    return c;
}

double sparseTrainingFlopsPerToken(const ModelConfig& m, std::int64_t seqLen) {
    const AttentionHeadDims d = attentionHeadDims(m);
    // Per token and layer: Q K^T 2 s d_qk and P V 2 s d_v per head, causal fraction.
    const double attention =
        2.0 * double(seqLen) * (d.qk + d.v) * m.heads * causalFraction(seqLen) * m.layers;
    return 6.0 * sparseParameterCounts(m).activeMatmul + 3.0 * attention;
}

} // namespace ts
