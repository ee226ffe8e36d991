#pragma once
// Scenarios for the topology canvas's GUI test and benchmark: Llama 3 8B on `gpus` DGX H100
// with TP 8, PP 4 and the rest data parallel, on a given scale-out topology.

#include "catalog/Catalog.h"
#include "scenario/ScenarioIO.h"

#include <optional>
#include <string>

namespace ts::test {

inline std::optional<Scenario> canvasScenario(long long gpus, const char* topology) {
    const long long dp = gpus / 32;
    const std::string text = R"({"format": "trainscape.scenario/1", "name": "canvas",
      "model": {"preset": "llama3-8b"},
      "cluster": {"preset": "dgx-h100", "num_gpus": )" +
                             std::to_string(gpus) + R"(,
                  "scale_out": {"topology": ")" +
                             topology +
                             R"("}},
      "training": {"seq_len": 8192, "global_batch": )" +
                             std::to_string(dp * 2) + R"(, "precision": "bf16"},
      "parallelism": {"tp": 8, "pp": 4, "dp": )" +
                             std::to_string(dp) + R"(, "zero": 1}})";
    Diagnostics diags;
    return parseScenarioText(text, diags);
}

} // namespace ts::test
