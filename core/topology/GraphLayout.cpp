#include "topology/GraphLayout.h"

#include <algorithm>
#include <map>

namespace ts {

std::vector<int> nodeDomains(const Topology& t) {
    std::vector<int> domain(t.nodes.size(), -1);
    for (std::size_t r = 0; r < t.gpuNodes.size(); ++r)
        domain[t.gpuNodes[r]] = t.scaleUpDomains[r];
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const NodeKind k = t.nodes[v].kind;
        if (k != NodeKind::Nic && k != NodeKind::ScaleUpSwitch)
            continue;
        const LinkKind want = k == NodeKind::Nic ? LinkKind::Host : LinkKind::ScaleUp;
        for (int e = t.adjStart[v]; e < t.adjStart[v + 1]; ++e) {
            const TopoLink& l = t.links[t.adjLinks[e]];
            const int w = t.other(t.adjLinks[e], static_cast<int>(v));
            if (l.kind == want && t.nodes[w].kind == NodeKind::Gpu) {
                domain[v] = domain[w];
                break;
            }
        }
    }
    return domain;
}

void layoutGraph(ClusterGraph& g, const Topology& t) {
    using namespace layout;
    const std::vector<int> domain = nodeDomains(t);
    int domains = 0;
    for (int d : t.scaleUpDomains)
        domains = std::max(domains, d + 1);
    // Domain widths: the longer of its GPU and NIC rows.
    std::vector<int> gpuCount(domains, 0), nicCount(domains, 0), podOfDomain(domains, 0);
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        if (domain[v] < 0)
            continue;
        if (t.nodes[v].kind == NodeKind::Gpu) {
            ++gpuCount[domain[v]];
            podOfDomain[domain[v]] = t.nodes[v].pod;
        } else if (t.nodes[v].kind == NodeKind::Nic) {
            ++nicCount[domain[v]];
        }
    }
    std::vector<double> domainX(domains, 0);
    std::map<int, std::pair<double, double>> podSpan; // pod -> [x0, x1]
    double x = 0;
    int lastPod = domains > 0 ? podOfDomain[0] : 0;
    for (int d = 0; d < domains; ++d) {
        if (podOfDomain[d] != lastPod) {
            x += kPodGap;
            lastPod = podOfDomain[d];
        }
        domainX[d] = x;
        const double width = std::max(1, std::max(gpuCount[d], nicCount[d])) * kGpuPitch;
        auto [it, fresh] = podSpan.try_emplace(podOfDomain[d], x, x + width);
        if (!fresh)
            it->second.second = x + width;
        x += width + kDomainGap;
    }
    if (podSpan.empty())
        podSpan[0] = {0, kGpuPitch};
    // Switches per (pod, tier), in order, spread over the pod.
    std::map<std::pair<int, int>, std::vector<int>> rows;
    int maxTier = 0;
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const TopoNode& n = t.nodes[v];
        if (n.kind == NodeKind::Switch || n.kind == NodeKind::Router ||
            (n.kind == NodeKind::ScaleUpSwitch && domain[v] < 0)) {
            const int tier = std::max(1, n.tier);
            maxTier = std::max(maxTier, tier);
            rows[{n.kind == NodeKind::Router ? -1 : n.pod, tier}].push_back(static_cast<int>(v));
        }
    }
    const double allX0 = podSpan.begin()->second.first, allX1 = podSpan.rbegin()->second.second;
    std::vector<double> px(t.nodes.size(), 0), py(t.nodes.size(), 0);
    for (const auto& [key, members] : rows) {
        const auto span = key.first < 0 || !podSpan.count(key.first)
                              ? std::pair{allX0, allX1}
                              : podSpan[key.first];
        const double width = span.second - span.first;
        for (std::size_t i = 0; i < members.size(); ++i) {
            px[members[i]] = span.first + width * (double(i) + 0.5) / double(members.size());
            py[members[i]] = kNicRow - key.second * kTierPitch;
        }
    }
    std::vector<int> nextGpu(domains, 0), nextNic(domains, 0);
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const int d = domain[v];
        if (d < 0)
            continue;
        const double rowWidth = std::max(1, std::max(gpuCount[d], nicCount[d])) * kGpuPitch;
        switch (t.nodes[v].kind) {
        case NodeKind::Gpu:
            px[v] = domainX[d] + (nextGpu[d]++ + 0.5) * rowWidth / std::max(1, gpuCount[d]);
            py[v] = 0;
            break;
        case NodeKind::Nic:
            px[v] = domainX[d] + (nextNic[d]++ + 0.5) * rowWidth / std::max(1, nicCount[d]);
            py[v] = kNicRow;
            break;
        default:
            px[v] = domainX[d] + rowWidth / 2;
            py[v] = kScaleUpRow;
            break;
        }
    }
    for (std::size_t v = 0; v < g.nodes.size() && v < t.nodes.size(); ++v) {
        GraphNode& n = g.nodes[v];
        if (!n.x || !n.y) {
            n.x = px[v];
            n.y = py[v];
        }
    }
}

} // namespace ts
