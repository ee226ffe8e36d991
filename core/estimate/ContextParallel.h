#pragma once
// Context parallelism: the sequence of every micro-batch is split over `cp` ranks and the
// attention core exchanges keys and values between them.
//
// Ring attention (Liu et al. 2023, "Ring Attention with Blockwise Transformers", arXiv
// 2310.01889; Megatron-Core context parallelism docs, TransformerEngine
// AttnFuncWithCPAndKVP2P): each rank holds s/cp tokens, cut into 2 cp chunks and placed so
// that rank r holds chunks r and 2cp-1-r (causal load balancing: every rank computes the same
// share of the causal score matrix). The attention runs in cp steps; in each step a rank
// computes one (s/cp) x (s/cp) block (the diagonal step causal, the others half a block by the
// load balancing, so every step costs about one causal block) while it sends its current K, V
// block to the next rank and receives the previous rank's. The backward also circulates the
// K, V gradients. The transfer of a step is hidden behind that step's block computation; what
// is longer than the block stays exposed.
//
// The all-to-all variant (Jacobs et al. 2023, DeepSpeed-Ulysses, arXiv 2309.14509) is not
// selectable in the scenario format yet; see ulyssesAllToAll below for its cost.

#include "hardware/KernelTime.h"
#include "parallel/CollectiveCost.h"

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

// DeepSpeed-Ulysses: four all-to-alls per layer forward (Q, K, V in, output back) over the cp
// group, each of the local [s/cp, b, width] tensor; the attention then runs on full sequences
// over heads/cp (not overlapped).
CollectiveTime ulyssesAllToAll(const CollectiveCost& collectives, double qkvoBytesPerRank, int cp,
                               const GroupPlacement& cpGroup);

} // namespace ts
