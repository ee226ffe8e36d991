#include "topology/GraphHierarchy.h"

#include "topology/GraphLayout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace ts {

namespace {

struct Builder {
    GraphHierarchy& h;
    int add(GroupLevel level, int parent, std::string key, std::string label) {
        GraphGroup g;
        g.level = level;
        g.parent = parent;
        g.key = std::move(key);
        g.label = std::move(label);
        h.groups.push_back(std::move(g));
        const int id = static_cast<int>(h.groups.size()) - 1;
        if (parent >= 0)
            h.groups[parent].children.push_back(id);
        else
            h.roots.push_back(id);
        return id;
    }
    void put(int node, int group) {
        h.groupOf[node] = group;
        h.groups[group].nodes.push_back(node);
    }
};

// Counts and bounding boxes, children before parents (they are created after them).
void summarize(GraphHierarchy& h, const ClusterGraph& g, const Topology& t) {
    for (GraphGroup& gr : h.groups) {
        gr.x0 = gr.y0 = std::numeric_limits<double>::max();
        gr.x1 = gr.y1 = std::numeric_limits<double>::lowest();
    }
    for (int i = static_cast<int>(h.groups.size()) - 1; i >= 0; --i) {
        GraphGroup& gr = h.groups[i];
        for (int v : gr.nodes) {
            const NodeKind k = t.nodes[v].kind;
            gr.gpus += k == NodeKind::Gpu;
            gr.nics += k == NodeKind::Nic;
            gr.switches += k != NodeKind::Gpu && k != NodeKind::Nic;
            const double x = g.nodes[v].x.value_or(0), y = g.nodes[v].y.value_or(0);
            gr.x0 = std::min(gr.x0, x);
            gr.x1 = std::max(gr.x1, x);
            gr.y0 = std::min(gr.y0, y);
            gr.y1 = std::max(gr.y1, y);
        }
        if (gr.parent >= 0) {
            GraphGroup& p = h.groups[gr.parent];
            p.gpus += gr.gpus;
            p.nics += gr.nics;
            p.switches += gr.switches;
            p.x0 = std::min(p.x0, gr.x0);
            p.x1 = std::max(p.x1, gr.x1);
            p.y0 = std::min(p.y0, gr.y0);
            p.y1 = std::max(p.y1, gr.y1);
        }
    }
}

} // namespace

GraphHierarchy buildHierarchy(const ClusterGraph& g, const Topology& t, int gpusPerNode) {
    GraphHierarchy h;
    Builder b{h};
    h.groupOf.assign(t.nodes.size(), -1);
    const std::vector<int> domain = nodeDomains(t);
    int domains = 0;
    for (int d : t.scaleUpDomains)
        domains = std::max(domains, d + 1);
    std::vector<int> domainPod(domains, 0), domainSize(domains, 0);
    for (std::size_t r = 0; r < t.gpuNodes.size(); ++r) {
        domainPod[t.scaleUpDomains[r]] = t.nodes[t.gpuNodes[r]].pod;
        ++domainSize[t.scaleUpDomains[r]];
    }
    std::map<int, int> podGroup, podDomains;
    for (int d = 0; d < domains; ++d)
        ++podDomains[domainPod[d]];
    for (std::size_t v = 0; v < t.nodes.size(); ++v)
        if (t.nodes[v].kind == NodeKind::Switch)
            podDomains.try_emplace(t.nodes[v].pod, 0);
    for (const auto& [pod, count] : podDomains)
        podGroup[pod] =
            b.add(GroupLevel::Pod, -1, "pod" + std::to_string(pod), "pod " + std::to_string(pod));
    // Domains in scalable units where a pod has more than one unit's worth.
    std::vector<int> domainGroup(domains, -1);
    std::map<int, int> seenInPod;
    int unit = -1;
    for (int d = 0; d < domains; ++d) {
        const int pod = domainPod[d];
        const int i = seenInPod[pod]++;
        int parent = podGroup[pod];
        const std::string podKey = h.groups[parent].key;
        if (podDomains[pod] > kUnitDomains) {
            if (i % kUnitDomains == 0)
                unit = b.add(GroupLevel::Unit, parent,
                             podKey + "/su" + std::to_string(i / kUnitDomains),
                             "unit " + std::to_string(i / kUnitDomains));
            parent = unit;
        }
        domainGroup[d] = b.add(GroupLevel::Domain, parent, podKey + "/dom" + std::to_string(d),
                               "domain " + std::to_string(d));
    }
    // Servers inside domains larger than one server (NVL72: 18 trays of 4).
    const int gpn = std::max(1, gpusPerNode);
    std::map<std::pair<int, int>, int> nodeGroup; // (domain, server) -> group
    std::vector<int> seenInDomain(domains, 0);
    std::vector<int> serverOf(t.nodes.size(), -1);
    for (std::size_t r = 0; r < t.gpuNodes.size(); ++r) {
        const int v = t.gpuNodes[r], d = t.scaleUpDomains[r];
        const int s = seenInDomain[d]++ / gpn;
        serverOf[v] = s;
        if (domainSize[d] <= gpn) {
            b.put(v, domainGroup[d]);
            continue;
        }
        auto [it, fresh] = nodeGroup.try_emplace({d, s}, -1);
        if (fresh)
            it->second = b.add(GroupLevel::Node, domainGroup[d],
                               h.groups[domainGroup[d]].key + "/node" + std::to_string(s),
                               "node " + std::to_string(s));
        b.put(v, it->second);
    }
    // NICs with their first GPU's server, scale-up switches with their domain; network
    // switches in blocks per pod and tier.
    std::map<std::pair<int, int>, std::pair<int, int>> blocks; // (pod, tier) -> (group, used)
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const TopoNode& n = t.nodes[v];
        if (n.kind == NodeKind::Gpu)
            continue;
        if (n.kind == NodeKind::Nic && domain[v] >= 0) {
            int server = -1;
            for (int e = t.adjStart[v]; e < t.adjStart[v + 1] && server < 0; ++e)
                if (t.links[t.adjLinks[e]].kind == LinkKind::Host)
                    server = h.groupOf[t.other(t.adjLinks[e], static_cast<int>(v))];
            b.put(static_cast<int>(v), server >= 0 ? server : domainGroup[domain[v]]);
        } else if (n.kind == NodeKind::ScaleUpSwitch && domain[v] >= 0) {
            b.put(static_cast<int>(v), domainGroup[domain[v]]);
        } else if (n.kind == NodeKind::Switch && podGroup.count(n.pod)) {
            auto& [group, used] = blocks[{n.pod, n.tier}];
            if (used == 0 || used == kSwitchBlock) {
                const int index = static_cast<int>(h.groups[podGroup[n.pod]].children.size());
                group = b.add(GroupLevel::SwitchBlock, podGroup[n.pod],
                              h.groups[podGroup[n.pod]].key + "/t" + std::to_string(n.tier) + "b" +
                                  std::to_string(index),
                              "tier " + std::to_string(n.tier) + " switches");
                used = 0;
            }
            ++used;
            b.put(static_cast<int>(v), group);
        } else {
            h.rootNodes.push_back(static_cast<int>(v));
        }
    }
    summarize(h, g, t);
    return h;
}

VisibleGraph visibleGraph(const GraphHierarchy& h, const Topology& t,
                          const std::vector<char>& expanded) {
    VisibleGraph out;
    // A group is shown collapsed when its parents are expanded and it is not.
    std::vector<int> shownAs(h.groups.size(), 0); // endpoint for the group's members, 0: open
    const auto isOpen = [&](int gr) {
        return gr >= 0 && static_cast<std::size_t>(gr) < expanded.size() && expanded[gr];
    };
    for (std::size_t i = 0; i < h.groups.size(); ++i) {
        const int parent = h.groups[i].parent;
        if (parent >= 0 && shownAs[parent] != 0)
            shownAs[i] = shownAs[parent];
        else if (!isOpen(static_cast<int>(i))) {
            shownAs[i] = groupEndpoint(static_cast<int>(i));
            out.groups.push_back(static_cast<int>(i));
        }
    }
    out.endpointOf.resize(t.nodes.size());
    for (std::size_t v = 0; v < t.nodes.size(); ++v) {
        const int gr = h.groupOf[v];
        out.endpointOf[v] = gr >= 0 && shownAs[gr] != 0 ? shownAs[gr] : static_cast<int>(v);
        if (out.endpointOf[v] >= 0)
            out.nodes.push_back(static_cast<int>(v));
    }
    std::unordered_map<std::uint64_t, int> index;
    for (std::size_t li = 0; li < t.links.size(); ++li) {
        const TopoLink& l = t.links[li];
        int a = out.endpointOf[l.a], b = out.endpointOf[l.b];
        if (a == b)
            continue;
        if (a > b)
            std::swap(a, b);
        const std::uint64_t key =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
            static_cast<std::uint32_t>(b);
        auto [it, fresh] = index.try_emplace(key, static_cast<int>(out.edges.size()));
        if (fresh) {
            VisibleEdge e;
            e.a = a;
            e.b = b;
            e.kind = l.kind;
            out.edges.push_back(std::move(e));
        }
        VisibleEdge& e = out.edges[it->second];
        e.links.push_back(static_cast<int>(li));
        e.gbPerS += l.gbPerS;
        e.mixed = e.mixed || e.kind != l.kind;
    }
    return out;
}

std::vector<char> defaultExpansion(const GraphHierarchy& h, int budget) {
    std::vector<char> expanded(h.groups.size(), 0);
    std::vector<int> frontier = h.roots;
    std::int64_t shown = static_cast<std::int64_t>(h.roots.size() + h.rootNodes.size());
    while (!frontier.empty()) {
        std::int64_t added = 0;
        std::vector<int> next;
        for (int gr : frontier) {
            const GraphGroup& g = h.groups[gr];
            added += static_cast<std::int64_t>(g.children.size() + g.nodes.size()) - 1;
            next.insert(next.end(), g.children.begin(), g.children.end());
        }
        if (shown + added > budget)
            break;
        shown += added;
        for (int gr : frontier)
            expanded[gr] = 1;
        frontier = std::move(next);
    }
    return expanded;
}

} // namespace ts
