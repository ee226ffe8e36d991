#include "estimate/ExecutionWarnings.h"

#include "scenario/Enums.h"

namespace ts {

std::vector<Message> executionNotModelledWarnings(const ExecutionConfig& execution,
                                                  bool selectiveRecompute) {
    const ExecutionConfig defaults;
    std::vector<Message> out;
    auto add = [&out](MessageId id, std::vector<std::string> args = {}) {
        out.push_back(message(id, std::move(args)));
    };
    if (execution.moeDispatcher != defaults.moeDispatcher)
        add(MessageId::MoeDispatcherNotModelled, {std::string(enumName(execution.moeDispatcher))});
    if (execution.moeGroupedGemm != defaults.moeGroupedGemm)
        add(MessageId::MoeGroupedGemmNotModelled,
            {std::string(enumName(execution.moeGroupedGemm))});
    if (execution.moeForceBalance != defaults.moeForceBalance)
        add(MessageId::MoeForceBalanceNotModelled);
    if (execution.cudaGraphs != defaults.cudaGraphs)
        add(MessageId::CudaGraphsNotModelled, {std::string(enumName(execution.cudaGraphs))});
    if (execution.fp8Attention != defaults.fp8Attention)
        add(MessageId::Fp8AttentionNotModelled);
    if (execution.hostLaunchUs != defaults.hostLaunchUs)
        add(MessageId::HostLaunchNotModelled, {std::to_string(execution.hostLaunchUs)});
    const bool onlyCoreAttention =
        execution.recomputeModules.size() == 1 && execution.recomputes(RecomputeModule::CoreAttn);
    if (selectiveRecompute && !onlyCoreAttention)
        add(MessageId::RecomputeModulesNotModelled);
    return out;
}

} // namespace ts
