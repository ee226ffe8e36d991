#include "estimate/AttentionCore.h"

#include <algorithm>

namespace ts {

namespace {

// Q K^T and P V as batched GEMMs over the whole s x s matrix (the mask, a window's too, is
// applied after the multiply), in the training dtype's 16-bit form; the softmax reads and
// writes 2 bytes per score, dropout another 2 + 2 and a 1-byte mask; the backward runs both
// GEMMs twice and the softmax gradient reads 4 and writes 2 bytes per score (Megatron-LM's
// unfused CoreAttention with FusedScaleMaskSoftmax; Korthikanti et al. 2022 sec. 4.1). The
// scores each query row sees: the sequence, or its packed document.
AttentionCoreCost unfusedAttention(const CostContext& ctx, const AttentionCoreInput& in) {
    const HardwareProfile& hw = ctx.hw;
    const double sl = static_cast<double>(in.shape.seqLen);
    const double rows = in.shape.batchHeads * sl;
    const double hd = in.shape.headDim;
    const double scores = rows * sl;
    const double fwdBytes = scores * (4.0 + (ctx.dropout ? 5.0 : 0.0));
    const double bwdBytes = scores * (6.0 + (ctx.dropout ? 5.0 : 0.0));
    AttentionCoreCost c;
    c.forward.attention = matmulSeconds(hw, in.dtype, rows, sl, hd) +
                          matmulSeconds(hw, in.dtype, rows, hd, sl) +
                          memoryBoundSeconds(hw, fwdBytes, ctx.dropout ? 2 : 1);
    c.backward.attention = 2.0 * (matmulSeconds(hw, in.dtype, rows, sl, hd) +
                                  matmulSeconds(hw, in.dtype, rows, hd, sl)) +
                           memoryBoundSeconds(hw, bwdBytes, ctx.dropout ? 2 : 1);
    c.forward.kernels += ctx.dropout ? 4 : 3;
    c.backward.kernels += ctx.dropout ? 6 : 5;
    return c;
}

ContextParallelAttention fusedAttention(const CostContext& ctx, const AttentionCoreInput& in,
                                        std::int64_t window) {
    const ResolvedScenario& sc = ctx.scenario;
    const int cp = std::max(1, sc.parallel.cp);
    const GroupPlacement cpGroup{cp, static_cast<long long>(sc.parallel.tp)};
    AttentionShape shape = in.shape;
    shape.window = window;
    return contextParallelAttention(ctx.hw, ctx.collectives, sc.parallel.cpComm, shape, cp, cpGroup,
                                    in.tokenBytes);
}

void blend(CollectiveTime& into, const CollectiveTime& a, const CollectiveTime& b, double f) {
    into.seconds = f * a.seconds + (1.0 - f) * b.seconds;
    into.scaleUpBytes = f * a.scaleUpBytes + (1.0 - f) * b.scaleUpBytes;
    into.scaleOutBytes = f * a.scaleOutBytes + (1.0 - f) * b.scaleOutBytes;
}

} // namespace

AttentionCoreCost attentionCoreCost(const CostContext& ctx, const AttentionCoreInput& in) {
    if (!ctx.flashAttention)
        return unfusedAttention(ctx, in);
    const ModelConfig& m = ctx.scenario.model;
    const ContextParallelAttention full = fusedAttention(ctx, in, 0);
    const double f = m.windowedLayerFraction();
    const ContextParallelAttention windowed =
        f > 0 ? fusedAttention(ctx, in, *m.slidingWindow) : full;
    AttentionCoreCost c;
    c.forward.attention = f * windowed.forwardSeconds + (1.0 - f) * full.forwardSeconds;
    c.backward.attention = f * windowed.backwardSeconds + (1.0 - f) * full.backwardSeconds;
    blend(c.cpForward, windowed.forwardComm, full.forwardComm, f);
    blend(c.cpBackward, windowed.backwardComm, full.backwardComm, f);
    addAttentionKernels(std::max(1, ctx.scenario.parallel.cp), c.forward, c.backward);
    return c;
}

} // namespace ts
