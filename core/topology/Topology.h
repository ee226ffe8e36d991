#pragma once
// The cluster as a graph: GPUs, NICs, switches (network, scale-up, WAN routers) and the links
// between them, with bandwidth, latency and a class. Builders (TopologyBuilder.h) make one
// from a resolved cluster or from a user-drawn `cluster.graph`; routes, collective costs and
// the bill of materials read it. Plain vectors with a compressed adjacency: a 32,768-GPU
// rail-optimized fat-tree is ~70k nodes and ~200k links. Boost.Graph is used behind the .cpp
// files only (validation), so that this header stays light.

#include "common/Diagnostics.h"
#include "scenario/ClusterGraph.h"
#include "scenario/Enums.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

using NodeKind = GraphNodeKind;

// Host: a GPU to one of its NICs (PCIe; not part of the network).
enum class LinkKind { Host, ScaleUp, ScaleOut, Wan };

struct TopoNode {
    NodeKind kind = NodeKind::Gpu;
    int radix = 0;   // switches: ports; 0 = not limited (logical scale-up fabric, WAN router)
    int tier = -1;   // network level: NIC 0, leaf 1, spine 2, ...; -1 outside the network
    int pod = 0;     // datacenter (multi-datacenter builder)
    int domain = -1; // GPUs and NICs: scale-up domain
    int rail = -1;   // NICs: index within their scale-up domain
};

struct TopoLink {
    int a = 0, b = 0;
    LinkKind kind = LinkKind::ScaleOut;
    double gbPerS = 0;    // per direction
    double latencyUs = 0; // added to the cluster's scale-out latency on a path
};

struct Topology {
    std::string description; // e.g. "rail-optimized fat-tree, 3 tiers, radix 64"
    ScaleOutTopology kind = ScaleOutTopology::RailOptimized;
    int tiers = 0; // switch tiers of one pod's fabric
    int pods = 1;
    int domainGpus = 1;
    std::vector<TopoNode> nodes;
    std::vector<TopoLink> links;
    std::vector<int> gpuNodes;       // rank -> node
    std::vector<std::string> names;  // node names (explicit graphs), else empty
    std::vector<int> scaleUpDomains; // per GPU rank: scale-up domain index

    int addNode(const TopoNode& node) {
        nodes.push_back(node);
        return static_cast<int>(nodes.size()) - 1;
    }
    void addLink(int a, int b, LinkKind kind, double gbPerS, double latencyUs = 0) {
        links.push_back({a, b, kind, gbPerS, latencyUs});
    }
    std::string nodeName(int node) const;

    // Derived by finalize(): adjacency (links of node v are adjLinks[adjStart[v] ..
    // adjStart[v + 1])), per-switch uplink ratio, per-GPU NIC share.
    std::vector<int> adjStart, adjLinks;
    std::vector<float> upRatio;     // per node: min(1, uplink / downlink capacity)
    std::vector<double> nicsPerGpu; // per GPU rank: NICs, each divided by the GPUs sharing it
    void finalize();
    int other(int link, int node) const {
        const TopoLink& l = links[static_cast<std::size_t>(link)];
        return l.a == node ? l.b : l.a;
    }
};

// Structural checks, each with a clear error at `path`: every GPU reaches every other
// (through scale-up links or the network), no switch has more links than its radix, every
// GPU of a multi-domain cluster has a NIC.
bool validateTopology(const Topology& topology, const std::string& path, Diagnostics& diags);

} // namespace ts
