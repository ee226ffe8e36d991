#include "estimate/MoeLayerCost.h"

#include "estimate/AttentionCore.h"
#include "estimate/ContextParallel.h"
#include "estimate/EagerKernels.h"
#include "estimate/PrecisionMemory.h"
#include "estimate/RoutedExperts.h"
#include "hardware/KernelTime.h"
#include "model/MoeArithmetic.h"

#include <algorithm>
#include <cmath>

namespace ts {

namespace {

struct Ctx {
    const HardwareProfile& hw;
    MatmulDtype dtype;
    double inBytes;
};

// Forward, input-gradient and weight-gradient GEMMs of [m x k] x [k x n] (estimate/LayerCost).
void linear(const Ctx& c, double m, double n, double k, LayerCost& out) {
    if (m <= 0 || n <= 0 || k <= 0)
        return;
    out.forward.gemm += matmulSeconds(c.hw, c.dtype, m, n, k, c.inBytes, 2.0);
    out.backward.gemm += matmulSeconds(c.hw, c.dtype, m, k, n, c.inBytes, 2.0);
    out.backward.gemm +=
        matmulSeconds(c.hw, c.dtype, k, n, m, c.inBytes, kWeightGradientAccumulateBytes);
    out.forward.kernels += 1;
    out.backward.kernels += 2;
}

double tokensOf(const ResolvedScenario& sc) {
    return double(sc.training.seqLen) * double(sc.training.microBatch) /
           double(std::max(1, sc.parallel.cp));
}

double expertLoad(const ResolvedScenario& sc, double imbalance) {
    const auto& cf = sc.model.moe->capacityFactor;
    return cf ? std::min(imbalance, *cf) : imbalance;
}

double bytesPerCopy(const ResolvedScenario& sc, double imbalance, double elementBytes) {
    // A rank dispatches its tokens x etp / tp (expert tensor parallelism), the busiest
    // rank receiving `imbalance` times the mean.
    const ParallelConfig& p = sc.parallel;
    return tokensOf(sc) * double(p.etp) / double(std::max(1, p.tp)) * expertLoad(sc, imbalance) *
           double(sc.model.hidden) * elementBytes;
}

} // namespace

double activationBytes(const ResolvedScenario& sc) {
    return sc.training.precision == Precision::Fp32 ? 4.0 : 2.0;
}

ExpertDispatchShape expertDispatchShape(const ResolvedScenario& sc, int membersPerDomain) {
    ExpertDispatchShape d;
    if (!sc.model.moe)
        return d;
    const int ep = std::max(1, sc.parallel.ep);
    d.membersPerDomain = std::clamp(membersPerDomain, 1, ep);
    d.domains = (ep + d.membersPerDomain - 1) / d.membersPerDomain;
    // Experts lie in order over the EP ranks (experts / ep each, validated to divide).
    const ExpertRouting routing = expertRouting(*sc.model.moe);
    const int perRank = std::max(1, routing.experts / ep);
    d.ranksPerToken = expectedDistinctBins(routing, perRank);
    d.domainsPerToken = expectedDistinctBins(routing, perRank * d.membersPerDomain);
    return d;
}

double expertDispatchBytes(const ResolvedScenario& sc, double imbalance) {
    if (!sc.model.moe)
        return 0.0;
    // Token-deduplicating dispatchers (DeepEP, deepseek-ai/DeepEP README; Megatron-Core's
    // flex dispatcher with HybridEP, the recipe of NVIDIA's DeepSeek-V3 GB200 guide) send a
    // token once to each rank that holds one of its experts, not once per expert: with
    // uniform routing, the expected distinct ranks among its top_k experts (its own among
    // them; the all-to-all cost drops that share with its (n-1)/n factor).
    return bytesPerCopy(sc, imbalance, activationBytes(sc)) *
           expertDispatchShape(sc, sc.parallel.ep).ranksPerToken;
}

ExpertAllToAll expertAllToAll(const CollectiveCost& collectives, const ResolvedScenario& sc,
                              double imbalance, double elementBytes) {
    ExpertAllToAll a;
    const ParallelConfig& p = sc.parallel;
    if (!sc.model.moe || p.ep <= 1)
        return a;
    // The EP group: ep ranks etp apart (Megatron-Core's expert groups: etp fastest).
    const long long stride = std::max(1, p.etp);
    const GroupPlacement epGroup{p.ep, stride};
    const ExpertDispatchShape d = expertDispatchShape(sc, collectives.membersPerDomain(epGroup));
    const double perToken = bytesPerCopy(sc, imbalance, elementBytes);
    if (d.domains > 1) // one EP rank per domain, on the same rail
        a.scaleOut = collectives.cost(Collective::AllToAll, perToken * d.domainsPerToken,
                                      GroupPlacement{d.domains, stride * d.membersPerDomain});
    if (d.membersPerDomain > 1)
        a.scaleUp = collectives.cost(Collective::AllToAll, perToken * d.ranksPerToken,
                                     GroupPlacement{d.membersPerDomain, stride});
    a.total.seconds = std::max(a.scaleOut.seconds, a.scaleUp.seconds);
    a.total.scaleOutBytes = a.scaleOut.scaleOutBytes + a.scaleUp.scaleOutBytes;
    a.total.scaleUpBytes = a.scaleOut.scaleUpBytes + a.scaleUp.scaleUpBytes;
    return a;
}

LayerCost sparseLayerCost(const CostContext& ctx, bool moeLayer, double imbalance) {
    const ResolvedScenario& sc = ctx.scenario;
    const ModelConfig& m = sc.model;
    const ParallelConfig& p = sc.parallel;
    const HardwareProfile& hw = ctx.hw;
    const MatmulDtype dtype = matmulDtypeFor(sc.training.precision);
    const bool fp8 = dtype == MatmulDtype::Fp8 || dtype == MatmulDtype::Fp4;
    const Ctx c{hw, dtype, matmulInputBytes(dtype)};
    const double tokens = tokensOf(sc);
    const double tp = std::max(1, p.tp);
    const double h = double(m.hidden);
    const double heads = double(m.heads);
    const double actBytes = activationBytes(sc);
    const double replicated = p.sequenceParallel ? 1.0 / tp : 1.0;
    const bool swiglu = isGatedMlp(m.mlp);
    LayerCost out;

    // Attention projections.
    const AttentionHeadDims hd = attentionHeadDims(m);
    // Widths on one rank for context parallelism: K and V together (ring, all-gather), and
    // Q, the output and the KV heads (Ulysses).
    double kvWidthPerRank = 0, qWidthPerRank = 0, outWidthPerRank = 0, kvHeadsPerRank = 0;
    double elementwiseFwd = 0; // bytes per token
    if (m.mla) {
        const MlaConfig& a = *m.mla;
        const double qk = hd.qk;
        // (The up-projections from the latents: the mla_up_proj module of selective
        // recompute.)
        double upProj = 0;
        if (a.qLoraRank > 0) {
            linear(c, tokens, a.qLoraRank, h, out);
            const double before = out.forward.gemm;
            linear(c, tokens, heads * qk / tp, a.qLoraRank, out);
            upProj += out.forward.gemm - before;
            elementwiseFwd += 4.0 * a.qLoraRank; // latent norm
        } else {
            linear(c, tokens, heads * qk / tp, h, out);
        }
        linear(c, tokens, a.kvLoraRank + a.qkRopeHeadDim, h, out);
        const double beforeKv = out.forward.gemm;
        linear(c, tokens, heads * (a.qkNopeHeadDim + a.vHeadDim) / tp, a.kvLoraRank, out);
        out.modules.mlaUpProj = upProj + out.forward.gemm - beforeKv;
        linear(c, tokens, h, heads * a.vHeadDim / tp, out);
        elementwiseFwd += 4.0 * a.kvLoraRank + 4.0 * heads * a.qkRopeHeadDim / tp; // norm, RoPE
        kvWidthPerRank = heads * (qk + hd.v) / tp;
        qWidthPerRank = heads * qk / tp;
        outWidthPerRank = heads * hd.v / tp;
        kvHeadsPerRank = heads / tp; // K, V expanded per head from the latent
    } else {
        const double q = heads * m.headDim, kv = double(m.kvHeads) * m.headDim;
        linear(c, tokens, (q + 2.0 * kv) / tp, h, out);
        linear(c, tokens, h, q / tp, out);
        kvWidthPerRank = 2.0 * kv / tp;
        qWidthPerRank = outWidthPerRank = q / tp;
        kvHeadsPerRank = double(m.kvHeads) / tp;
    }
    // Attention core (flash, BF16): the FLOPs of QK (d_qk) and PV (d_v) equal one head dim
    // of (d_qk + d_v) / 2; context parallelism over cp by parallelism.cp_comm.
    AttentionCoreInput core; // estimate/AttentionCore.h: the backend's kernel or scores
    core.shape = attentionShapeOf(sc.training, heads / tp, (hd.qk + hd.v) / 2);
    const double mb = double(sc.training.microBatch);
    core.tokenBytes =
        AttentionTokenBytes{qWidthPerRank * actBytes * mb, kvWidthPerRank * actBytes * mb,
                            outWidthPerRank * actBytes * mb, kvHeadsPerRank};
    const AttentionCoreCost attention = attentionCoreCost(ctx, core);
    out.forward.attention = attention.forward.attention;
    out.backward.attention = attention.backward.attention;
    out.cpForward = attention.cpForward;
    out.cpBackward = attention.cpBackward;

    // MLP: dense, or shared + routed experts.
    const double upFactor = swiglu ? 2.0 : 1.0;
    const double actFnBytes = activationFunctionBytes(m.mlp);
    double mlpElementwise = 0; // bytes per token
    RoutedExpertsInput routed;
    const double beforeMlp = out.forward.gemm;
    if (!moeLayer || !m.moe) {
        const double ffn = double(m.ffnHidden);
        linear(c, tokens, upFactor * ffn / tp, h, out);
        linear(c, tokens, h, ffn / tp, out);
        mlpElementwise += actFnBytes * ffn / tp;
        out.modules.mlp = out.forward.gemm - beforeMlp +
                          memoryBoundSeconds(hw, actFnBytes * ffn / tp * tokens, 1);
    } else {
        const MoeConfig& e = *m.moe;
        const double effn = double(e.expertFfnHidden);
        if (e.sharedExperts > 0) {
            const double sffn = e.sharedExperts * effn;
            linear(c, tokens, upFactor * sffn / tp, h, out);
            linear(c, tokens, h, sffn / tp, out);
            mlpElementwise += actFnBytes * sffn / tp;
            out.modules.sharedExperts = out.forward.gemm - beforeMlp +
                                        memoryBoundSeconds(hw, actFnBytes * sffn / tp * tokens, 1);
        }
        // Router: a hidden x experts GEMM (counted in BF16; recipes that set Megatron-Core's
        // moe_router_dtype = fp32 run it slower), top-k and softmax/sigmoid on tokens x
        // experts (the 12 bytes per expert below).
        const Ctx router{hw, MatmulDtype::Bf16, 2.0};
        linear(router, tokens * replicated, e.experts, h, out);
        mlpElementwise += 12.0 * e.experts;
        // Routed experts: the busiest rank's load, as the execution keys run them
        // (estimate/RoutedExperts.h).
        routed =
            RoutedExpertsInput{tokens, expertLoad(sc, imbalance),
                               tokens * e.topK * double(p.etp) / tp * expertLoad(sc, imbalance)};
    }

    // Norms, residual adds (as in estimate/LayerCost.cpp), plus FP8 casts of GEMM inputs.
    double fwdBytes = 20.0 * h * replicated + elementwiseFwd + mlpElementwise;
    // The FP8 recipe sets each cast's bytes and kernels (estimate/PrecisionMemory.h).
    const int casts = fp8 ? 4 * fp8CastPasses(sc.training) : 0;
    if (fp8)
        fwdBytes += fp8CastBytesPerElement(sc.training, CastOperand::Activation) *
                    (2.0 * h + kvWidthPerRank);
    // (Router: its top-k, score function and auxiliary-loss kernels, 8 each way.)
    const int routerKernels = moeLayer && m.moe ? 8 : 0;
    out.modules.layernorm = layerNormModuleSeconds(hw, h, replicated, tokens);
    // Eager PyTorch modules (estimate/EagerKernels.h): norms, RoPE and the attention's copies
    // of a GQA / MHA layer, and the dense or shared experts' activation (MLA's own operators
    // are not counted).
    EagerBytes eager =
        m.mla ? EagerBytes{}
              : eagerAttentionBytes(sc, replicated, qWidthPerRank, kvWidthPerRank / 2.0);
    const double mlpWidth = !moeLayer || !m.moe
                                ? double(m.ffnHidden) / tp
                                : m.moe->sharedExperts * double(m.moe->expertFfnHidden) / tp;
    const EagerBytes eagerMlp = eagerActivationBytes(sc, mlpWidth);
    eager.forward += eagerMlp.forward;
    eager.backward += eagerMlp.backward;
    out.forward.elementwise +=
        memoryBoundSeconds(hw, (fwdBytes + eager.forward) * tokens, 8 + casts);
    out.backward.elementwise +=
        memoryBoundSeconds(hw, (2.0 * fwdBytes + eager.backward) * tokens, 14 + casts);
    out.forward.kernels += 8 + casts + routerKernels;
    out.backward.kernels += 14 + casts + routerKernels;
    out.forward.kernels += attention.forward.kernels;
    out.backward.kernels += attention.backward.kernels;

    // Tensor parallelism: as the dense layer (LayerCost.cpp, Korthikanti et al. 2022).
    addLayerTensorParallel(ctx, tokens * h * actBytes, out.tpForward, out.tpBackward);
    const TensorParallelKernels tpk = tensorParallelKernels(p, sc.execution.framework);
    out.forward.kernels += tpk.forward;
    out.backward.kernels += tpk.backward;
    if (routed.routedTokens > 0)
        addRoutedExperts(ctx, routed, out);
    return out;
}

} // namespace ts

namespace ts {

namespace {

PassCost blend(const PassCost& a, double wa, const PassCost& b, double wb) {
    return {wa * a.gemm + wb * b.gemm, wa * a.attention + wb * b.attention,
            wa * a.elementwise + wb * b.elementwise, wa * a.kernels + wb * b.kernels};
}

CollectiveTime blend(const CollectiveTime& a, double wa, const CollectiveTime& b, double wb) {
    return {wa * a.seconds + wb * b.seconds, wa * a.scaleUpBytes + wb * b.scaleUpBytes,
            wa * a.scaleOutBytes + wb * b.scaleOutBytes};
}

} // namespace

LayerCost blendLayerCosts(const LayerCost& a, double wa, const LayerCost& b, double wb) {
    LayerCost r;
    r.forward = blend(a.forward, wa, b.forward, wb);
    r.backward = blend(a.backward, wa, b.backward, wb);
    r.tpForward = blend(a.tpForward, wa, b.tpForward, wb);
    r.tpBackward = blend(a.tpBackward, wa, b.tpBackward, wb);
    r.cpForward = blend(a.cpForward, wa, b.cpForward, wb);
    r.cpBackward = blend(a.cpBackward, wa, b.cpBackward, wb);
    r.epForward = blend(a.epForward, wa, b.epForward, wb);
    r.epBackward = blend(a.epBackward, wa, b.epBackward, wb);
    r.expertForward = blend(a.expertForward, wa, b.expertForward, wb);
    r.expertBackward = blend(a.expertBackward, wa, b.expertBackward, wb);
    r.hostSyncs = wa * a.hostSyncs + wb * b.hostSyncs;
    const LayerCost::ModuleSeconds& ma = a.modules;
    const LayerCost::ModuleSeconds& mb = b.modules;
    r.modules = {wa * ma.layernorm + wb * mb.layernorm, wa * ma.mlaUpProj + wb * mb.mlaUpProj,
                 wa * ma.moeAct + wb * mb.moeAct, wa * ma.mlp + wb * mb.mlp,
                 wa * ma.sharedExperts + wb * mb.sharedExperts};
    return r;
}

} // namespace ts
