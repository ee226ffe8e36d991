#include "estimate/ContextParallel.h"

#include <algorithm>

namespace ts {

ContextParallelAttention ringAttention(const HardwareProfile& hw, const CollectiveCost& collectives,
                                       const AttentionShape& local, int cp,
                                       const GroupPlacement& cpGroup, double kvBytesPerToken) {
    ContextParallelAttention r;
    if (cp <= 1) {
        r.forwardSeconds = attentionForwardSeconds(hw, local);
        r.backwardSeconds = attentionBackwardSeconds(hw, local);
        return r;
    }
    // One step: an (s/cp) x (s/cp) block, causal-sized (see the header).
    AttentionShape block = local;
    block.seqLen = std::max<std::int64_t>(1, local.seqLen / cp);
    block.causal = local.causal;
    const double blockF = attentionForwardSeconds(hw, block);
    const double blockB = attentionBackwardSeconds(hw, block);
    const double steps = cp;
    r.forwardSeconds = steps * blockF;
    r.backwardSeconds = steps * blockB;
    // cp - 1 transfers of the local K, V block forward; the backward sends K, V and their
    // gradients (TransformerEngine: dkv circulates with kv).
    const double kvBytes = kvBytesPerToken * double(block.seqLen);
    const CollectiveTime f = collectives.cost(Collective::SendRecv, kvBytes, cpGroup);
    const CollectiveTime b = collectives.cost(Collective::SendRecv, 2.0 * kvBytes, cpGroup);
    const double transfers = steps - 1.0;
    r.forwardComm.seconds = transfers * std::max(0.0, f.seconds - blockF);
    r.forwardComm.scaleUpBytes = transfers * f.scaleUpBytes;
    r.forwardComm.scaleOutBytes = transfers * f.scaleOutBytes;
    r.backwardComm.seconds = transfers * std::max(0.0, b.seconds - blockB);
    r.backwardComm.scaleUpBytes = transfers * b.scaleUpBytes;
    r.backwardComm.scaleOutBytes = transfers * b.scaleOutBytes;
    return r;
}

CollectiveTime ulyssesAllToAll(const CollectiveCost& collectives, double qkvoBytesPerRank, int cp,
                               const GroupPlacement& cpGroup) {
    if (cp <= 1)
        return {};
    return collectives.cost(Collective::AllToAll, qkvoBytesPerRank, cpGroup);
}

} // namespace ts
