#include "scenario/PipelineSplit.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

namespace ts {

bool resolvePipelineLayers(const ParallelInput& in, const ModelConfig& model, ParallelConfig& p,
                           Diagnostics& diags) {
    p.embeddingInPipelineSplit = in.embeddingInPipelineSplit.value_or(false);
    p.lossInPipelineSplit = in.lossInPipelineSplit.value_or(false);
    const std::int64_t chunks = static_cast<std::int64_t>(p.pp) * p.vpp;
    if (in.pipelineLayers && *in.pipelineLayers) {
        const auto& layers = **in.pipelineLayers;
        const std::int64_t sum = std::accumulate(layers.begin(), layers.end(), std::int64_t{0});
        if (static_cast<std::int64_t>(layers.size()) != chunks) {
            diags.error("/parallelism/pipeline_layers",
                        std::to_string(layers.size()) + " entries, but pp*vpp = " +
                            std::to_string(chunks) + ": give one layer count per pipeline chunk");
            return false;
        }
        if (sum != model.layers) {
            diags.error("/parallelism/pipeline_layers",
                        "the layer counts sum to " + std::to_string(sum) +
                            " but model.layers = " + std::to_string(model.layers));
            return false;
        }
        p.pipelineLayers = layers;
        return true;
    }
    if (p.pp == 1)
        for (const auto& [set, key] :
             {std::pair{p.embeddingInPipelineSplit, "embedding_in_pipeline_split"},
              {p.lossInPipelineSplit, "loss_in_pipeline_split"}})
            if (set)
                diags.warning(std::string("/parallelism/") + key,
                              "has no effect with pp = 1: there is no pipeline split");
    const int embedSlot = p.embeddingInPipelineSplit ? 1 : 0;
    const int lossSlot = p.lossInPipelineSplit ? 1 : 0;
    const std::int64_t slots = std::int64_t(model.layers) + embedSlot + lossSlot;
    std::string what = std::to_string(model.layers) + " layers";
    if (embedSlot + lossSlot > 0)
        what += " and " + std::to_string(embedSlot + lossSlot) +
                (embedSlot + lossSlot == 1 ? " slot" : " slots") + " for the embedding/loss";
    if (p.pp > slots || chunks >= 2 * slots) {
        diags.error(p.pp > slots ? "/parallelism/pp" : "/parallelism/vpp",
                    what + " cannot fill pp*vpp = " + std::to_string(p.pp) + "*" +
                        std::to_string(p.vpp) + " pipeline chunks: " +
                        (p.pp > slots ? "a pipeline rank would hold nothing; choose pp <= " +
                                            std::to_string(slots)
                                      : "more than half of them would be empty; choose a "
                                        "smaller vpp"));
        return false;
    }
    if (chunks > slots) {
        // Megatron places no layer on some virtual stages then (e.g. Llama 3.1 405B's 126
        // layers on pp*vpp = 128 chunks in the Megatron-Bridge recipes); the estimate runs,
        // but the split keys usually say where the empty chunks belong.
        diags.warning("/parallelism/pipeline_layers",
                      what + " do not fill pp*vpp = " + std::to_string(chunks) +
                          " pipeline chunks: the last " + std::to_string(chunks - slots) +
                          " hold no transformer layer (embedding_in_pipeline_split and "
                          "loss_in_pipeline_split give the embedding and the loss a slot each)");
    }
    const int base = static_cast<int>(slots / chunks);
    const int extra = static_cast<int>(slots % chunks);
    p.pipelineLayers.assign(static_cast<std::size_t>(chunks), base);
    for (int i = 0; i < extra; ++i)
        ++p.pipelineLayers[static_cast<std::size_t>(i)];
    // The first chunk gives its slot to the embedding, the last filled one its to the loss
    // (each holds at least one slot).
    p.pipelineLayers.front() -= embedSlot;
    p.pipelineLayers[static_cast<std::size_t>(std::min(chunks, slots) - 1)] -= lossSlot;
    if (extra != 0 && chunks <= slots)
        diags.warning("/parallelism/pipeline_layers",
                      std::to_string(slots) +
                          (embedSlot + lossSlot > 0 ? " layer slots" : " layers") +
                          " are not divisible by pp*vpp = " + std::to_string(chunks) +
                          ": the first " + std::to_string(extra) + " chunks take one layer more");
    return true;
}

} // namespace ts
