#pragma once
// Time of one layer of a mixture-of-experts and/or MLA model for one micro-batch on one GPU
// (the dense path is estimate/LayerCost.h). See model/MoeArithmetic.h for the shapes.
//
// Routed experts under expert parallelism (Megatron-Core MoE; DeepSeek-V3 arXiv 2412.19437
// sec. 3.2): each rank routes its tokens to top_k experts; the dispatch all-to-all over the
// ep group sends every routed token's hidden vector to the rank holding its expert, the
// combine all-to-all brings the expert outputs back; the backward runs both again for the
// gradients (4 all-to-alls per MoE layer and micro-batch). With expert tensor parallelism
// (etp) each expert's MLP is split etp ways and a rank computes tokens x top_k x etp / tp
// routed tokens (etp = tp: all the TP group's tokens on 1/etp of the expert; etp = 1: its own
// 1/tp share of the tokens on whole experts). Tokens are not spread evenly: the busiest rank
// receives `imbalance` times the mean, and every rank waits for it.
//
// Capacity factor (Shazeer et al. 2017; Fedus et al. 2021 sec. 2.2): with a capacity factor
// c each expert processes at most c x tokens x top_k / experts tokens (the rest are dropped),
// so the busiest rank's load is min(imbalance, c); dropless routing (capacity null) computes
// every token.

#include "estimate/LayerCost.h"

namespace ts {

// Expert load imbalance (busiest EP rank / mean) assumed when the scenario does not give
// one: 1.1, the max-over-mean load of auxiliary-loss-free balancing in DeepSeek-V3 training
// as reported by the DeepSeek-V3 report (sec. 2.1.2, Fig. 9 shows expert loads within ~10%
// of uniform per domain).
inline constexpr double kDefaultExpertImbalance = 1.1;

// `moeLayer`: a MoE layer (routed + shared experts) or a dense-MLP layer of the same model.
LayerCost sparseLayerCost(const CostContext& ctx, bool moeLayer, double imbalance);

// Bytes one rank sends in one dispatch (or combine) all-to-all per micro-batch, its own
// share included (nccl-tests convention), with the busiest rank's load.
double expertDispatchBytes(const ResolvedScenario& sc, double imbalance);

} // namespace ts

namespace ts {

// wa x a + wb x b, field by field (the mean layer of a chunk holding both kinds).
LayerCost blendLayerCosts(const LayerCost& a, double wa, const LayerCost& b, double wb);

} // namespace ts
