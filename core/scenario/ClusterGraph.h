#pragma once
// An explicit cluster topology drawn by the user: the `cluster.graph` object of a scenario.
// Plain data, parsed with JSON-path errors (ClusterGraphJson.h); core/topology turns it into
// a graph with routes, collective costs and a bill of materials.
//
// Format (all keys not marked optional are required):
//   {"nodes": [{"id": "g0", "kind": "gpu"},
//              {"id": "nvs0", "kind": "scale-up-switch"},
//              {"id": "n0", "kind": "nic", "gpus": ["g0"]},
//              {"id": "leaf0", "kind": "switch", "radix": 64, "tier": 1},
//              {"id": "gw0", "kind": "router"}],
//    "links": [{"from": "g0", "to": "nvs0", "class": "scale-up", "gb_s": 450},
//              {"from": "n0", "to": "leaf0", "class": "scale-out", "gb_s": 50,
//               "latency_us": 0.5}]}
// Node keys: "id" (unique), "kind" (gpu | nic | switch | scale-up-switch | router); optional
// "label", "x", "y" (canvas position), "pod" (integer), for switches "radix" (ports; the
// validator refuses more links) and "tier" (1 = leaf; default: the hop distance from the
// NICs); for NICs "gpus" (the GPU ids it serves). GPUs are ranks in the order listed.
// Link keys: "from", "to" (node ids), "class" (scale-up | scale-out | wan), "gb_s" (1e9
// bytes/s per direction), optional "latency_us" (added to scale_out.latency_us on a path).

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ts {

enum class GraphNodeKind { Gpu, Nic, Switch, ScaleUpSwitch, Router };
enum class LinkClass { ScaleUp, ScaleOut, Wan };

struct GraphNode {
    std::string id;
    GraphNodeKind kind = GraphNodeKind::Gpu;
    std::optional<std::string> label;
    std::optional<double> x, y;
    std::optional<int> pod;
    std::optional<int> radix;
    std::optional<int> tier;
    std::vector<std::string> gpus; // NIC: the GPUs it serves
    bool operator==(const GraphNode&) const = default;
};

struct GraphLink {
    std::string from, to;
    LinkClass linkClass = LinkClass::ScaleOut;
    double gbPerS = 0;
    std::optional<double> latencyUs;
    bool operator==(const GraphLink&) const = default;
};

struct ClusterGraph {
    std::vector<GraphNode> nodes;
    std::vector<GraphLink> links;
    bool operator==(const ClusterGraph&) const = default;
};

// A resolved cluster holds its graph by shared pointer (cheap to copy for plan search) with
// value equality.
struct SharedClusterGraph {
    std::shared_ptr<const ClusterGraph> graph;
    explicit operator bool() const { return graph != nullptr; }
    const ClusterGraph& operator*() const { return *graph; }
    const ClusterGraph* operator->() const { return graph.get(); }
    bool operator==(const SharedClusterGraph& o) const {
        return graph == o.graph || (graph && o.graph && *graph == *o.graph);
    }
};

} // namespace ts
