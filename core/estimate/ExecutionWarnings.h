#pragma once
// What the estimate says about the execution section (shared/spec/scenario-format.md,
// "Execution keys") where the model does not use a key: the dispatcher, the expert GEMMs,
// force balancing, CUDA graphs and the host launch cost are modelled (estimate/RoutedExperts.h,
// estimate/HostTimeline.h), and recompute_modules' time and memory
// (estimate/RecomputeModulesMemory.h); FP8 attention is not, nor recompute_modules' memory
// under a PyTorch-native recipe's op-level checkpointing (its own save list).

#include "common/Message.h"
#include "scenario/ExecutionConfig.h"

#include <string>
#include <vector>

namespace ts {

// One warning per such key that differs from the format's default. Empty when every key has
// its default.
std::vector<Message> executionNotModelledWarnings(const ExecutionConfig& execution,
                                                  bool selectiveRecompute, bool opLevelSelective);

} // namespace ts
