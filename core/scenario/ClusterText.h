#pragma once
// How a cluster's GPUs are named to the user ("1,024 × NVIDIA H100 SXM5 80GB"), as a message
// the app translates (common/Message.h).

#include "common/Message.h"
#include "scenario/ClusterConfig.h"

namespace ts {

// The GPU count (with thousands separators) and the GPU's name; a GPU object of the scenario
// (no catalog id) is called a custom GPU.
Message clusterGpusText(const ClusterConfig& cluster);

} // namespace ts
