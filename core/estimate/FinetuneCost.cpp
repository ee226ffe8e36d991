#include "estimate/FinetuneCost.h"

#include "estimate/FinetuneMemory.h"
#include "hardware/KernelTime.h"

#include <algorithm>

namespace ts {

namespace {

// Kernels of one wrapped module: forward x A, (x A) B and the add; the backward the two
// input-gradient and two weight-gradient GEMMs.
constexpr int kAdapterForwardKernels = 3;
constexpr int kAdapterBackwardKernels = 4;

int wrappedModules(const FinetuneConfig& f) {
    int n = 0;
    for (LoraTarget t : f.targets)
        n += t != LoraTarget::LmHead;
    return n;
}

} // namespace

void addFinetuneLayerWork(const CostContext& ctx, double tokens, PassCost& forward,
                          PassCost& backward) {
    const ResolvedScenario& sc = ctx.scenario;
    if (!sc.finetune || !sc.finetune->adapters())
        return;
    const FinetuneConfig& f = *sc.finetune;
    const FinetuneLayer l = finetuneLayer(sc.model, f, sc.parallel.tp, sc.parallel.ep, false);
    const int modules = wrappedModules(f);
    if (l.adapterBytesPerToken > 0) {
        forward.elementwise += memoryBoundSeconds(ctx.hw, tokens * l.adapterBytesPerToken,
                                                  modules * kAdapterForwardKernels);
        backward.elementwise += memoryBoundSeconds(ctx.hw, 2.0 * tokens * l.adapterBytesPerToken,
                                                   modules * kAdapterBackwardKernels);
    }
    if (f.baseWeights == BaseWeights::Bf16 || f.baseWeights == BaseWeights::Fp16)
        return;
    // Dequantise every base linear once per pass (7 modules for SwiGLU, 6 for GELU).
    const double bytes = l.frozenLinearBytes + 2.0 * l.frozenLinearParams;
    const int linears = isGatedMlp(sc.model.mlp) ? 7 : 6;
    forward.elementwise += memoryBoundSeconds(ctx.hw, bytes, linears);
    backward.elementwise += memoryBoundSeconds(ctx.hw, bytes, linears);
}

void addFinetuneOutputWork(const CostContext& ctx, double tokens, PassCost& forward,
                           PassCost& backward) {
    const ResolvedScenario& sc = ctx.scenario;
    if (!sc.finetune || !sc.finetune->wraps(LoraTarget::LmHead))
        return;
    const double r = sc.finetune->loraRank;
    const double h = double(sc.model.hidden);
    const double v = double(sc.model.vocab) / std::max(1, sc.parallel.tp);
    const double bytes = tokens * 2.0 * (h + 2.0 * r + 2.0 * v);
    forward.elementwise += memoryBoundSeconds(ctx.hw, bytes, kAdapterForwardKernels);
    backward.elementwise += memoryBoundSeconds(ctx.hw, 2.0 * bytes, kAdapterBackwardKernels);
}

} // namespace ts
