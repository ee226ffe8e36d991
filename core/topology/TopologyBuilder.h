#pragma once
// Builders of the cluster graph from a resolved cluster:
//  - scale-up domains of domain_gpus GPUs around one logical NVSwitch fabric (8, 72, ...);
//  - rail-optimized fat-tree (leaves hold the same-rail NICs of several domains), plain
//    fat-tree (leaves hold whole nodes), each with 1-3 tiers of `switch_radix` ports and the
//    leaf's downlink:uplink ratio = oversubscription;
//  - rail-only (Wang et al., arXiv 2307.12169): one non-blocking Clos per rail and no spine
//    between rails; cross-rail traffic is forwarded over the scale-up domain;
//  - 2D/3D torus of scale-up domains, NICs split over the +/- directions;
//  - multi-datacenter: `pods` copies of the above joined by WAN routers.
// or from an explicit `cluster.graph`. Errors name the scenario key that causes them.

#include "common/Diagnostics.h"
#include "scenario/ClusterConfig.h"
#include "topology/Topology.h"

#include <optional>

namespace ts {

// Clusters above this many GPUs are not built as a graph (memory).
inline constexpr std::int64_t kMaxGraphGpus = 1 << 20;
// Above this many GPUs the estimator keeps the two-level alpha-beta model rather than spend
// a second building the graph on the first estimate (with a warning saying so).
inline constexpr std::int64_t kMaxEstimateGraphGpus = 1 << 17;

// The graph of `cluster`: its cluster.graph when it has one, else the builder of its
// scale_out.topology. Finalized; not validated (validateTopology).
std::optional<Topology> buildTopology(const ClusterConfig& cluster, Diagnostics& diags);

// Switch tiers a Clos of `endpoints` NICs needs with `radix` ports and the leaf ratio
// `oversubscription` (1, 2 or 3), or 0 when three tiers do not suffice.
// Leaf ports facing the NICs: half the radix when non-blocking; with oversubscription o,
// o/(1+o) of the radix (4:1 on 64 ports: 51 down, 13 up).
int leafDownPorts(int radix, double oversubscription);
int closTiersNeeded(std::int64_t endpoints, int radix, double oversubscription);

} // namespace ts
