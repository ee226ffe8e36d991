#pragma once
// Routes between two GPUs on the cluster graph and what a flow gets on them.
//
// A route is a shortest path that avoids forwarding over the scale-up domain when the
// network alone connects the two GPUs (rail-optimized, fat-tree), and forwards when it
// cannot (rail-only across rails: NVLink to the GPU on the destination's rail first, as
// NCCL's PXN does; Wang et al. arXiv 2307.12169 sec. 3). Among equal routes it takes the
// widest. A flow's rate assumes every endpoint sends at once, as in a collective of all
// groups of one shape: climbing a switch scales the rate by min(1, uplink/downlink capacity)
// of that switch (4:1 oversubscription: a quarter), on top of every link's own capacity.

#include "topology/Topology.h"

#include <vector>

namespace ts {

struct RouteInfo {
    bool reachable = false;
    double gbPerS = 0;    // per-flow rate, per direction
    double latencyUs = 0; // sum of the links' own latencies
    int hops = 0;
    int scaleUpLinks = 0; // forwarding over the scale-up domain when networkLinks > 0
    int networkLinks = 0; // scale-out and WAN links
    bool crossesWan = false;
    double scaleUpGBps = 0; // narrowest scale-up link on the route (0 when none)
    bool forwarded() const { return scaleUpLinks > 0 && networkLinks > 0; }
};

// Not thread-safe (it reuses its work arrays); TopologyModel guards it.
class RouteFinder {
public:
    explicit RouteFinder(const Topology& topology);
    // `links`, when given, receives the route's link indices. Two GPUs of one scale-up
    // domain talk over it (scaleUpOnly); others over the network, forwarding when needed.
    RouteInfo route(int srcRank, int dstRank, std::vector<int>* links = nullptr);
    RouteInfo route(int srcRank, int dstRank, bool scaleUpOnly, std::vector<int>* links);

private:
    const Topology& t_;
    std::vector<long long> key_;
    std::vector<double> rate_, latency_;
    std::vector<int> pred_;
    std::vector<int> touched_;
};

} // namespace ts
