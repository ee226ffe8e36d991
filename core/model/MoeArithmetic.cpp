#include "model/MoeArithmetic.h"

#include "model/TransformerArithmetic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace ts {

namespace {

double logChoose(double n, double k) {
    if (k < 0 || k > n)
        return -std::numeric_limits<double>::infinity();
    return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

} // namespace

ExpertRouting expertRouting(const MoeConfig& moe) {
    return {moe.experts, moe.topK, moe.groupCount(), moe.groupsPerTokenCount()};
}

double expectedDistinctBins(const ExpertRouting& r, int binExperts) {
    const int experts = r.experts;
    const int k = std::min(r.topK, experts);
    if (experts <= 0 || k <= 0 || binExperts <= 0)
        return 0.0;
    // A group limit that leaves every group (or a single group) limits nothing.
    const bool grouped = r.groups > 1 && experts % r.groups == 0 && r.groupsPerToken >= 1 &&
                         r.groupsPerToken < r.groups;
    const int groups = grouped ? r.groups : 1;
    const int chosen = grouped ? r.groupsPerToken : 1;
    const int groupSize = experts / groups;
    const double pool = double(chosen) * groupSize; // experts left after the group choice
    const double logGroupChoices = logChoose(groups, chosen);
    // Bins with the same offset inside a group and the same size miss alike.
    std::map<std::pair<int, int>, double> missOf;
    double expected = 0;
    for (int lo = 0; lo < experts; lo += binExperts) {
        const int hi = std::min(experts, lo + binExperts);
        const auto key = std::make_pair(grouped ? lo % groupSize : 0, hi - lo);
        auto it = missOf.find(key);
        if (it == missOf.end()) {
            // The groups the bin meets: `whole` ones entirely, the rest (at most two, at its
            // ends) in part.
            int whole = 0;
            std::vector<int> part;
            for (int j = lo / groupSize; j <= (hi - 1) / groupSize; ++j) {
                const int m = std::min(hi, (j + 1) * groupSize) - std::max(lo, j * groupSize);
                if (m == groupSize)
                    ++whole;
                else
                    part.push_back(m);
            }
            const int met = whole + static_cast<int>(part.size());
            double miss = 0;
            for (int i = 0; i <= whole; ++i)
                for (unsigned mask = 0; mask < (1u << part.size()); ++mask) {
                    int t = i;                        // the bin's groups chosen
                    double m = double(i) * groupSize; // the bin's experts left in the pool
                    for (std::size_t b = 0; b < part.size(); ++b)
                        if (mask & (1u << b)) {
                            ++t;
                            m += part[b];
                        }
                    // P(the chosen groups meet the bin's groups in exactly this subset).
                    const double pGroups =
                        std::exp(logChoose(whole, i) + logChoose(groups - met, chosen - t) -
                                 logGroupChoices);
                    if (pGroups > 0)
                        miss += pGroups * std::pow(1.0 - m / pool, k);
                }
            it = missOf.emplace(key, miss).first;
        }
        expected += 1.0 - it->second;
    }
    return expected;
}

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
    if (m.attentionBias)
        w.sharded += q + 2.0 * kv + h; // biases (GPT; model.attention_bias)
    if (m.attentionSinks)
        w.sharded += m.heads; // one sink logit per head (sharded with the heads)
    return w;
}

SparseLayerParams sparseLayerParams(const ModelConfig& m) {
    const double h = double(m.hidden);
    const bool gpt = m.mlp == MlpKind::Gelu;
    const double matrices = gpt ? 2.0 : 3.0;
    // Biases: GPT-style MLPs carry them on both matrices; experts where model.moe.expert_bias
    // says (GPT-OSS: the fused gate-and-up projection's 2 ffn and the down projection's h).
    const auto biases = [&](double ffn) { return (gpt ? 1.0 : 2.0) * ffn + h; };
    const auto mlp = [&](double ffn) { return matrices * h * ffn + (gpt ? biases(ffn) : 0.0); };
    const auto expert = [&](double ffn) {
        return matrices * h * ffn + (m.expertBias() ? biases(ffn) : 0.0);
    };
    SparseLayerParams p;
    p.attention = attentionWeights(m);
    p.norms = 2.0 * (gpt ? 2.0 * h : h);
    p.denseMlp = mlp(double(m.ffnHidden));
    if (m.moe) {
        const MoeConfig& e = *m.moe;
        p.experts = e.experts;
        p.topK = e.topK;
        p.router = h * e.experts + (m.routerBias() ? e.experts : 0.0);
        p.routedExpert = expert(double(e.expertFfnHidden));
        p.sharedExperts = e.sharedExperts * expert(double(e.expertFfnHidden));
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
    // Per token and layer: Q K^T 2 k d_qk and P V 2 k d_v per head, k the keys attended.
    const double attention = 2.0 * meanAttendedKeys(m, seqLen) * (d.qk + d.v) * m.heads * m.layers;
    return 6.0 * sparseParameterCounts(m).activeMatmul + 3.0 * attention;
}

} // namespace ts
