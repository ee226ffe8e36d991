#include "estimate/EagerKernels.h"

namespace ts {

namespace {

// Per element, forward / backward (EagerKernels.h): the eager operators' bytes less the fused
// kernel's that the layer cost already counts.
constexpr double kEagerNormForward = 36.0 - 4.0;
constexpr double kEagerNormBackward = 56.0 - 8.0;
constexpr double kEagerRope = 20.0;
constexpr double kEagerSwiGluForward = 10.0 - 6.0;
constexpr double kEagerSwiGluBackward = 18.0 - 12.0;
constexpr double kContiguousCopy = 2.0 + 2.0;

} // namespace

bool eagerPytorchModules(const ResolvedScenario& sc) {
    // Stated false only (an unstated std::optional compares unequal).
    return sc.execution.framework == Framework::Pytorch && sc.training.compile == false;
}

EagerBytes eagerAttentionBytes(const ResolvedScenario& sc, double normTokens, double q, double kv) {
    if (!eagerPytorchModules(sc))
        return {};
    const double h = double(sc.model.hidden);
    EagerBytes b;
    b.forward = 2.0 * kEagerNormForward * h * normTokens;
    b.backward = 2.0 * kEagerNormBackward * h * normTokens;
    const double rope = kEagerRope * (q + kv);
    const double output = kContiguousCopy * q;
    // repeat_kv: K and V, each read at kv width and written at q width.
    const double expand = sc.model.kvHeads < sc.model.heads ? 2.0 * (2.0 * kv + 2.0 * q) : 0.0;
    b.forward += rope + output + expand;
    b.backward += rope + output + expand;
    return b;
}

EagerBytes eagerActivationBytes(const ResolvedScenario& sc, double width) {
    if (!eagerPytorchModules(sc) || !isGatedMlp(sc.model.mlp))
        return {};
    return {kEagerSwiGluForward * width, kEagerSwiGluBackward * width};
}

} // namespace ts
