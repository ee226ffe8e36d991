#pragma once
// The network of a cluster over pools, for the topology canvas (issue 32 item 6): each pool's
// own template network (topology/GraphTemplates.h) as one group (its nodes' `pod`, its GPUs
// labelled with the pool's id), the groups joined through one router by the link between pools
// (cluster.pool_link_gbit_s, else each node's NICs), laid out by topology/GraphLayout.h.

#include "common/Diagnostics.h"
#include "scenario/ClusterGraph.h"
#include "scenario/PoolConfig.h"

#include <optional>

namespace ts {

std::optional<ClusterGraph> poolsGraph(const HeteroConfig& hetero, Diagnostics& diags);

} // namespace ts
