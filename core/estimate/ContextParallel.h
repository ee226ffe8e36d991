#pragma once
// Context parallelism: the sequence of every micro-batch is split over `cp` ranks and the
// attention core exchanges keys and values (or heads) between them. Three variants, as
// Megatron-LM's --cp-comm-type p2p | allgather | a2a (TransformerEngine's
// AttnFuncWithCPAndKVP2P, AttnFuncWithCPAndKVAllGather, AttnFuncWithCPAndQKVOA2A):
//
// p2p, ring attention (Liu et al. 2023, "Ring Attention with Blockwise Transformers", arXiv
// 2310.01889; Megatron-Core context parallelism docs): each rank holds s/cp tokens, cut into
// 2 cp chunks and placed so that rank r holds chunks r and 2cp-1-r (causal load balancing:
// every rank computes the same share of the causal score matrix). The attention runs in cp
// steps; in each step a rank computes one (s/cp) x (s/cp) block (the diagonal step causal,
// the others half a block by the load balancing, so every step costs about one causal block)
// while it sends its current K, V block to the next rank and receives the previous rank's.
// The backward also circulates the K, V gradients. The transfer of a step is hidden behind
// that step's block computation; what is longer than the block stays exposed.
//
// allgather (Llama 3 paper, Dubey et al. 2024, arXiv 2407.21783 sec. 3.3.2): the K and V of
// the whole sequence are all-gathered before the attention (small under GQA), and the local
// queries (the same 2 cp load-balanced chunks) attend to them; the backward gathers K and V
// again (TransformerEngine keeps only the local K, V) and reduce-scatters dK, dV. The
// all-gather feeds the attention that follows, so it cannot hide behind it: exposed.
//
// a2a, DeepSpeed-Ulysses (Jacobs et al. 2023, arXiv 2309.14509): all-to-alls of Q, K and V
// before the attention turn "s/cp tokens, all heads" into "all tokens, heads/cp", and one of
// the output after it turns it back; the backward runs the same four on the gradients. The
// attention then runs on the full sequence with 1/cp of the heads: no causal imbalance to
// balance. The all-to-alls sit between dependent kernels: exposed.

#include "hardware/KernelTime.h"
#include "parallel/CollectiveCost.h"
#include "scenario/Enums.h"

namespace ts {

struct ContextParallelAttention {
    double forwardSeconds = 0; // attention core compute of one layer and micro-batch
    double backwardSeconds = 0;
    CollectiveTime forwardComm; // seconds = exposed after overlap; bytes = all sent per GPU
    CollectiveTime backwardComm;
};

// `local` is the attention shape of one rank without context parallelism (its TP share of
// the heads, the full sequence); `kvBytesPerToken` is what one sequence position's K and V
// take on one rank (micro-batch x 2 x kv width / tp x bytes per element).
ContextParallelAttention ringAttention(const HardwareProfile& hw, const CollectiveCost& collectives,
                                       const AttentionShape& local, int cp,
                                       const GroupPlacement& cpGroup, double kvBytesPerToken);

// The all-gather variant: one all-gather of the sequence's K, V forward; backward one more
// and a reduce-scatter of dK, dV (nccl-tests sizes: the full sequence). Compute as the ring.
ContextParallelAttention kvAllGatherAttention(const HardwareProfile& hw,
                                              const CollectiveCost& collectives,
                                              const AttentionShape& local, int cp,
                                              const GroupPlacement& cpGroup,
                                              double kvBytesPerToken);

// What one sequence position of one rank's attention inputs and output take in bytes
// (micro-batch x width / tp x bytes per element): K, V for the ring and the all-gather, all
// four for the Ulysses all-to-alls.
struct AttentionTokenBytes {
    double q = 0;
    double kv = 0; // K and V together
    double out = 0;
    // K/V heads on one rank before the all-to-all (GQA: fewer than the query heads). Fewer
    // than cp are replicated to cp heads first, so that every rank receives one (DeepSpeed
    // Ulysses' GQA support; Megatron-Core checks kv_heads against tp*cp). 0: as many as Q.
    double kvHeads = 0;
};
ContextParallelAttention ulyssesAttention(const HardwareProfile& hw,
                                          const CollectiveCost& collectives,
                                          const AttentionShape& local, int cp,
                                          const GroupPlacement& cpGroup,
                                          const AttentionTokenBytes& tokenBytes);

// DeepSpeed-Ulysses: one all-to-all over the cp group of `qkvoBytesPerRank`, a local
// [s/cp, b, width] tensor (nccl-tests all-to-all size: the per-rank send buffer).
CollectiveTime ulyssesAllToAll(const CollectiveCost& collectives, double qkvoBytesPerRank, int cp,
                               const GroupPlacement& cpGroup);

// The variant `comm` (cp = 1: the plain attention kernel, no communication).
ContextParallelAttention contextParallelAttention(const HardwareProfile& hw,
                                                  const CollectiveCost& collectives,
                                                  CpCommType comm, const AttentionShape& local,
                                                  int cp, const GroupPlacement& cpGroup,
                                                  const AttentionTokenBytes& tokenBytes);

} // namespace ts
