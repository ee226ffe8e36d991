#pragma once
// What the estimate says about the execution section (shared/spec/scenario-format.md,
// "Execution keys") while the step-time model does not yet use it.

#include "common/Message.h"
#include "scenario/ExecutionConfig.h"

#include <string>
#include <vector>

namespace ts {

// One warning per execution key that differs from the format's default: the key is read,
// checked and kept, but its effect on step time and memory is not modelled yet, so the estimate
// assumes the default execution. Empty when every key has its default.
std::vector<Message> executionNotModelledWarnings(const ExecutionConfig& execution,
                                                  bool selectiveRecompute);

} // namespace ts
