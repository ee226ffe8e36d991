#include "scenario/ClusterGraphJson.h"

#include "common/JsonObjectReader.h"
#include "scenario/Limits.h"

#include <array>
#include <unordered_map>

namespace ts {

namespace {

constexpr std::array<std::string_view, 5> kNodeKinds = {"gpu", "nic", "switch", "scale-up-switch",
                                                        "router"};
constexpr std::array<std::string_view, 3> kLinkClasses = {"scale-up", "scale-out", "wan"};
// A drawn graph of a whole 2^24-GPU cluster would not be drawn; this bounds memory.
constexpr std::size_t kMaxGraphItems = 8'000'000;

std::vector<std::string_view> names(const auto& array) {
    return {array.begin(), array.end()};
}

} // namespace

std::string_view graphNodeKindName(GraphNodeKind kind) {
    return kNodeKinds[static_cast<std::size_t>(kind)];
}

std::string_view linkClassName(LinkClass cls) {
    return kLinkClasses[static_cast<std::size_t>(cls)];
}

std::optional<ClusterGraph> readClusterGraph(const Json& value, const std::string& path,
                                             Diagnostics& diags) {
    const std::size_t before = diags.errorCount();
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return std::nullopt;
    ClusterGraph g;
    r.require("nodes", "give the graph's GPUs, NICs and switches");
    r.require("links", "give the graph's links");
    const Json* nodes = r.raw("nodes");
    const Json* links = r.raw("links");
    r.finish();
    const std::string nodesPath = r.childPath("nodes"), linksPath = r.childPath("links");
    for (auto [list, p] : {std::pair{nodes, nodesPath}, std::pair{links, linksPath}})
        if (list && !list->is_array())
            diags.error(p, "expected an array, got " + jsonTypeName(*list));
        else if (list && list->size() > kMaxGraphItems)
            diags.error(p, "more than " + std::to_string(kMaxGraphItems) + " entries");
    if (diags.errorCount() > before)
        return std::nullopt;

    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; nodes && i < nodes->size(); ++i) {
        JsonObjectReader n((*nodes)[i], jsonPointerChild(nodesPath, i), diags);
        if (!n.valid())
            continue;
        GraphNode node;
        n.require("id", "a unique name, e.g. \"leaf0\"");
        n.require("kind", "one of gpu, nic, switch, scale-up-switch, router");
        node.id = n.string("id", 200).value_or("");
        const auto kind = n.choice("kind", names(kNodeKinds));
        node.kind = kind ? static_cast<GraphNodeKind>(*kind) : GraphNodeKind::Gpu;
        node.label = n.string("label", 200);
        node.x = n.number("x", -1e9, 1e9);
        node.y = n.number("y", -1e9, 1e9);
        node.pod = n.int32("pod", 0, 1'000'000);
        const bool isSwitch = node.kind == GraphNodeKind::Switch ||
                              node.kind == GraphNodeKind::ScaleUpSwitch ||
                              node.kind == GraphNodeKind::Router;
        if (isSwitch) {
            node.radix = n.int32("radix", 1, limits::kMaxSwitchRadix);
            node.tier = n.int32("tier", 1, limits::kMaxTiers + 1);
        }
        if (node.kind == GraphNodeKind::Nic) {
            n.require("gpus", "the ids of the GPUs this NIC serves, e.g. [\"g0\"]");
            if (const Json* gpus = n.raw("gpus")) {
                const std::string gp = n.childPath("gpus");
                if (!gpus->is_array() || gpus->empty())
                    diags.error(gp, "expected a non-empty array of GPU ids");
                else
                    for (std::size_t j = 0; j < gpus->size(); ++j) {
                        if ((*gpus)[j].is_string())
                            node.gpus.push_back((*gpus)[j].get<std::string>());
                        else
                            diags.error(jsonPointerChild(gp, j), "expected a GPU id string");
                    }
            }
        }
        n.finish();
        if (node.id.empty()) {
            if (n.has("id"))
                diags.error(n.childPath("id"), "must not be empty");
            continue;
        }
        if (!index.emplace(node.id, g.nodes.size()).second) {
            diags.error(n.childPath("id"), "duplicate node id \"" + node.id + "\"");
            continue;
        }
        g.nodes.push_back(std::move(node));
    }
    // NICs must name GPUs.
    for (std::size_t i = 0; nodes && i < g.nodes.size(); ++i) {
        const GraphNode& node = g.nodes[i];
        for (std::size_t j = 0; j < node.gpus.size(); ++j) {
            auto it = index.find(node.gpus[j]);
            if (it == index.end() || g.nodes[it->second].kind != GraphNodeKind::Gpu)
                diags.error(
                    jsonPointerChild(jsonPointerChild(jsonPointerChild(nodesPath, i), "gpus"), j),
                    "\"" + node.gpus[j] + "\" is not a GPU node of the graph");
        }
    }
    for (std::size_t i = 0; links && i < links->size(); ++i) {
        JsonObjectReader l((*links)[i], jsonPointerChild(linksPath, i), diags);
        if (!l.valid())
            continue;
        GraphLink link;
        l.require("from");
        l.require("to");
        l.require("class", "one of scale-up, scale-out, wan");
        l.require("gb_s", "the bandwidth per direction in GB/s, e.g. 50 for 400 Gbit/s");
        link.from = l.string("from", 200).value_or("");
        link.to = l.string("to", 200).value_or("");
        const auto cls = l.choice("class", names(kLinkClasses));
        link.linkClass = cls ? static_cast<LinkClass>(*cls) : LinkClass::ScaleOut;
        const auto bw = l.number("gb_s", limits::kBandwidthGBps);
        link.gbPerS = bw.value_or(0);
        link.latencyUs = l.number("latency_us", 0, limits::kMaxLatencyUs);
        l.finish();
        bool ok = bw.has_value();
        for (auto [end, key] : {std::pair{&link.from, "from"}, std::pair{&link.to, "to"}})
            if (!end->empty() && !index.count(*end)) {
                diags.error(l.childPath(key), "unknown node \"" + *end + "\"");
                ok = false;
            }
        if (ok && link.from == link.to) {
            diags.error(l.childPath("to"), "a link must join two different nodes");
            ok = false;
        }
        if (ok && cls) {
            const GraphNodeKind a = g.nodes[index[link.from]].kind;
            const GraphNodeKind b = g.nodes[index[link.to]].kind;
            const auto is = [&](GraphNodeKind k) { return a == k || b == k; };
            if (link.linkClass == LinkClass::ScaleUp &&
                !(is(GraphNodeKind::Gpu) || is(GraphNodeKind::ScaleUpSwitch)))
                diags.error(l.childPath("class"),
                            "a scale-up link joins GPUs or scale-up switches");
            if (link.linkClass != LinkClass::ScaleUp &&
                (is(GraphNodeKind::Gpu) || is(GraphNodeKind::ScaleUpSwitch)))
                diags.error(l.childPath("class"),
                            "GPUs reach the network through NICs (a NIC's \"gpus\"); give this "
                            "link class \"scale-up\" or attach a NIC");
        }
        if (ok && cls)
            g.links.push_back(std::move(link));
    }
    if (diags.errorCount() > before)
        return std::nullopt;
    return g;
}

Json clusterGraphToJson(const ClusterGraph& g) {
    Json nodes = Json::array();
    for (const GraphNode& n : g.nodes) {
        Json j = Json::object();
        j["id"] = n.id;
        j["kind"] = std::string(graphNodeKindName(n.kind));
        if (n.label)
            j["label"] = *n.label;
        if (n.x)
            j["x"] = *n.x;
        if (n.y)
            j["y"] = *n.y;
        if (n.pod)
            j["pod"] = *n.pod;
        if (n.radix)
            j["radix"] = *n.radix;
        if (n.tier)
            j["tier"] = *n.tier;
        if (n.kind == GraphNodeKind::Nic)
            j["gpus"] = n.gpus;
        nodes.push_back(std::move(j));
    }
    Json links = Json::array();
    for (const GraphLink& l : g.links) {
        Json j = Json::object();
        j["from"] = l.from;
        j["to"] = l.to;
        j["class"] = std::string(linkClassName(l.linkClass));
        j["gb_s"] = l.gbPerS;
        if (l.latencyUs)
            j["latency_us"] = *l.latencyUs;
        links.push_back(std::move(j));
    }
    Json out = Json::object();
    out["nodes"] = std::move(nodes);
    out["links"] = std::move(links);
    return out;
}

} // namespace ts
