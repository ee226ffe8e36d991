#include "calibration/CalibrationProfile.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ts {

namespace {

struct DtypeName {
    MatmulDtype dtype;
    const char* name;
};
constexpr std::array<DtypeName, 5> kDtypeNames{{{MatmulDtype::Tf32, "tf32"},
                                                {MatmulDtype::Fp16, "fp16"},
                                                {MatmulDtype::Bf16, "bf16"},
                                                {MatmulDtype::Fp8, "fp8"},
                                                {MatmulDtype::Fp4, "fp4"}}};

struct CollectiveNameEntry {
    Collective collective;
    const char* name;
};
constexpr std::array<CollectiveNameEntry, 5> kCollectiveNames{
    {{Collective::AllReduce, "all_reduce"},
     {Collective::AllGather, "all_gather"},
     {Collective::ReduceScatter, "reduce_scatter"},
     {Collective::AllToAll, "all_to_all"},
     {Collective::SendRecv, "send_recv"}}};

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

const char* matmulDtypeName(MatmulDtype dtype) {
    for (const auto& entry : kDtypeNames)
        if (entry.dtype == dtype)
            return entry.name;
    return "bf16";
}

std::optional<MatmulDtype> matmulDtypeFromName(const std::string& name) {
    const std::string n = lower(name);
    for (const auto& entry : kDtypeNames)
        if (n == entry.name)
            return entry.dtype;
    // PyTorch's names, as tools/calibrate and mamf-finder.py write them.
    if (n == "bfloat16" || n == "torch.bfloat16")
        return MatmulDtype::Bf16;
    if (n == "float16" || n == "half" || n == "torch.float16")
        return MatmulDtype::Fp16;
    if (n == "float32" || n == "torch.float32")
        return MatmulDtype::Tf32;
    if (n == "float8_e4m3fn" || n == "torch.float8_e4m3fn" || n == "e4m3")
        return MatmulDtype::Fp8;
    return std::nullopt;
}

const char* collectiveName(Collective collective) {
    for (const auto& entry : kCollectiveNames)
        if (entry.collective == collective)
            return entry.name;
    return "all_reduce";
}

std::optional<Collective> collectiveFromName(const std::string& name) {
    std::string n = lower(name);
    for (const auto& entry : kCollectiveNames)
        if (n == entry.name)
            return entry.collective;
    // The nccl-tests program names: all_reduce_perf, alltoall_perf, sendrecv_perf, ...
    for (const char* suffix : {"_perf_mpi", "_perf"})
        if (n.size() > std::string(suffix).size() &&
            n.compare(n.size() - std::string(suffix).size(), std::string::npos, suffix) == 0) {
            n.erase(n.size() - std::string(suffix).size());
            break;
        }
    if (n == "alltoall")
        return Collective::AllToAll;
    if (n == "sendrecv")
        return Collective::SendRecv;
    for (const auto& entry : kCollectiveNames)
        if (n == entry.name)
            return entry.collective;
    return std::nullopt;
}

const char* collectiveScopeName(CollectiveScope scope) {
    return scope == CollectiveScope::ScaleUp ? "scale_up" : "scale_out";
}

double busBandwidthFactor(Collective collective, int ranks) {
    const double n = std::max(1, ranks);
    switch (collective) {
    case Collective::AllReduce:
        return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
        return (n - 1) / n;
    case Collective::SendRecv:
        return 1.0;
    }
    return 1.0;
}

} // namespace ts
