#include "topology/TopologyBuilder.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace ts {

int leafDownPorts(int radix, double oversubscription) {
    if (oversubscription <= 1.0)
        return std::max(1, radix / 2);
    const int down =
        static_cast<int>(std::floor(radix * oversubscription / (1.0 + oversubscription)));
    return std::clamp(down, 1, radix - 1);
}

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

struct ClosSpec {
    int radix = 64;
    double oversubscription = 1.0;
    int tiers = 0; // 0: as few as needed
    double nicGBps = 0;
    int pod = 0;
    int extraTopPorts = 0; // reserved on the top tier (WAN uplinks)
};

// A folded Clos over `nics` (leaf to core). Returns the top-tier switches.
std::vector<int> buildClos(Topology& t, const std::vector<int>& nics, const ClosSpec& s,
                           std::vector<int>* topFree) {
    const int k = s.radix;
    const std::int64_t e = static_cast<std::int64_t>(nics.size());
    const int tiers =
        s.tiers > 0 ? s.tiers : closTiersNeeded(e + s.extraTopPorts, k, s.oversubscription);
    auto addSwitch = [&](int tier) {
        TopoNode n;
        n.kind = NodeKind::Switch;
        n.radix = k;
        n.tier = tier;
        n.pod = s.pod;
        return t.addNode(n);
    };
    std::vector<int> top;
    std::vector<int> used; // per top switch: ports used
    if (tiers <= 1) {
        const int sw = addSwitch(1);
        for (int nic : nics)
            t.addLink(nic, sw, LinkKind::ScaleOut, s.nicGBps);
        top.push_back(sw);
        used.push_back(static_cast<int>(e));
    } else {
        const int d = leafDownPorts(k, s.oversubscription);
        const int u = k - d;
        const std::int64_t leaves = ceilDiv(e, d);
        std::vector<int> leafIds(leaves), leafUp(leaves);
        for (std::int64_t i = 0; i < leaves; ++i) {
            leafIds[i] = addSwitch(1);
            const std::int64_t first = i * d, last = std::min(e, first + d);
            for (std::int64_t j = first; j < last; ++j)
                t.addLink(nics[j], leafIds[i], LinkKind::ScaleOut, s.nicGBps);
            // A partly filled leaf keeps the ratio with fewer uplinks.
            leafUp[i] = static_cast<int>(ceilDiv((last - first) * u, d));
        }
        // Wires `ups[i]` uplinks of every lower switch round-robin over `count` new switches.
        auto wire = [&](const std::vector<int>& lower, const std::vector<int>& ups,
                        std::int64_t begin, std::int64_t end, int tier, std::int64_t reserve,
                        int portsPerUpper, std::vector<int>& upperDown) {
            std::int64_t total = 0;
            for (std::int64_t i = begin; i < end; ++i)
                total += ups[i];
            const std::int64_t count =
                std::max<std::int64_t>(1, ceilDiv(total + reserve, portsPerUpper));
            std::vector<int> upper(count);
            for (auto& id : upper)
                id = addSwitch(tier);
            upperDown.assign(count, 0);
            std::int64_t m = 0;
            for (std::int64_t i = begin; i < end; ++i)
                for (int j = 0; j < ups[i]; ++j, ++m) {
                    t.addLink(lower[i], upper[m % count], LinkKind::ScaleOut, s.nicGBps);
                    ++upperDown[m % count];
                }
            return upper;
        };
        if (tiers == 2) {
            std::vector<int> down;
            top = wire(leafIds, leafUp, 0, leaves, 2, s.extraTopPorts, k, down);
            used = down;
        } else {
            // Pods of k/2 leaves, each leaf's uplinks spread over the pod's aggregation
            // switches (k/2 down, k/2 up), and a core tier over all aggregation switches.
            const std::int64_t perPod = std::max(1, k / 2);
            std::vector<int> aggs, aggUp;
            for (std::int64_t p0 = 0; p0 < leaves; p0 += perPod) {
                std::vector<int> down;
                const auto pod = wire(leafIds, leafUp, p0, std::min(leaves, p0 + perPod), 2, 0,
                                      std::max(1, k / 2), down);
                aggs.insert(aggs.end(), pod.begin(), pod.end());
                aggUp.insert(aggUp.end(), down.begin(), down.end());
            }
            std::vector<int> down;
            top = wire(aggs, aggUp, 0, static_cast<std::int64_t>(aggs.size()), 3, s.extraTopPorts,
                       k, down);
            used = down;
        }
    }
    if (topFree) {
        topFree->clear();
        for (std::size_t i = 0; i < top.size(); ++i)
            topFree->push_back(k - used[i]);
    }
    t.tiers = std::max(t.tiers, tiers);
    return top;
}

std::vector<int> autoTorusDims(std::int64_t domains) {
    int a = static_cast<int>(std::floor(std::sqrt(double(domains))));
    while (a > 1 && domains % a != 0)
        --a;
    return {a, static_cast<int>(domains / a)};
}

std::optional<Topology> fromGraph(const ClusterConfig& c, Diagnostics& diags) {
    const ClusterGraph& g = *c.graph;
    Topology t;
    t.kind = ScaleOutTopology::Graph;
    t.description = "explicit graph (cluster.graph)";
    std::unordered_map<std::string, int> index;
    t.names.reserve(g.nodes.size());
    for (const GraphNode& gn : g.nodes) {
        TopoNode n;
        n.kind = gn.kind;
        n.radix = gn.radix.value_or(0);
        n.tier = gn.tier.value_or(-1);
        n.pod = gn.pod.value_or(0);
        const int id = t.addNode(n);
        index[gn.id] = id;
        t.names.push_back(gn.id);
        if (gn.kind == NodeKind::Gpu)
            t.gpuNodes.push_back(id);
    }
    // The host link never limits: the NIC's network link does.
    constexpr double kHostGBps = 1e9;
    for (const GraphNode& gn : g.nodes)
        for (const std::string& gpu : gn.gpus)
            t.addLink(index[gpu], index[gn.id], LinkKind::Host, kHostGBps);
    for (const GraphLink& l : g.links) {
        const LinkKind kind = l.linkClass == LinkClass::ScaleUp    ? LinkKind::ScaleUp
                              : l.linkClass == LinkClass::ScaleOut ? LinkKind::ScaleOut
                                                                   : LinkKind::Wan;
        t.addLink(index[l.from], index[l.to], kind, l.gbPerS, l.latencyUs.value_or(0));
    }
    t.finalize();
    int maxTier = 0, pods = 0;
    for (const TopoNode& n : t.nodes) {
        if (n.kind == NodeKind::Switch)
            maxTier = std::max(maxTier, n.tier);
        pods = std::max(pods, n.pod + 1);
    }
    t.tiers = maxTier;
    t.pods = std::max(1, pods);
    std::vector<int> sizes;
    for (int d : t.scaleUpDomains) {
        if (d >= static_cast<int>(sizes.size()))
            sizes.resize(d + 1, 0);
        ++sizes[d];
    }
    t.domainGpus = sizes.empty() ? 1 : *std::max_element(sizes.begin(), sizes.end());
    (void)c;
    (void)diags;
    return t;
}

} // namespace

int closTiersNeeded(std::int64_t endpoints, int radix, double oversubscription) {
    if (endpoints <= radix)
        return 1;
    const std::int64_t leaves = ceilDiv(endpoints, leafDownPorts(radix, oversubscription));
    if (leaves <= radix)
        return 2;
    if (ceilDiv(leaves, std::max(1, radix / 2)) <= radix)
        return 3;
    return 0;
}

std::optional<Topology> buildTopology(const ClusterConfig& c, Diagnostics& diags) {
    if (c.graph)
        return fromGraph(c, diags);
    const std::size_t before = diags.errorCount();
    const ScaleOutConfig& so = c.scaleOut;
    if (c.numGpus > kMaxGraphGpus) {
        diags.error("/cluster/num_gpus",
                    "graphs are built for up to " + std::to_string(kMaxGraphGpus) + " GPUs");
        return std::nullopt;
    }
    if (so.topology == ScaleOutTopology::Graph) {
        diags.error("/cluster/graph", "scale_out.topology is \"graph\" but no graph is given");
        return std::nullopt;
    }
    const int n = static_cast<int>(c.numGpus);
    const int domain = std::max(1, std::min(c.scaleUp.domainGpus, n));
    const int domains = (n + domain - 1) / domain;
    const int pods = std::max(1, so.pods);
    if (pods > 1 && domains % pods != 0) {
        diags.error("/cluster/scale_out/pods", std::to_string(domains) +
                                                   " scale-up domains do not split into " +
                                                   std::to_string(pods) + " equal pods");
        return std::nullopt;
    }
    if (pods > 1 && so.topology == ScaleOutTopology::Torus) {
        diags.error("/cluster/scale_out/pods", "not modelled yet: a torus across datacenters");
        return std::nullopt;
    }
    const int gpn = std::max(1, c.gpusPerNode);
    const int nicsPerNode = so.nicsPerNode;
    if (domains > 1 && nicsPerNode <= 0) {
        diags.error("/cluster/scale_out/nics_per_node", "the GPUs span " + std::to_string(domains) +
                                                            " scale-up domains but have no NICs");
        return std::nullopt;
    }
    if (nicsPerNode > 0 && nicsPerNode % gpn != 0 && gpn % nicsPerNode != 0) {
        diags.error("/cluster/scale_out/nics_per_node",
                    std::to_string(nicsPerNode) + " NICs per node of " + std::to_string(gpn) +
                        " GPUs: give a multiple or a divisor of gpus_per_node");
        return std::nullopt;
    }

    Topology t;
    t.kind = so.topology;
    t.pods = pods;
    t.domainGpus = domain;
    const double nicGBps = so.nicGbitPerS / 8.0;
    // GPUs and their scale-up domains.
    for (int r = 0; r < n; ++r) {
        TopoNode g;
        g.kind = NodeKind::Gpu;
        g.domain = r / domain;
        g.pod = g.domain / (domains / pods);
        t.gpuNodes.push_back(t.addNode(g));
    }
    if (domain > 1)
        for (int d = 0; d < domains; ++d) {
            TopoNode s;
            s.kind = NodeKind::ScaleUpSwitch;
            s.pod = d / (domains / pods);
            const int id = t.addNode(s);
            for (int r = d * domain; r < std::min(n, (d + 1) * domain); ++r)
                t.addLink(t.gpuNodes[r], id, LinkKind::ScaleUp, c.scaleUp.bandwidthGBps);
        }
    // NICs: rail = index of the NIC within its scale-up domain.
    std::vector<std::vector<int>> domainNics(domains);
    if (domains > 1 && nicsPerNode > 0) {
        const int perGpu = nicsPerNode >= gpn ? nicsPerNode / gpn : 0;
        const int gpusPerNic = nicsPerNode >= gpn ? 1 : gpn / nicsPerNode;
        for (int r = 0; r < n; ++r) {
            const int count = perGpu > 0 ? perGpu : ((r % gpn) % gpusPerNic == 0 ? 1 : 0);
            for (int j = 0; j < count; ++j) {
                TopoNode nic;
                nic.kind = NodeKind::Nic;
                nic.domain = r / domain;
                nic.pod = t.nodes[t.gpuNodes[r]].pod;
                nic.rail = static_cast<int>(domainNics[nic.domain].size());
                const int id = t.addNode(nic);
                domainNics[nic.domain].push_back(id);
                for (int s = 0; s < gpusPerNic && r + s < n; ++s)
                    t.addLink(t.gpuNodes[r + s], id, LinkKind::Host, nicGBps);
            }
        }
    }

    const int domainsPerPod = domains / pods;
    const int wanPorts =
        pods > 1 ? static_cast<int>(std::ceil(so.wanGbitPerS / std::max(1.0, so.nicGbitPerS))) : 0;
    ClosSpec spec;
    spec.radix = so.switchRadix;
    spec.oversubscription = so.oversubscription;
    spec.tiers = so.tiers.value_or(0);
    spec.nicGBps = nicGBps;
    if (spec.tiers > 3) {
        diags.error("/cluster/scale_out/tiers", "not modelled yet: more than 3 switch tiers");
        return std::nullopt;
    }
    std::vector<int> gateways;
    for (int p = 0; p < pods && domains > 1; ++p) {
        const int d0 = p * domainsPerPod, d1 = d0 + domainsPerPod;
        std::vector<int> top, topFree;
        spec.pod = p;
        spec.extraTopPorts = wanPorts;
        auto checkTiers = [&](std::int64_t endpoints, const char* what) {
            const int need =
                closTiersNeeded(endpoints + wanPorts, spec.radix, spec.oversubscription);
            if (need == 0) {
                diags.error("/cluster/scale_out/switch_radix",
                            std::to_string(endpoints) + " " + what + " need more than 3 tiers of " +
                                std::to_string(spec.radix) + "-port switches: raise switch_radix");
                return false;
            }
            if (spec.tiers > 0 && spec.tiers < need) {
                diags.error("/cluster/scale_out/tiers",
                            std::to_string(spec.tiers) + " tiers of " + std::to_string(spec.radix) +
                                "-port switches cannot connect " + std::to_string(endpoints) + " " +
                                what + "; " + std::to_string(need) + " can");
                return false;
            }
            return true;
        };
        switch (so.topology) {
        case ScaleOutTopology::RailOptimized:
        case ScaleOutTopology::FatTree: {
            std::vector<int> order;
            if (so.topology == ScaleOutTopology::FatTree) {
                for (int d = d0; d < d1; ++d)
                    order.insert(order.end(), domainNics[d].begin(), domainNics[d].end());
            } else {
                std::size_t rails = 0;
                for (int d = d0; d < d1; ++d)
                    rails = std::max(rails, domainNics[d].size());
                for (std::size_t r = 0; r < rails; ++r)
                    for (int d = d0; d < d1; ++d)
                        if (r < domainNics[d].size())
                            order.push_back(domainNics[d][r]);
            }
            if (!checkTiers(static_cast<std::int64_t>(order.size()), "NICs"))
                return std::nullopt;
            top = buildClos(t, order, spec, &topFree);
            break;
        }
        case ScaleOutTopology::RailOnly: {
            std::size_t rails = 0;
            for (int d = d0; d < d1; ++d)
                rails = std::max(rails, domainNics[d].size());
            const std::int64_t perRail = d1 - d0;
            if (!checkTiers(perRail, "NICs of one rail"))
                return std::nullopt;
            // Small rails share a physical switch (Wang et al. count 128 radix-256 switches for
            // 256 rails of 128 GPUs); they stay separate networks in all but the chassis.
            const int need = closTiersNeeded(perRail + wanPorts, spec.radix, 1.0);
            const std::size_t railsPerSwitch =
                (spec.tiers <= 1 && need == 1 && wanPorts == 0)
                    ? std::max<std::int64_t>(1, spec.radix / std::max<std::int64_t>(1, perRail))
                    : 1;
            ClosSpec railSpec = spec;
            railSpec.oversubscription = 1.0; // each rail is a non-blocking Clos
            for (std::size_t r0 = 0; r0 < rails; r0 += railsPerSwitch) {
                std::vector<int> order;
                for (std::size_t r = r0; r < std::min(rails, r0 + railsPerSwitch); ++r)
                    for (int d = d0; d < d1; ++d)
                        if (r < domainNics[d].size())
                            order.push_back(domainNics[d][r]);
                std::vector<int> free;
                const auto railTop = buildClos(t, order, railSpec, &free);
                top.insert(top.end(), railTop.begin(), railTop.end());
                topFree.insert(topFree.end(), free.begin(), free.end());
            }
            break;
        }
        case ScaleOutTopology::Torus: {
            std::vector<int> dims =
                so.torusDims.empty() ? autoTorusDims(domainsPerPod) : so.torusDims;
            std::int64_t product = 1;
            for (int x : dims)
                product *= x;
            if (product != domainsPerPod) {
                diags.error("/cluster/scale_out/torus_dims",
                            "the torus dimensions multiply to " + std::to_string(product) +
                                " but the cluster has " + std::to_string(domainsPerPod) +
                                " scale-up domains");
                return std::nullopt;
            }
            std::vector<int> active;
            for (std::size_t i = 0; i < dims.size(); ++i)
                if (dims[i] > 1)
                    active.push_back(static_cast<int>(i));
            const int directions = 2 * static_cast<int>(active.size());
            const int perDomain = static_cast<int>(domainNics[d0].size());
            if (directions > 0 && perDomain < directions) {
                diags.error("/cluster/scale_out/nics_per_node",
                            "a " + std::to_string(active.size()) + "D torus needs at least " +
                                std::to_string(directions) +
                                " NICs per scale-up domain (one per direction), got " +
                                std::to_string(perDomain));
                return std::nullopt;
            }
            const int perDirection = directions > 0 ? perDomain / directions : 0;
            for (int x = 0; x < domainsPerPod; ++x) {
                std::vector<int> coord(dims.size());
                int rest = x;
                for (std::size_t i = 0; i < dims.size(); ++i) {
                    coord[i] = rest % dims[i];
                    rest /= dims[i];
                }
                for (std::size_t a = 0; a < active.size(); ++a) {
                    const int dim = active[a];
                    std::vector<int> nb = coord;
                    nb[dim] = (coord[dim] + 1) % dims[dim];
                    int y = 0;
                    for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i)
                        y = y * dims[i] + nb[i];
                    for (int q = 0; q < perDirection; ++q) {
                        // NIC j of a domain faces direction j % directions: 2a is "+", 2a+1 "-".
                        const int plus = domainNics[d0 + x][q * directions + 2 * a];
                        const int minus = domainNics[d0 + y][q * directions + 2 * a + 1];
                        t.addLink(plus, minus, LinkKind::ScaleOut, nicGBps);
                    }
                }
            }
            t.tiers = 0;
            std::string shape;
            for (std::size_t i = 0; i < dims.size(); ++i) {
                if (i > 0)
                    shape += 'x';
                shape += std::to_string(dims[i]);
            }
            t.description = std::to_string(dims.size()) + "D torus of scale-up domains, " + shape;
            break;
        }
        case ScaleOutTopology::Graph:
            break;
        }
        if (pods > 1) {
            TopoNode gw;
            gw.kind = NodeKind::Router;
            gw.pod = p;
            gw.tier = t.tiers + 1;
            const int id = t.addNode(gw);
            gateways.push_back(id);
            // Each WAN port on the top switch with the most free ports.
            const double portGBps = so.wanGbitPerS / 8.0 / wanPorts;
            for (int w = 0; w < wanPorts; ++w) {
                const auto it = std::max_element(topFree.begin(), topFree.end());
                const std::size_t i = static_cast<std::size_t>(it - topFree.begin());
                t.addLink(top[i], id, LinkKind::Wan, portGBps);
                --topFree[i];
            }
        }
    }
    for (std::size_t a = 0; a < gateways.size(); ++a) {
        t.nodes[gateways[a]].tier = t.tiers + 1;
        for (std::size_t b = a + 1; b < gateways.size(); ++b)
            t.addLink(gateways[a], gateways[b], LinkKind::Wan,
                      so.wanGbitPerS / 8.0 / double(pods - 1), so.wanLatencyUs);
    }
    if (diags.errorCount() > before)
        return std::nullopt;
    if (t.description.empty()) {
        const char* name =
            so.topology == ScaleOutTopology::RailOptimized ? "rail-optimized fat-tree"
            : so.topology == ScaleOutTopology::FatTree     ? "fat-tree"
                                                           : "rail-only (one Clos per rail)";
        t.description = domains <= 1 ? "one scale-up domain"
                                     : std::string(name) + ", " + std::to_string(t.tiers) +
                                           (t.tiers == 1 ? " tier" : " tiers") + " of radix " +
                                           std::to_string(so.switchRadix);
        if (so.oversubscription > 1 && so.topology != ScaleOutTopology::RailOnly && domains > 1)
            t.description += ", leaf oversubscription " +
                             std::to_string(so.oversubscription).substr(0, 4) + ":1";
    }
    if (pods > 1)
        t.description += ", " + std::to_string(pods) + " datacenters over WAN";
    t.finalize();
    return t;
}

} // namespace ts
