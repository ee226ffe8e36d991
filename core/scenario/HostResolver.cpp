#include "scenario/HostResolver.h"

#include "common/JsonObjectReader.h"

#include <cmath>

namespace ts {

bool resolveHost(const std::optional<HostInput>& input, const HostConfig* preset, HostConfig& out,
                 Diagnostics& diags) {
    out = preset ? *preset : HostConfig{};
    if (!input)
        return true;
    bool ok = true;
    auto over = [&](std::optional<double>& base, const std::optional<double>& value,
                    const char* key, const char* example) {
        if (!value)
            return;
        if (!std::isfinite(*value) || *value <= 0) {
            diags.error(std::string("/cluster/host/") + key,
                        formatNumber(*value) + " is not a positive figure: give one > 0, e.g. " +
                            example + ", or leave the key out for the preset's value");
            ok = false;
            return;
        }
        base = value;
    };
    // The examples are round figures of an 8-GPU PCIe 5.0 server, only to show the unit.
    over(out.pcieGBps, input->pcieGBps, "pcie_gb_s", "55 for PCIe 5.0 x16");
    over(out.memoryGiB, input->memoryGiB, "memory_gib", "2048");
    over(out.memoryGBps, input->memoryGBps, "memory_gb_s", "600");
    over(out.nvmeReadGBps, input->nvmeReadGBps, "nvme_read_gb_s", "50");
    over(out.nvmeWriteGBps, input->nvmeWriteGBps, "nvme_write_gb_s", "25");
    over(out.nvmeGiB, input->nvmeGiB, "nvme_gib", "30");
    return ok;
}

} // namespace ts
