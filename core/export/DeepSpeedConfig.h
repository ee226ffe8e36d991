#pragma once
// A plan as a DeepSpeed ds_config.json (deepspeedai/DeepSpeed tag v0.19.5: runtime/constants.py,
// runtime/config.py, runtime/zero/config.py, runtime/zero/offload_config.py,
// runtime/activation_checkpointing/config.py, runtime/tensor_parallel/config.py).

#include "export/Exporter.h"
#include "export/LaunchShape.h"

#include <nlohmann/json.hpp>

namespace ts {

nlohmann::ordered_json deepSpeedConfig(const ResolvedScenario& plan, const LaunchShape& shape,
                                       std::vector<ExportRefusal>& refusals);

} // namespace ts
