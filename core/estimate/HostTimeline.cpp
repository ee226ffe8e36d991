#include "estimate/HostTimeline.h"

#include <algorithm>

namespace ts {

double hostExposedSeconds(const ExecutionConfig& execution, const PassTimelineInput& pass) {
    if (execution.cudaGraphs == CudaGraphs::Full)
        return 0.0;
    const double launch = execution.hostLaunchUs * 1e-6;
    const double expertGpu = std::min(pass.expertGpuSeconds, pass.gpuSeconds);
    const double otherGpu = pass.gpuSeconds - expertGpu;
    const double expertKernels = std::min(pass.expertKernels, pass.kernels);
    // Per-layer graphs replay the captured part with one launch.
    const double otherHost = execution.cudaGraphs == CudaGraphs::Layers
                                 ? launch
                                 : launch * (pass.kernels - expertKernels);
    const double expertHost = launch * expertKernels;
    double seconds = 0;
    if (pass.syncs > 0) {
        // The sync splits the pass; a blended layer (pass.syncs < 1) is that share of synced
        // MoE layers and the rest free-running.
        const double synced = std::max(otherGpu, otherHost) + kHostSyncDrainUs * 1e-6 +
                              std::max(expertGpu, expertHost);
        const double free = std::max(pass.gpuSeconds, otherHost + expertHost);
        const double share = std::min(1.0, pass.syncs);
        seconds = share * synced + (1.0 - share) * free;
    } else {
        seconds = std::max(pass.gpuSeconds, otherHost + expertHost);
    }
    return std::max(0.0, seconds - pass.gpuSeconds);
}

} // namespace ts
