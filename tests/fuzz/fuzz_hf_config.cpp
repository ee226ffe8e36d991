// A Hugging Face config.json -> the scenario's "model" object. Invariants: a refusal says why;
// an accepted config gives a model object that the scenario reader takes.

#include "FuzzChecks.h"

#include "HuggingFaceConfig.h"

#include "scenario/ScenarioIO.h"

#include <QByteArray>

#include <cstdint>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray text(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const gui::HuggingFaceImport import = gui::HuggingFaceConfig::fromText(text);
    if (!import.model) {
        FUZZ_CHECK(!import.error.isEmpty());
        return 0;
    }
    nlohmann::ordered_json doc = {{"format", "trainscape.scenario/1"},
                                  {"model", *import.model},
                                  {"cluster", {{"preset", "dgx-h100"}, {"num_gpus", 8}}},
                                  {"training", {{"seq_len", 4096}, {"global_batch", 8}}}};
    Diagnostics diags;
    auto scenario = scenarioFromJson(doc, diags);
    FUZZ_CHECK(scenario || diags.hasErrors());
    return 0;
}
