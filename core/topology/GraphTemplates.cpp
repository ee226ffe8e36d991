#include "topology/GraphTemplates.h"

#include "topology/GraphLayout.h"
#include "topology/TopologyBuilder.h"

#include <array>
#include <memory>

namespace ts {

namespace {

constexpr std::array<std::string_view, kGraphTemplateCount> kTemplateNames = {
    "nvswitch-domain", "nvl72", "rail-optimized",  "fat-tree",
    "rail-only",       "torus", "multi-datacenter"};

ScaleOutTopology builderOf(GraphTemplateKind kind) {
    switch (kind) {
    case GraphTemplateKind::FatTree:
        return ScaleOutTopology::FatTree;
    case GraphTemplateKind::RailOnly:
        return ScaleOutTopology::RailOnly;
    case GraphTemplateKind::Torus:
        return ScaleOutTopology::Torus;
    default:
        return ScaleOutTopology::RailOptimized;
    }
}

} // namespace

std::string_view graphTemplateName(GraphTemplateKind kind) {
    return kTemplateNames[static_cast<std::size_t>(kind)];
}

GraphTemplateParams templateParamsOf(const ClusterConfig& c, GraphTemplateKind kind) {
    GraphTemplateParams p;
    p.kind = kind;
    p.gpus = c.numGpus;
    p.domainGpus = c.scaleUp.domainGpus;
    p.gpusPerNode = c.gpusPerNode;
    p.nicsPerNode = c.scaleOut.nicsPerNode;
    p.nicGbitPerS = c.scaleOut.nicGbitPerS;
    p.switchRadix = c.scaleOut.switchRadix;
    p.oversubscription = c.scaleOut.oversubscription;
    p.tiers = c.scaleOut.tiers.value_or(0);
    if (c.scaleOut.pods > 1) {
        p.pods = c.scaleOut.pods;
        p.wanGbitPerS = c.scaleOut.wanGbitPerS;
        p.wanLatencyUs = c.scaleOut.wanLatencyUs;
    }
    switch (kind) {
    case GraphTemplateKind::NvSwitchDomain:
        p.gpus = p.domainGpus;
        break;
    case GraphTemplateKind::Nvl72:
        // GB200 NVL72: 18 compute trays of 4 GPUs, one ConnectX NIC per GPU (NVIDIA GB200
        // NVL72 product page; the catalog's gb200-nvl72 preset).
        p.domainGpus = 72;
        p.gpusPerNode = 4;
        p.nicsPerNode = 4;
        p.gpus = std::max<std::int64_t>(72, p.gpus / 72 * 72);
        break;
    default:
        break;
    }
    return p;
}

ClusterConfig templateCluster(const ClusterConfig& base, const GraphTemplateParams& p) {
    ClusterConfig c = base;
    c.graph = {};
    c.numGpus = p.gpus;
    c.gpusPerNode = p.gpusPerNode;
    c.scaleUp.domainGpus = p.domainGpus;
    ScaleOutConfig& so = c.scaleOut;
    so.topology = builderOf(p.kind);
    so.nicsPerNode = p.nicsPerNode;
    so.nicGbitPerS = p.nicGbitPerS;
    so.switchRadix = p.switchRadix;
    so.oversubscription = p.oversubscription;
    so.tiers = p.tiers > 0 ? std::optional<int>(p.tiers) : std::nullopt;
    so.torusDims.clear();
    if (p.kind == GraphTemplateKind::MultiDatacenter) {
        so.pods = p.pods;
        so.wanGbitPerS = p.wanGbitPerS;
        so.wanLatencyUs = p.wanLatencyUs;
    } else {
        so.pods = 1;
    }
    return c;
}

ClusterGraph clusterGraphFromTopology(const Topology& t) {
    ClusterGraph g;
    g.nodes.resize(t.nodes.size());
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        const TopoNode& n = t.nodes[i];
        GraphNode& out = g.nodes[i];
        out.id = t.nodeName(static_cast<int>(i));
        out.kind = n.kind;
        if (t.pods > 1)
            out.pod = n.pod;
        if (n.kind == NodeKind::Switch || n.kind == NodeKind::ScaleUpSwitch ||
            n.kind == NodeKind::Router) {
            if (n.radix > 0)
                out.radix = n.radix;
            if (n.tier > 0)
                out.tier = n.tier;
        }
    }
    for (const TopoLink& l : t.links) {
        if (l.kind == LinkKind::Host) {
            // The GPU end lists it as one of the NIC's GPUs.
            const bool aIsNic = t.nodes[l.a].kind == NodeKind::Nic;
            g.nodes[aIsNic ? l.a : l.b].gpus.push_back(g.nodes[aIsNic ? l.b : l.a].id);
            continue;
        }
        GraphLink out;
        out.from = g.nodes[l.a].id;
        out.to = g.nodes[l.b].id;
        out.linkClass = l.kind == LinkKind::ScaleUp    ? LinkClass::ScaleUp
                        : l.kind == LinkKind::ScaleOut ? LinkClass::ScaleOut
                                                       : LinkClass::Wan;
        out.gbPerS = l.gbPerS;
        if (l.latencyUs > 0)
            out.latencyUs = l.latencyUs;
        g.links.push_back(std::move(out));
    }
    layoutGraph(g, t);
    return g;
}

std::optional<ClusterGraph> buildTemplateGraph(const ClusterConfig& cluster, Diagnostics& diags) {
    ClusterConfig c = cluster;
    c.graph = {};
    std::optional<Topology> t = buildTopology(c, diags);
    if (!t)
        return std::nullopt;
    return clusterGraphFromTopology(*t);
}

Topology topologyOfGraph(const ClusterGraph& graph) {
    ClusterConfig c;
    c.graph.graph = std::shared_ptr<const ClusterGraph>(&graph, [](const ClusterGraph*) {});
    Diagnostics diags;
    return *buildTopology(c, diags);
}

} // namespace ts
