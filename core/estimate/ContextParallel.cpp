#include "estimate/ContextParallel.h"

#include <algorithm>

namespace ts {

namespace {

ContextParallelAttention plainAttention(const HardwareProfile& hw, const AttentionShape& local) {
    ContextParallelAttention r;
    r.forwardSeconds = attentionForwardSeconds(hw, local);
    r.backwardSeconds = attentionBackwardSeconds(hw, local);
    return r;
}

// One rank's share of the causal score matrix under the 2 cp-chunk load balancing: cp blocks
// of (s/cp) x (s/cp), each about one causal block's work (see the header).
AttentionShape causalBlock(const AttentionShape& local, int cp) {
    AttentionShape block = local;
    block.seqLen = std::max<std::int64_t>(1, local.seqLen / cp);
    return block;
}

// Adds `c` to `into` as fully exposed communication.
void addExposed(CollectiveTime& into, const CollectiveTime& c) {
    into.seconds += c.seconds;
    into.scaleUpBytes += c.scaleUpBytes;
    into.scaleOutBytes += c.scaleOutBytes;
}

} // namespace

ContextParallelAttention ringAttention(const HardwareProfile& hw, const CollectiveCost& collectives,
                                       const AttentionShape& local, int cp,
                                       const GroupPlacement& cpGroup, double kvBytesPerToken) {
    if (cp <= 1)
        return plainAttention(hw, local);
    ContextParallelAttention r;
    // One step: an (s/cp) x (s/cp) block, causal-sized (see the header).
    const AttentionShape block = causalBlock(local, cp);
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

ContextParallelAttention kvAllGatherAttention(const HardwareProfile& hw,
                                              const CollectiveCost& collectives,
                                              const AttentionShape& local, int cp,
                                              const GroupPlacement& cpGroup,
                                              double kvBytesPerToken) {
    if (cp <= 1)
        return plainAttention(hw, local);
    ContextParallelAttention r;
    // The same causal share as the ring: Llama 3 sec. 3.3.2 keeps the 2 cp-chunk balancing.
    const AttentionShape block = causalBlock(local, cp);
    r.forwardSeconds = cp * attentionForwardSeconds(hw, block);
    r.backwardSeconds = cp * attentionBackwardSeconds(hw, block);
    // The gathered K, V of the whole sequence: cp local blocks (nccl-tests: the output).
    const double kvSequence = kvBytesPerToken * double(block.seqLen) * cp;
    const CollectiveTime gather = collectives.cost(Collective::AllGather, kvSequence, cpGroup);
    const CollectiveTime scatter = collectives.cost(Collective::ReduceScatter, kvSequence, cpGroup);
    addExposed(r.forwardComm, gather);
    // TransformerEngine's AttnFuncWithCPAndKVAllGather.backward gathers K, V again (it saved
    // only the local ones) and reduce-scatters the full-sequence dK, dV.
    addExposed(r.backwardComm, gather);
    addExposed(r.backwardComm, scatter);
    return r;
}

ContextParallelAttention ulyssesAttention(const HardwareProfile& hw,
                                          const CollectiveCost& collectives,
                                          const AttentionShape& local, int cp,
                                          const GroupPlacement& cpGroup,
                                          const AttentionTokenBytes& tokenBytes) {
    if (cp <= 1)
        return plainAttention(hw, local);
    ContextParallelAttention r;
    // The full sequence with 1/cp of the rank's heads.
    AttentionShape heads = local;
    heads.batchHeads = local.batchHeads / cp;
    r.forwardSeconds = attentionForwardSeconds(hw, heads);
    r.backwardSeconds = attentionBackwardSeconds(hw, heads);
    // Each all-to-all moves the local [s/cp, b, width] share (Jacobs et al. 2023 sec. 3.1).
    const double localTokens = double(std::max<std::int64_t>(1, local.seqLen / cp));
    const double kvReplication =
        tokenBytes.kvHeads > 0 ? std::max(1.0, double(cp) / tokenBytes.kvHeads) : 1.0;
    const CollectiveTime q = ulyssesAllToAll(collectives, tokenBytes.q * localTokens, cp, cpGroup);
    const CollectiveTime kv = ulyssesAllToAll(
        collectives, 0.5 * tokenBytes.kv * kvReplication * localTokens, cp, cpGroup);
    const CollectiveTime out =
        ulyssesAllToAll(collectives, tokenBytes.out * localTokens, cp, cpGroup);
    // Forward: Q, K, V in, the output back. Backward (TransformerEngine
    // AttnFuncWithCPAndQKVOA2A): the output gradient in, dQ, dK, dV back.
    for (CollectiveTime* pass : {&r.forwardComm, &r.backwardComm}) {
        addExposed(*pass, q);
        addExposed(*pass, kv);
        addExposed(*pass, kv);
        addExposed(*pass, out);
    }
    return r;
}

CollectiveTime ulyssesAllToAll(const CollectiveCost& collectives, double qkvoBytesPerRank, int cp,
                               const GroupPlacement& cpGroup) {
    if (cp <= 1)
        return {};
    return collectives.cost(Collective::AllToAll, qkvoBytesPerRank, cpGroup);
}

ContextParallelAttention contextParallelAttention(const HardwareProfile& hw,
                                                  const CollectiveCost& collectives,
                                                  CpCommType comm, const AttentionShape& local,
                                                  int cp, const GroupPlacement& cpGroup,
                                                  const AttentionTokenBytes& tokenBytes) {
    switch (comm) {
    case CpCommType::AllGather:
        return kvAllGatherAttention(hw, collectives, local, cp, cpGroup, tokenBytes.kv);
    case CpCommType::A2A:
        return ulyssesAttention(hw, collectives, local, cp, cpGroup, tokenBytes);
    case CpCommType::P2P:
        break;
    }
    return ringAttention(hw, collectives, local, cp, cpGroup, tokenBytes.kv);
}

} // namespace ts
