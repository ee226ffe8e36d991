#include "scenario/ClusterText.h"

#include "common/TextFormat.h"

namespace ts {

Message clusterGpusText(const ClusterConfig& cluster) {
    return message(cluster.gpuId.empty() ? MessageId::ClusterCustomGpus : MessageId::ClusterGpus,
                   {withThousands(cluster.numGpus), cluster.gpu.name});
}

} // namespace ts
