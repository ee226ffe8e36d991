#include "topology/RouteFinder.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <tuple>

namespace ts {

namespace {
// Route cost: scale-up links on a route that also crosses the network weigh more than any
// network path (forward only when the network alone cannot connect).
constexpr long long kScaleUpWeight = 1LL << 20;
constexpr long long kUnseen = std::numeric_limits<long long>::max();
} // namespace

RouteFinder::RouteFinder(const Topology& topology)
    : t_(topology), key_(topology.nodes.size(), kUnseen), rate_(topology.nodes.size(), 0),
      latency_(topology.nodes.size(), 0), pred_(topology.nodes.size(), -1) {}

RouteInfo RouteFinder::route(int srcRank, int dstRank, std::vector<int>* links) {
    const bool sameDomain = t_.scaleUpDomains[srcRank] == t_.scaleUpDomains[dstRank];
    return route(srcRank, dstRank, sameDomain, links);
}

RouteInfo RouteFinder::route(int srcRank, int dstRank, bool scaleUpOnly, std::vector<int>* links) {
    RouteInfo info;
    const int src = t_.gpuNodes[srcRank], dst = t_.gpuNodes[dstRank];
    if (links)
        links->clear();
    if (src == dst) {
        info.reachable = true;
        info.gbPerS = std::numeric_limits<double>::infinity();
        return info;
    }
    for (int v : touched_) {
        key_[v] = kUnseen;
        pred_[v] = -1;
    }
    touched_.clear();
    // (key, -rate, latency, node): smallest key, then widest, then quickest.
    using Item = std::tuple<long long, double, double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    key_[src] = 0;
    rate_[src] = std::numeric_limits<double>::infinity();
    latency_[src] = 0;
    touched_.push_back(src);
    queue.emplace(0, -rate_[src], 0.0, src);
    while (!queue.empty()) {
        const auto [key, negRate, lat, u] = queue.top();
        queue.pop();
        if (key != key_[u] || -negRate != rate_[u] || lat != latency_[u])
            continue; // stale
        if (u == dst)
            break;
        const TopoNode& nu = t_.nodes[u];
        const bool uSwitch = nu.kind == NodeKind::Switch || nu.kind == NodeKind::Router;
        for (int e = t_.adjStart[u]; e < t_.adjStart[u + 1]; ++e) {
            const int li = t_.adjLinks[e];
            const TopoLink& l = t_.links[li];
            if (scaleUpOnly && l.kind != LinkKind::ScaleUp)
                continue;
            const int v = t_.other(li, u);
            const TopoNode& nv = t_.nodes[v];
            const long long k = key + (l.kind == LinkKind::ScaleUp ? kScaleUpWeight : 1);
            double r = std::min(rate_[u], l.gbPerS);
            if (uSwitch && nv.tier > nu.tier &&
                (nv.kind == NodeKind::Switch || nv.kind == NodeKind::Router))
                r = std::min(rate_[u] * t_.upRatio[u], l.gbPerS);
            const double lt = lat + l.latencyUs;
            if (k < key_[v] ||
                (k == key_[v] && (r > rate_[v] || (r == rate_[v] && lt < latency_[v])))) {
                if (key_[v] == kUnseen)
                    touched_.push_back(v);
                key_[v] = k;
                rate_[v] = r;
                latency_[v] = lt;
                pred_[v] = li;
                queue.emplace(k, -r, lt, v);
            }
        }
    }
    if (key_[dst] == kUnseen)
        return info;
    info.reachable = true;
    info.gbPerS = rate_[dst];
    info.latencyUs = latency_[dst];
    info.scaleUpGBps = std::numeric_limits<double>::infinity();
    for (int v = dst; v != src;) {
        const int li = pred_[v];
        const TopoLink& l = t_.links[li];
        ++info.hops;
        if (l.kind == LinkKind::ScaleUp) {
            ++info.scaleUpLinks;
            info.scaleUpGBps = std::min(info.scaleUpGBps, l.gbPerS);
        } else if (l.kind == LinkKind::ScaleOut || l.kind == LinkKind::Wan) {
            ++info.networkLinks;
            info.crossesWan = info.crossesWan || l.kind == LinkKind::Wan;
        }
        if (links)
            links->push_back(li);
        v = t_.other(li, v);
    }
    if (info.scaleUpLinks == 0)
        info.scaleUpGBps = 0;
    return info;
}

} // namespace ts
