#include "scenario/ClusterText.h"

#include <string>

namespace ts {

namespace {

std::string groupedDigits(std::int64_t value) {
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

Message clusterGpusText(const ClusterConfig& cluster) {
    return message(cluster.gpuId.empty() ? MessageId::ClusterCustomGpus : MessageId::ClusterGpus,
                   {groupedDigits(cluster.numGpus), cluster.gpu.name});
}

} // namespace ts
