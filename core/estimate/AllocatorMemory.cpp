#include "estimate/AllocatorMemory.h"

#include <algorithm>

namespace ts {

AllocatorPeaks allocatorPeaks(const TensorMoments& m) {
    const double always = m.weights + m.optimizer;
    const double liveGradients =
        m.optimizerInBackward ? m.largestGradient : (m.gradientsPersist ? m.gradients : 0.0);
    // When the backward starts: the activations of every micro-batch in flight.
    const double backwardStart = always + liveGradients + m.activations + m.transient;
    // When it ends: every gradient of the step (none with optimizer-in-backward), the
    // activations gone.
    const double backwardEnd =
        always + (m.optimizerInBackward ? m.largestGradient : m.gradients) + m.transient;
    AllocatorPeaks p;
    p.activationMoment = backwardStart >= backwardEnd;
    p.allocated = std::max(backwardStart, backwardEnd);
    p.gradientsAtPeak = p.activationMoment
                            ? liveGradients
                            : (m.optimizerInBackward ? m.largestGradient : m.gradients);
    p.activationsAtPeak = p.activationMoment ? m.activations : 0.0;
    const double changing = m.activations + m.transient;
    p.reserved = p.allocated + kTransientFragmentation * changing +
                 (m.shardedParameters ? m.gatheredLayer : 0.0);
    return p;
}

} // namespace ts
