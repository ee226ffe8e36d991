#pragma once
// Level of detail for drawing large clusters: GPUs collapse into nodes (servers), nodes into
// scale-up domains, domains into scalable units of 32 (NVIDIA DGX SuperPOD reference
// architecture: 32 DGX systems per scalable unit), those into pods; network switches
// collapse into blocks of 32 per pod and tier. A drawing shows a group's members only when
// it is expanded; links between what is shown are bundled (count, summed bandwidth).

#include "scenario/ClusterGraph.h"
#include "topology/Topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

enum class GroupLevel { Pod, Unit, Domain, Node, SwitchBlock };

inline constexpr int kUnitDomains = 32; // scale-up domains per scalable unit
inline constexpr int kSwitchBlock = 32; // switches per block of one pod and tier

struct GraphGroup {
    GroupLevel level = GroupLevel::Pod;
    int parent = -1;
    std::string key;                               // stable across rebuilds: "pod0/su3/dom97"
    std::string label;                             // "domain 97"
    std::vector<int> children;                     // groups
    std::vector<int> nodes;                        // graph nodes directly inside
    std::int64_t gpus = 0, nics = 0, switches = 0; // everything below
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;         // members' bounding box
};

struct GraphHierarchy {
    std::vector<GraphGroup> groups;
    std::vector<int> groupOf;   // per node: innermost group, -1 for none
    std::vector<int> roots;     // top-level groups
    std::vector<int> rootNodes; // nodes in no group (WAN routers, stray switches)
};

// `topology` is the graph's (topologyOfGraph); nodes without a position count at (0, 0).
GraphHierarchy buildHierarchy(const ClusterGraph& graph, const Topology& topology, int gpusPerNode);

// An endpoint of what is drawn: a node (>= 0) or a collapsed group g (-(g + 1)).
inline int groupEndpoint(int group) {
    return -(group + 1);
}

struct VisibleEdge {
    int a = 0, b = 0;       // endpoints
    std::vector<int> links; // topology link indices bundled here
    double gbPerS = 0;      // summed, per direction
    LinkKind kind = LinkKind::ScaleOut;
    bool mixed = false; // links of several kinds
};

struct VisibleGraph {
    std::vector<int> nodes;  // graph nodes drawn one by one
    std::vector<int> groups; // collapsed groups drawn as one box
    std::vector<VisibleEdge> edges;
    std::vector<int> endpointOf; // per node: what it is drawn as
};

// `expanded[g]` != 0: group g shows its members (when its parents do).
VisibleGraph visibleGraph(const GraphHierarchy& hierarchy, const Topology& topology,
                          const std::vector<char>& expanded);

// Expands level by level, from the top, while the drawn nodes and groups stay within
// `budget`: a 1,024-GPU cluster opens with every GPU, a 32,768-GPU one with its units.
std::vector<char> defaultExpansion(const GraphHierarchy& hierarchy, int budget);

} // namespace ts
