#pragma once
// Resolution of fine-tuning: the "finetune" section and the training keys it brings
// (optimizer_in_backward, compile, master_weights), with the rules that need the model, the
// GPU and the plan: a LoRA target the model lacks, a rank of 0 or above the hidden size, a
// quantised base on full fine-tuning, BF16 on a GPU without it.

#include "common/Diagnostics.h"
#include "scenario/ResolvedScenario.h"
#include "scenario/Scenario.h"

namespace ts {

// Fills r.training's fine-tuning fields and r.finetune from `s`; r.model, r.cluster,
// r.training and r.parallel are resolved already. False after an error.
bool resolveFinetune(const Scenario& s, ResolvedScenario& r, Diagnostics& diags);

} // namespace ts
