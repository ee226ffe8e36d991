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

// Bytes of one activation element between kernels: FP32 training 4, else 16-bit.
double activationBytes(const ResolvedScenario& sc);

// Bytes one rank sends in one dispatch (or combine) all-to-all per micro-batch in the
// activations' precision under a deduplicating dispatcher (deepep / hybridep), one copy per
// distinct destination rank, its own share included (nccl-tests convention), with the busiest
// rank's load. The alltoall and allgather dispatchers send more (estimate/RoutedExperts.h).
double expertDispatchBytes(const ResolvedScenario& sc, double imbalance);

// Where one token's dispatch goes, under uniform routing (model/MoeArithmetic.h): the EP
// group's ranks sit `membersPerDomain` (k) to a scale-up domain over `domains` domains.
//
// Token-deduplicating dispatchers send a token once to each destination, not once per
// expert. Across domains they go in two hops (DeepEP's internode "normal" kernels,
// github.com/deepseek-ai/DeepEP README: kernels for "asymmetric-domain bandwidth
// forwarding", aligned with DeepSeek-V3's group-limited gating; DeepSeek-V3 sec. 3.2.2: a
// token crosses IB to the GPU with the same in-node index on each target node, which
// forwards it over NVLink): over the network once per distinct destination domain, to the
// GPU of the same local index (the same rail), then over the scale-up links to each
// distinct rank there that holds one of its experts. Group-limited routing bounds the
// domains (DeepSeek-V3: at most 4 of 8 nodes); without it a token reaches up to
// min(top_k, domains).
struct ExpertDispatchShape {
    int membersPerDomain = 1;   // k
    int domains = 1;            // ceil(ep / k)
    double ranksPerToken = 0;   // expected distinct destination ranks, its own among them
    double domainsPerToken = 0; // expected distinct destination domains, its own among them
};
ExpertDispatchShape expertDispatchShape(const ResolvedScenario& sc, int membersPerDomain);

// One expert all-to-all per rank and micro-batch, split into the two hops: `scaleOut` the
// all-to-all among one EP rank per domain (the same rail) with a buffer of one copy per
// distinct destination domain, `scaleUp` the all-to-all inside the domain with one copy per
// distinct destination rank (forwarding, and the token's own domain). The hops pipeline
// (DeepEP forwards while RDMA is in flight): the time is the slower one's. Inside one domain
// only the scale-up part exists, as before.
struct ExpertAllToAll {
    CollectiveTime scaleOut;
    CollectiveTime scaleUp;
    CollectiveTime total; // seconds: max of the two; bytes: their sum
};
// `elementBytes`: bytes per hidden element on the wire (2 BF16, 4 FP32; FP8 dispatch
// 1 + 4/128, kFp8DispatchElementBytes).
ExpertAllToAll expertAllToAll(const CollectiveCost& collectives, const ResolvedScenario& sc,
                              double imbalance, double elementBytes);

// FP8 dispatch (DeepSeek-V3 sec. 3.3.2, DeepEP): 1 byte per element plus one FP32 scale per
// 1x128 block. MXFP8 (one E8M0 byte per 32 elements) costs the same 1 + 1/32.
inline constexpr double kFp8DispatchElementBytes = 1.0 + 4.0 / 128.0;

} // namespace ts

namespace ts {

// wa x a + wb x b, field by field (the mean layer of a chunk holding both kinds).
LayerCost blendLayerCosts(const LayerCost& a, double wa, const LayerCost& b, double wb);

} // namespace ts
