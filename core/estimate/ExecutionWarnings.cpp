#include "estimate/ExecutionWarnings.h"

#include "scenario/Enums.h"

namespace ts {

namespace {

std::string notModelled(const char* key, std::string_view value, const char* assumed) {
    return std::string("/execution/") + key + ": " + std::string(value) +
           " is read but its effect is not modelled yet; the step time assumes " + assumed;
}

} // namespace

std::vector<std::string> executionNotModelledWarnings(const ExecutionConfig& execution,
                                                      bool selectiveRecompute) {
    const ExecutionConfig defaults;
    std::vector<std::string> out;
    if (execution.moeDispatcher != defaults.moeDispatcher)
        out.push_back(notModelled("moe_dispatcher", enumName(execution.moeDispatcher),
                                  "one all-to-all per dispatch and combine"));
    if (execution.moeGroupedGemm != defaults.moeGroupedGemm)
        out.push_back(notModelled("moe_grouped_gemm", enumName(execution.moeGroupedGemm),
                                  "grouped expert GEMMs"));
    if (execution.moeForceBalance != defaults.moeForceBalance)
        out.push_back(notModelled("moe_force_balance", "true", "an expert imbalance of 1.1"));
    if (execution.cudaGraphs != defaults.cudaGraphs)
        out.push_back(
            notModelled("cuda_graphs", enumName(execution.cudaGraphs), "no host launch cost"));
    if (execution.fp8Attention != defaults.fp8Attention)
        out.push_back(notModelled("fp8_attention", "true", "attention in BF16"));
    if (execution.hostLaunchUs != defaults.hostLaunchUs)
        out.push_back(notModelled("host_launch_us", std::to_string(execution.hostLaunchUs),
                                  "no host launch cost"));
    const bool onlyCoreAttention =
        execution.recomputeModules.size() == 1 && execution.recomputes(RecomputeModule::CoreAttn);
    if (selectiveRecompute && !onlyCoreAttention)
        out.push_back(notModelled("recompute_modules", "a list other than [\"core_attn\"]",
                                  "selective recompute of core attention"));
    return out;
}

} // namespace ts
