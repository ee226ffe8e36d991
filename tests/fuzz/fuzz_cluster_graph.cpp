// cluster.graph JSON -> ClusterGraph. Invariant: what is read writes back to JSON that reads to
// the same graph.

#include "FuzzChecks.h"

#include "common/JsonText.h"
#include "scenario/ClusterGraphJson.h"

#include <cstdint>
#include <string_view>

using namespace ts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    JsonTextError error;
    auto doc = parseJsonLinear(text, error);
    if (!doc) {
        FUZZ_CHECK(!error.message.empty());
        return 0;
    }
    Diagnostics diags;
    auto graph = readClusterGraph(*doc, "/cluster/graph", diags);
    if (!graph) {
        FUZZ_CHECK(diags.hasErrors());
        return 0;
    }
    Diagnostics again;
    auto reread = readClusterGraph(clusterGraphToJson(*graph), "/cluster/graph", again);
    FUZZ_CHECK(reread && *reread == *graph);
    for (const GraphLink& l : graph->links)
        FUZZ_CHECK(fuzz::finite(l.gbPerS) && l.gbPerS > 0);
    return 0;
}
