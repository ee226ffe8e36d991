#pragma once
// cluster.pools, cluster.pool_link_gbit_s and parallelism.pipelines (shared/spec/
// scenario-format.md, "Heterogeneous clusters"): read and written in the spec's key order.

#include "common/JsonObjectReader.h"
#include "scenario/Scenario.h"

namespace ts {

// Reads "pools" and "pool_link_gbit_s" of the cluster object `r`.
void readPools(JsonObjectReader& r, ClusterInput& out);
void writePools(const ClusterInput& in, Json& cluster);

// Reads "pipelines" of the parallelism object `r`.
void readPipelines(JsonObjectReader& r, ParallelInput& out);
void writePipelines(const ParallelInput& in, Json& parallelism);

} // namespace ts
