#pragma once
// Canvas positions of a cluster graph: pods side by side, in each pod its scale-up domains
// in a grid (scalable units as blocks of 8 x 4; in a domain GPUs in a row, NICs above them,
// the scale-up switch below), network switches in rows above by tier, spread over the pod's
// width, WAN routers on top. Only nodes without
// a position ("x"/"y") are placed, so a user's arrangement survives.

#include "scenario/ClusterGraph.h"
#include "topology/Topology.h"

#include <vector>

namespace ts {

namespace layout {
inline constexpr double kGpuPitch = 40;   // between GPUs of one domain
inline constexpr double kDomainGap = 40;  // between domains
inline constexpr double kPodGap = 400;    // between pods
inline constexpr double kNicRow = -70;    // NICs above their GPUs
inline constexpr double kScaleUpRow = 70; // NVSwitch below its GPUs
inline constexpr double kTierPitch = 260; // between switch tiers, at least
inline constexpr double kRowPitch = 220;  // between rows of domains
inline constexpr double kUnitGap = 160;   // between scalable units
} // namespace layout

// Per node: the scale-up domain it belongs to (GPUs, the NICs serving them, their scale-up
// switches), or -1 (network switches, routers).
std::vector<int> nodeDomains(const Topology& topology);

// `topology` is the graph's (topologyOfGraph): node i of one is node i of the other.
void layoutGraph(ClusterGraph& graph, const Topology& topology);

} // namespace ts
