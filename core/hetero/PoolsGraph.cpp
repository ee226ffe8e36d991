#include "hetero/PoolsGraph.h"

#include "topology/GraphLayout.h"
#include "topology/GraphTemplates.h"

#include <algorithm>

namespace ts {

std::optional<ClusterGraph> poolsGraph(const HeteroConfig& h, Diagnostics& diags) {
    ClusterGraph out;
    GraphNode router;
    router.id = "pool-link";
    router.kind = GraphNodeKind::Router;
    router.label = "pools";
    out.nodes.push_back(router);
    for (std::size_t i = 0; i < h.pools.size(); ++i) {
        const ResolvedPool& pool = h.pools[i];
        std::optional<ClusterGraph> g = buildTemplateGraph(pool.cluster, diags);
        if (!g)
            return std::nullopt;
        const std::string prefix = pool.id + "/";
        int topTier = 0;
        for (const GraphNode& n : g->nodes)
            if (n.kind == GraphNodeKind::Switch)
                topTier = std::max(topTier, n.tier.value_or(1));
        const ScaleOutConfig& o = pool.cluster.scaleOut;
        const double gbPerS = (h.poolLinkGbitPerS ? *h.poolLinkGbitPerS
                                                  : o.nicGbitPerS * std::max(1, o.nicsPerNode)) /
                              8.0;
        for (GraphNode n : g->nodes) {
            const bool uplink =
                topTier > 0 ? n.kind == GraphNodeKind::Switch && n.tier.value_or(1) == topTier
                            : n.kind == GraphNodeKind::Nic;
            if (uplink) {
                out.links.push_back({prefix + n.id, router.id, LinkClass::ScaleOut, gbPerS});
                if (n.radix) // the uplink's port, beside the template's full radix
                    n.radix = *n.radix + 1;
            }
            if (n.kind == GraphNodeKind::Gpu)
                n.label = pool.id;
            n.id = prefix + n.id;
            for (std::string& gpu : n.gpus)
                gpu = prefix + gpu;
            n.pod = int(i);
            n.x.reset();
            n.y.reset();
            out.nodes.push_back(std::move(n));
        }
        for (GraphLink l : g->links) {
            l.from = prefix + l.from;
            l.to = prefix + l.to;
            out.links.push_back(std::move(l));
        }
    }
    layoutGraph(out, topologyOfGraph(out));
    return out;
}

} // namespace ts
