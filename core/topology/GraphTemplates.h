#pragma once
// Templates of the topology canvas: the builders of TopologyBuilder.h written out as an
// explicit `cluster.graph` (ClusterGraph.h), with canvas positions, so that a user starts
// from a rail-optimized or rail-only cluster and edits it. The graph of a template, read
// back by buildTopology, is the builder's graph node for node and link for link (same order,
// same rates), so that the estimate does not change when a template becomes a drawing.

#include "common/Diagnostics.h"
#include "scenario/ClusterConfig.h"
#include "scenario/ClusterGraph.h"
#include "topology/Topology.h"

#include <optional>
#include <string_view>

namespace ts {

enum class GraphTemplateKind {
    NvSwitchDomain,  // one scale-up domain (an 8-GPU NVSwitch server, ...)
    Nvl72,           // racks of 72 GPUs on one NVLink domain (GB200 NVL72), rail-optimized
    RailOptimized,   // rail-optimized fat-tree
    FatTree,         // plain fat-tree (leaves hold whole servers)
    RailOnly,        // one Clos per rail, no spine between rails (Wang et al. 2307.12169)
    Torus,           // 2D/3D torus of scale-up domains
    MultiDatacenter, // rail-optimized pods joined by WAN routers
};
inline constexpr int kGraphTemplateCount = 7;
std::string_view graphTemplateName(GraphTemplateKind kind); // "rail-only", ...

struct GraphTemplateParams {
    GraphTemplateKind kind = GraphTemplateKind::RailOptimized;
    std::int64_t gpus = 1024;
    int domainGpus = 8;  // scale_up.domain_gpus
    int gpusPerNode = 8; // gpus_per_node
    int nicsPerNode = 8;
    double nicGbitPerS = 400;
    int switchRadix = 64;
    double oversubscription = 1.0;
    int tiers = 0; // 0: as few as needed
    int pods = 2;  // multi-datacenter only
    double wanGbitPerS = 3200;
    double wanLatencyUs = 500;
};

// The template's parameters as they are in `cluster` (its size, domain and network).
GraphTemplateParams templateParamsOf(const ClusterConfig& cluster, GraphTemplateKind kind);
// `base` (GPU, scale-up rate, latencies) with the template's shape: what the builder builds.
ClusterConfig templateCluster(const ClusterConfig& base, const GraphTemplateParams& params);

// The builder's graph as cluster.graph: ids from Topology::nodeName, NICs list the GPUs
// they serve, positions from layoutGraph.
ClusterGraph clusterGraphFromTopology(const Topology& topology);
// templateCluster + buildTopology + clusterGraphFromTopology; errors name the scenario key.
std::optional<ClusterGraph> buildTemplateGraph(const ClusterConfig& cluster, Diagnostics& diags);

// The topology of a drawn graph (buildTopology on a cluster holding only `graph`).
Topology topologyOfGraph(const ClusterGraph& graph);

} // namespace ts
