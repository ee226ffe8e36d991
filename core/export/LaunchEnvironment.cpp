#include "export/LaunchEnvironment.h"

namespace ts {

const char* megatronCudaConnections(bool megatronFsdp) {
    return megatronFsdp ? "8" : "1";
}

std::vector<EnvVar> launchEnvironment(const ClusterConfig& cluster, bool megatronFsdp) {
    std::vector<EnvVar> env;
    env.push_back({"CUDA_DEVICE_MAX_CONNECTIONS", megatronCudaConnections(megatronFsdp),
                   megatronFsdp ? "Megatron-FSDP overlaps its gathers on several hardware queues "
                                  "(its startup check refuses 1)"
                                : "Megatron-Core orders TP communication before compute on one "
                                  "stream"});
    env.push_back({"NCCL_IB_HCA", "mlx5",
                   "InfiniBand/RoCE HCAs NCCL may use (prefix match; list yours, e.g. "
                   "mlx5_0,mlx5_1)"});
    env.push_back({"NCCL_SOCKET_IFNAME", "^lo,docker",
                   "bootstrap and fallback sockets: every interface but loopback and docker"});
    const auto topology = cluster.scaleOut.topology;
    if (topology == ScaleOutTopology::RailOptimized || topology == ScaleOutTopology::RailOnly) {
        // Rings and trees keep each GPU on its own rail's NIC; cross-rail traffic moves over
        // NVLink first (PXN), which a rail-only network needs since it has no spine.
        env.push_back(
            {"NCCL_CROSS_NIC", "0", "rail-aligned rings: GPU k of every node talks through NIC k"});
        env.push_back(
            {"NCCL_PXN_DISABLE", "0", "PXN: reach another rail through an NVLink peer's NIC"});
    } else {
        env.push_back(
            {"NCCL_CROSS_NIC", "1", "a fat-tree or torus lets rings cross NICs between nodes"});
    }
    env.push_back(
        {"NCCL_NET_GDR_LEVEL", "PHB", "GPUDirect RDMA when GPU and NIC share a PCIe host bridge"});
    env.push_back({"NCCL_IB_QPS_PER_CONNECTION",
                   std::to_string(cluster.scaleOut.nicGbitPerS >= 400 ? 4 : 2),
                   "queue pairs per connection: more spread load over ECMP paths at 400G+"});
    env.push_back({"TORCH_NCCL_ASYNC_ERROR_HANDLING", "1",
                   "fail fast on a hung collective instead of waiting for the timeout"});
    return env;
}

} // namespace ts
