#include "topology/TopologyModel.h"

#include "topology/RouteFinder.h"
#include "topology/TopologyBuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace ts {

namespace {

// Routes examined per group shape. Builders make symmetric networks in which an edge's rate
// depends only on the highest tier it climbs; evenly spread samples plus the ring's closing
// edge (which climbs highest) find the narrowest edge.
constexpr int kRouteSamples = 24;

std::vector<int> sampleIndices(int count, int samples) {
    std::set<int> picked;
    if (count <= samples) {
        for (int i = 0; i < count; ++i)
            picked.insert(i);
    } else {
        for (int s = 0; s < samples; ++s)
            picked.insert(static_cast<int>((static_cast<long long>(s) * count) / samples));
        picked.insert(count - 1);
    }
    return {picked.begin(), picked.end()};
}

// The parts of a cluster its graph depends on, compared by value.
struct CacheEntry {
    std::int64_t numGpus = 0;
    int gpusPerNode = 0;
    ScaleUpConfig scaleUp;
    ScaleOutConfig scaleOut;
    SharedClusterGraph graph; // keeps the graph alive, so its address is not reused
    std::shared_ptr<const TopologyModel> model;
    Diagnostics diagnostics; // why it could not be built, or its warnings
    bool matches(const ClusterConfig& c) const {
        return numGpus == c.numGpus && gpusPerNode == c.gpusPerNode && scaleUp == c.scaleUp &&
               scaleOut == c.scaleOut && graph == c.graph;
    }
};

constexpr std::size_t kCachedClusters = 16;

} // namespace

TopologyModel::TopologyModel(Topology topology, const ClusterConfig& cluster)
    : topology_(std::move(topology)), scaleUpLatencyUs_(cluster.scaleUp.latencyUs),
      scaleOutLatencyUs_(cluster.scaleOut.latencyUs),
      routes_(std::make_unique<RouteFinder>(topology_)) {}

TopologyModel::~TopologyModel() = default;

std::shared_ptr<const TopologyModel> TopologyModel::forCluster(const ClusterConfig& cluster,
                                                               Diagnostics* diags) {
    static std::mutex mutex;
    static std::vector<CacheEntry> cache; // most recent last
    std::lock_guard lock(mutex);
    for (auto it = cache.begin(); it != cache.end(); ++it)
        if (it->matches(cluster)) {
            if (diags)
                diags->append(it->diagnostics);
            auto model = it->model;
            if (it + 1 != cache.end())
                std::rotate(it, it + 1, cache.end());
            return model;
        }
    Diagnostics d;
    std::shared_ptr<const TopologyModel> model;
    if (auto topology = buildTopology(cluster, d))
        if (validateTopology(*topology, cluster.graph ? "/cluster/graph" : "/cluster/scale_out", d))
            model = std::make_shared<const TopologyModel>(std::move(*topology), cluster);
    std::erase_if(cache, [&](const CacheEntry& e) { return e.matches(cluster); });
    if (cache.size() >= kCachedClusters)
        cache.erase(cache.begin());
    if (diags)
        diags->append(d);
    cache.push_back({cluster.numGpus, cluster.gpusPerNode, cluster.scaleUp, cluster.scaleOut,
                     cluster.graph, model, d});
    return model;
}

GroupProfile TopologyModel::profile(const GroupPlacement& group) const {
    std::lock_guard lock(mutex_);
    const auto key = std::make_pair(group.size, group.stride);
    auto it = profiles_.find(key);
    if (it != profiles_.end())
        return it->second;
    return profiles_.emplace(key, computeProfile(group)).first->second;
}

std::vector<int> TopologyModel::routeLinks(int srcRank, int dstRank) const {
    std::lock_guard lock(mutex_);
    std::vector<int> links;
    routes_->route(srcRank, dstRank, &links);
    return links;
}

GroupProfile TopologyModel::computeProfile(const GroupPlacement& g) const {
    const Topology& t = topology_;
    const long long gpus = static_cast<long long>(t.gpuNodes.size());
    GroupProfile p;
    const int n = static_cast<int>(
        std::clamp<long long>(g.size, 1, g.stride > 0 ? (gpus - 1) / g.stride + 1 : 1));
    p.size = n;
    const auto rank = [&](int i) { return static_cast<int>(static_cast<long long>(i) * g.stride); };
    const int d0 = t.scaleUpDomains[0];
    int k = 0;
    for (int i = 0; i < n && t.scaleUpDomains[rank(i)] == d0; ++i)
        ++k;
    p.membersPerDomain = std::max(1, k);
    const double inf = std::numeric_limits<double>::infinity();
    const auto nicShare = [&](int i) { return t.nicsPerGpu[rank(i)]; };

    // Inside the domain: ring edges between neighbouring members.
    p.scaleUpGBps = inf;
    for (int i : sampleIndices(std::max(0, k - 1), kRouteSamples)) {
        const RouteInfo r = routes_->route(rank(i), rank(i + 1));
        p.scaleUpGBps = std::min(p.scaleUpGBps, r.reachable ? r.gbPerS : 0.0);
    }
    // The GPU's own scale-up link, for forwarding.
    const int gpu0 = t.gpuNodes[0];
    for (int e = t.adjStart[gpu0]; e < t.adjStart[gpu0 + 1]; ++e) {
        const TopoLink& l = t.links[t.adjLinks[e]];
        if (l.kind == LinkKind::ScaleUp)
            p.gpuScaleUpGBps = std::max(p.gpuScaleUpGBps, l.gbPerS);
    }
    if (p.scaleUpGBps == inf)
        p.scaleUpGBps = p.gpuScaleUpGBps;

    if (n > k) {
        // Hierarchical ring: member i to member i + k, the same position in the next domain.
        p.networkGBpsPerGpu = inf;
        for (int i : sampleIndices(n, kRouteSamples)) {
            const int j = (i + k) % n;
            const RouteInfo r = routes_->route(rank(i), rank(j));
            if (!r.reachable) {
                p.reachable = false;
                continue;
            }
            p.networkGBpsPerGpu = std::min(p.networkGBpsPerGpu, r.gbPerS * nicShare(i));
            p.networkLatencyUs = std::max(p.networkLatencyUs, r.latencyUs);
            p.ringForwarded = p.ringForwarded || r.forwarded();
            p.crossesWan = p.crossesWan || r.crossesWan;
        }
        // All-to-all: rank 0 to the members outside its domain.
        std::vector<int> outside;
        for (int i = k; i < n; ++i)
            outside.push_back(i);
        p.allToAllGBpsPerGpu = inf;
        int forwarded = 0, routed = 0;
        for (int idx : sampleIndices(static_cast<int>(outside.size()), kRouteSamples)) {
            const RouteInfo r = routes_->route(0, rank(outside[idx]));
            if (!r.reachable)
                continue;
            ++routed;
            forwarded += r.forwarded();
            p.allToAllGBpsPerGpu = std::min(p.allToAllGBpsPerGpu, r.gbPerS * nicShare(0));
        }
        p.allToAllForwardedShare = routed ? double(forwarded) / routed : 0.0;
        if (p.networkGBpsPerGpu == inf)
            p.networkGBpsPerGpu = 0;
        if (p.allToAllGBpsPerGpu == inf)
            p.allToAllGBpsPerGpu = 0;
    }
    if (n > 1) {
        // Point to point: the slowest neighbouring pair, at a domain boundary when the group
        // spans domains (a pipeline runs at the pace of its slowest edge).
        const int from = n > k ? k - 1 : 0;
        const RouteInfo r = routes_->route(rank(from), rank(from + 1));
        p.reachable = p.reachable && r.reachable;
        p.sendRecvCrossesNetwork = r.networkLinks > 0;
        p.sendRecvGBps = r.gbPerS * (p.sendRecvCrossesNetwork ? nicShare(from) : 1.0);
        p.sendRecvForwarded = r.forwarded();
        p.sendRecvLatencyUs = r.latencyUs;
    }
    return p;
}

} // namespace ts
