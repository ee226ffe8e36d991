#include "estimate/ExecutionWarnings.h"

#include "scenario/Enums.h"

namespace ts {

std::vector<Message> executionNotModelledWarnings(const ExecutionConfig& execution,
                                                  bool selectiveRecompute, bool opLevelSelective) {
    const ExecutionConfig defaults;
    std::vector<Message> out;
    auto add = [&out](MessageId id, std::vector<std::string> args = {}) {
        out.push_back(message(id, std::move(args)));
    };
    if (execution.fp8Attention != defaults.fp8Attention)
        add(MessageId::Fp8AttentionNotModelled);
    const bool onlyCoreAttention =
        execution.recomputeModules.size() == 1 && execution.recomputes(RecomputeModule::CoreAttn);
    if (selectiveRecompute && opLevelSelective && !onlyCoreAttention)
        add(MessageId::RecomputeModulesNotModelled);
    return out;
}

} // namespace ts
