#include "topology/GraphLayout.h"

#include "topology/GraphHierarchy.h"

#include <algorithm>
#include <cmath>
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

namespace {

struct DomainGrid {
    std::vector<double> x, y; // per domain: top-left of its cell (GPU row at y)
    std::map<int, std::pair<double, double>> podSpan; // pod -> [x0, x1]
};

// Domains of each pod in a grid that is about twice as wide as tall: scalable units of
// kUnitDomains as blocks of 8 x 4 cells where a pod has more than one unit's worth.
DomainGrid gridOfDomains(const std::vector<int>& podOfDomain, double cellW) {
    using namespace layout;
    DomainGrid g;
    const int domains = static_cast<int>(podOfDomain.size());
    g.x.assign(domains, 0);
    g.y.assign(domains, 0);
    std::map<int, std::vector<int>> byPod;
    for (int d = 0; d < domains; ++d)
        byPod[podOfDomain[d]].push_back(d);
    double podX = 0;
    const double cellH = kRowPitch;
    for (const auto& [pod, list] : byPod) {
        const int n = static_cast<int>(list.size());
        double width = 0;
        if (n > kUnitDomains) {
            const int cols = 8, rows = (kUnitDomains + cols - 1) / cols;
            const double unitW = cols * cellW + kUnitGap, unitH = rows * cellH + kUnitGap;
            const int units = (n + kUnitDomains - 1) / kUnitDomains;
            const int ucols =
                std::max(1, static_cast<int>(std::lround(std::sqrt(units * 2.0 * unitH / unitW))));
            for (int i = 0; i < n; ++i) {
                const int u = i / kUnitDomains, j = i % kUnitDomains;
                g.x[list[i]] = podX + (u % ucols) * unitW + (j % cols) * cellW;
                g.y[list[i]] = (u / ucols) * unitH + (j / cols) * cellH;
            }
            width = std::min(units, ucols) * unitW - kUnitGap;
        } else {
            const int cols =
                std::max(1, static_cast<int>(std::ceil(std::sqrt(n * 2.0 * cellH / cellW))));
            for (int i = 0; i < n; ++i) {
                g.x[list[i]] = podX + (i % cols) * cellW;
                g.y[list[i]] = (i / cols) * cellH;
            }
            width = std::min(n, cols) * cellW - kDomainGap;
        }
        g.podSpan[pod] = {podX, podX + width};
        podX += width + kPodGap;
    }
    return g;
}

} // namespace

void layoutGraph(ClusterGraph& g, const Topology& t) {
    using namespace layout;
    const std::vector<int> domain = nodeDomains(t);
    int domains = 0;
    for (int d : t.scaleUpDomains)
        domains = std::max(domains, d + 1);
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
    // One cell size for all domains: the widest row of GPUs or NICs.
    int widest = 1;
    for (int d = 0; d < domains; ++d)
        widest = std::max({widest, gpuCount[d], nicCount[d]});
    const double rowWidth = widest * kGpuPitch;
    DomainGrid grid = gridOfDomains(podOfDomain, rowWidth + kDomainGap);
    if (grid.podSpan.empty())
        grid.podSpan[0] = {0, kGpuPitch};
    // Switches per (pod, tier), in order, spread over the pod, tiers above the domains at a
    // pitch that keeps the drawing's proportions (a wide pod gets taller tiers).
    std::map<std::pair<int, int>, std::vector<int>> rows;
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const TopoNode& n = t.nodes[v];
        if (n.kind == NodeKind::Switch || n.kind == NodeKind::Router ||
            (n.kind == NodeKind::ScaleUpSwitch && domain[v] < 0))
            rows[{n.kind == NodeKind::Router ? -1 : n.pod, std::max(1, n.tier)}].push_back(
                static_cast<int>(v));
    }
    const double allX0 = grid.podSpan.begin()->second.first;
    const double allX1 = grid.podSpan.rbegin()->second.second;
    std::vector<double> px(t.nodes.size(), 0), py(t.nodes.size(), 0);
    for (const auto& [key, members] : rows) {
        const auto span = key.first < 0 || !grid.podSpan.count(key.first) ? std::pair{allX0, allX1}
                                                                          : grid.podSpan[key.first];
        const double width = span.second - span.first;
        const double pitch = std::max(kTierPitch, width / 8);
        for (std::size_t i = 0; i < members.size(); ++i) {
            px[members[i]] = span.first + width * (double(i) + 0.5) / double(members.size());
            py[members[i]] = kNicRow - key.second * pitch;
        }
    }
    std::vector<int> nextGpu(domains, 0), nextNic(domains, 0);
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const int d = domain[v];
        if (d < 0)
            continue;
        const double x0 = grid.x[d], y0 = grid.y[d];
        switch (t.nodes[v].kind) {
        case NodeKind::Gpu:
            px[v] = x0 + (nextGpu[d]++ + 0.5) * rowWidth / std::max(1, gpuCount[d]);
            py[v] = y0;
            break;
        case NodeKind::Nic:
            px[v] = x0 + (nextNic[d]++ + 0.5) * rowWidth / std::max(1, nicCount[d]);
            py[v] = y0 + kNicRow;
            break;
        default:
            px[v] = x0 + rowWidth / 2;
            py[v] = y0 + kScaleUpRow;
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
