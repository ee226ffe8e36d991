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

// `megatronFsdp`: the job runs Megatron-FSDP (--use-megatron-fsdp), whose startup check wants
// CUDA_DEVICE_MAX_CONNECTIONS other than 1 (megatronCudaConnections).
std::vector<EnvVar> launchEnvironment(const ClusterConfig& cluster, bool megatronFsdp = false);

// CUDA_DEVICE_MAX_CONNECTIONS for a Megatron-LM launch (core_v0.15.0 megatron/training/
// arguments.py): 1 orders tensor- and context-parallel communication before compute on one
// hardware queue (warned about when unset, line 959); Megatron-FSDP asserts it is not 1
// ("FSDP always requires CUDA_DEVICE_MAX_CONNECTIONS value large than one", line 715), and 8 is
// what its documentation exports (megatron/core/distributed/fsdp/README.md).
const char* megatronCudaConnections(bool megatronFsdp);

} // namespace ts
