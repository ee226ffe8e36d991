#include "topology/Topology.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>

#include <algorithm>
#include <deque>
#include <numeric>

namespace ts {

namespace {

bool isFabric(NodeKind k) {
    return k == NodeKind::Nic || k == NodeKind::Switch || k == NodeKind::Router;
}

int findRoot(std::vector<int>& parent, int v) {
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

} // namespace

std::string Topology::nodeName(int node) const {
    if (static_cast<std::size_t>(node) < names.size() && !names[node].empty())
        return names[node];
    const TopoNode& n = nodes[node];
    std::string kind;
    switch (n.kind) {
    case NodeKind::Gpu:
        kind = "gpu";
        break;
    case NodeKind::Nic:
        kind = "nic";
        break;
    case NodeKind::Switch:
        kind = n.tier == 1 ? "leaf" : n.tier == 2 ? "spine" : "core";
        break;
    case NodeKind::ScaleUpSwitch:
        kind = "nvswitch";
        break;
    case NodeKind::Router:
        kind = "wan-router";
        break;
    }
    return kind + std::to_string(node);
}

void Topology::finalize() {
    const std::size_t n = nodes.size();
    adjStart.assign(n + 1, 0);
    for (const TopoLink& l : links) {
        ++adjStart[l.a + 1];
        ++adjStart[l.b + 1];
    }
    std::partial_sum(adjStart.begin(), adjStart.end(), adjStart.begin());
    adjLinks.assign(adjStart.back(), 0);
    std::vector<int> fill(adjStart.begin(), adjStart.end() - 1);
    for (std::size_t i = 0; i < links.size(); ++i) {
        adjLinks[fill[links[i].a]++] = static_cast<int>(i);
        adjLinks[fill[links[i].b]++] = static_cast<int>(i);
    }

    // Network tiers not given by a builder: hop distance from the NICs.
    std::deque<int> queue;
    for (std::size_t v = 0; v < n; ++v) {
        if (nodes[v].kind == NodeKind::Nic) {
            nodes[v].tier = 0;
            queue.push_back(static_cast<int>(v));
        }
    }
    std::vector<int> dist(n, -1);
    for (int v : queue)
        dist[v] = 0;
    while (!queue.empty()) {
        const int v = queue.front();
        queue.pop_front();
        for (int e = adjStart[v]; e < adjStart[v + 1]; ++e) {
            const int w = other(adjLinks[e], v);
            if (dist[w] < 0 && isFabric(nodes[w].kind)) {
                dist[w] = dist[v] + 1;
                queue.push_back(w);
            }
        }
    }
    for (std::size_t v = 0; v < n; ++v)
        if ((nodes[v].kind == NodeKind::Switch || nodes[v].kind == NodeKind::Router) &&
            nodes[v].tier < 0)
            nodes[v].tier = dist[v];

    // Uplink ratio: the share of a switch's traffic from below that can leave upwards when
    // every endpoint below sends at once (oversubscription 4:1 -> 0.25).
    upRatio.assign(n, 1.0f);
    for (std::size_t v = 0; v < n; ++v) {
        if (nodes[v].kind != NodeKind::Switch && nodes[v].kind != NodeKind::Router)
            continue;
        double up = 0, down = 0;
        for (int e = adjStart[v]; e < adjStart[v + 1]; ++e) {
            const TopoLink& l = links[adjLinks[e]];
            const int w = other(adjLinks[e], static_cast<int>(v));
            if (!isFabric(nodes[w].kind))
                continue;
            if (nodes[w].tier > nodes[v].tier)
                up += l.gbPerS;
            else if (nodes[w].tier < nodes[v].tier)
                down += l.gbPerS;
        }
        if (down > 0 && up > 0)
            upRatio[v] = static_cast<float>(std::min(1.0, up / down));
    }

    // GPUs in rank order, their scale-up domains and NIC shares.
    std::vector<int> rankOf(n, -1);
    for (std::size_t r = 0; r < gpuNodes.size(); ++r)
        rankOf[gpuNodes[r]] = static_cast<int>(r);
    nicsPerGpu.assign(gpuNodes.size(), 0.0);
    for (std::size_t v = 0; v < n; ++v) {
        if (nodes[v].kind != NodeKind::Nic)
            continue;
        int gpus = 0;
        for (int e = adjStart[v]; e < adjStart[v + 1]; ++e)
            gpus += links[adjLinks[e]].kind == LinkKind::Host;
        for (int e = adjStart[v]; e < adjStart[v + 1]; ++e)
            if (links[adjLinks[e]].kind == LinkKind::Host) {
                const int r = rankOf[other(adjLinks[e], static_cast<int>(v))];
                if (r >= 0)
                    nicsPerGpu[r] += 1.0 / gpus;
            }
    }
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    for (const TopoLink& l : links)
        if (l.kind == LinkKind::ScaleUp)
            parent[findRoot(parent, l.a)] = findRoot(parent, l.b);
    std::vector<int> domainOfRoot(n, -1);
    scaleUpDomains.assign(gpuNodes.size(), 0);
    int domains = 0;
    for (std::size_t r = 0; r < gpuNodes.size(); ++r) {
        const int root = findRoot(parent, gpuNodes[r]);
        if (domainOfRoot[root] < 0)
            domainOfRoot[root] = domains++;
        scaleUpDomains[r] = domainOfRoot[root];
        nodes[gpuNodes[r]].domain = scaleUpDomains[r];
    }
}

bool validateTopology(const Topology& t, const std::string& path, Diagnostics& diags) {
    const std::size_t before = diags.errorCount();
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Graph g(t.nodes.size());
    for (const TopoLink& l : t.links)
        boost::add_edge(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b), g);
    std::vector<int> component(t.nodes.size());
    boost::connected_components(g, component.data());

    const auto listed = [&](const std::vector<int>& ranks) {
        std::string text;
        for (std::size_t i = 0; i < ranks.size() && i < 5; ++i)
            text += (i ? ", " : "") + t.nodeName(t.gpuNodes[ranks[i]]) + " (rank " +
                    std::to_string(ranks[i]) + ")";
        if (ranks.size() > 5)
            text += " and " + std::to_string(ranks.size() - 5) + " more";
        return text;
    };
    if (!t.gpuNodes.empty()) {
        std::vector<int> unreachable;
        const int c0 = component[t.gpuNodes[0]];
        for (std::size_t r = 1; r < t.gpuNodes.size(); ++r)
            if (component[t.gpuNodes[r]] != c0)
                unreachable.push_back(static_cast<int>(r));
        if (!unreachable.empty())
            diags.error(path, std::to_string(unreachable.size()) +
                                  " GPUs cannot reach GPU rank 0 (" + t.nodeName(t.gpuNodes[0]) +
                                  "): " + listed(unreachable) +
                                  "; link them through a scale-up switch or a NIC and switches");
    }
    const bool multiDomain =
        !t.scaleUpDomains.empty() &&
        *std::max_element(t.scaleUpDomains.begin(), t.scaleUpDomains.end()) > 0;
    if (multiDomain) {
        std::vector<int> noNic;
        for (std::size_t r = 0; r < t.gpuNodes.size(); ++r)
            if (t.nicsPerGpu[r] <= 0)
                noNic.push_back(static_cast<int>(r));
        if (!noNic.empty() && noNic.size() < t.gpuNodes.size() && diags.errorCount() == before) {
            // Tolerated when the domain forwards (one NIC per domain); reported as a warning.
            diags.warning(path, std::to_string(noNic.size()) +
                                    " GPUs have no NIC of their own and reach other domains "
                                    "through their scale-up domain: " +
                                    listed(noNic));
        } else if (noNic.size() == t.gpuNodes.size()) {
            diags.error(path, "the GPUs span several scale-up domains but no GPU has a NIC");
        }
    }
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const TopoNode& n = t.nodes[v];
        if (n.radix <= 0)
            continue;
        int ports = 0;
        for (int e = t.adjStart[v]; e < t.adjStart[v + 1]; ++e)
            ports += t.links[t.adjLinks[e]].kind != LinkKind::Host;
        if (ports > n.radix)
            diags.error(path, "switch " + t.nodeName(static_cast<int>(v)) + " has " +
                                  std::to_string(ports) + " links but only " +
                                  std::to_string(n.radix) +
                                  " ports (radix): remove links or raise its radix");
    }
    return diags.errorCount() == before;
}

} // namespace ts
