#pragma once
// Reading and writing `cluster.graph` (format in ClusterGraph.h). Every error names the JSON
// path of its cause, e.g. /cluster/graph/links/3/to: "unknown node \"leaf9\"".

#include "common/Diagnostics.h"
#include "scenario/ClusterGraph.h"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ts {

std::optional<ClusterGraph> readClusterGraph(const nlohmann::ordered_json& value,
                                             const std::string& path, Diagnostics& diags);
nlohmann::ordered_json clusterGraphToJson(const ClusterGraph& graph);

std::string_view graphNodeKindName(GraphNodeKind kind);
std::string_view linkClassName(LinkClass cls);

} // namespace ts
