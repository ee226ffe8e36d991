#pragma once
// The environment (CUDA, NCCL) a cluster's scale-out network needs, for Slurm scripts and
// Kubernetes pods. Variables and meanings: NCCL documentation, "Environment Variables" (NCCL 2.2x).

#include "scenario/ClusterConfig.h"

#include <string>
#include <utility>
#include <vector>

namespace ts {

struct EnvVar {
    std::string name;
    std::string value;
    std::string why; // one line, for a comment
};

std::vector<EnvVar> launchEnvironment(const ClusterConfig& cluster);

} // namespace ts
