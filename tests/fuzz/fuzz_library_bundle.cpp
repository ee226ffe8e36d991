// A library bundle ("trainscape.library-bundle/1", store/LibraryBundle.h). Invariants: a
// refusal says why; a bundle that parses imports whole into an empty library (the checks run
// before anything is written, so no scenario is refused half-way); exporting what was imported
// gives the same records (names, tags, versions with their notes and scenarios, estimates).

#include "FuzzChecks.h"

#include "store/LibraryBundle.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

using namespace ts;
using namespace ts::store;

namespace {

std::vector<std::string> tagSet(std::vector<std::string> tags) {
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    return tags;
}

void checkSame(const ScenarioRecord& in, const ScenarioRecord& out) {
    FUZZ_CHECK(in.name == out.name);
    FUZZ_CHECK(in.createdAt.empty() || in.createdAt == out.createdAt);
    FUZZ_CHECK(tagSet(in.tags) == tagSet(out.tags));
    FUZZ_CHECK(in.versions.size() == out.versions.size());
    for (std::size_t i = 0; i < in.versions.size(); ++i) {
        FUZZ_CHECK(in.versions[i].info.number == out.versions[i].info.number);
        FUZZ_CHECK(in.versions[i].info.note == out.versions[i].info.note);
        FUZZ_CHECK(in.versions[i].info.createdAt == out.versions[i].info.createdAt);
        FUZZ_CHECK(in.versions[i].scenarioJson == out.versions[i].scenarioJson);
    }
    FUZZ_CHECK(in.estimates.size() == out.estimates.size());
    for (std::size_t i = 0; i < in.estimates.size(); ++i) {
        FUZZ_CHECK(in.estimates[i].first == out.estimates[i].first);
        FUZZ_CHECK(in.estimates[i].second.estimatorVersion ==
                   out.estimates[i].second.estimatorVersion);
        FUZZ_CHECK(in.estimates[i].second.estimateJson == out.estimates[i].second.estimateJson);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto records = parseBundle(text);
    if (!records) {
        FUZZ_CHECK(!records.error().message.empty());
        return 0;
    }
    auto library = openLibrary(":memory:");
    FUZZ_CHECK(library);
    auto ids = importBundle(**library, text);
    if (!ids)
        std::fprintf(stderr, "import refused a bundle that parses: %s\n",
                     ids.error().message.c_str());
    FUZZ_CHECK(ids && ids->size() == records->size());
    auto exported = exportBundle(**library, *ids);
    FUZZ_CHECK(exported);
    auto again = parseBundle(*exported);
    FUZZ_CHECK(again && again->size() == records->size());
    for (std::size_t i = 0; i < records->size(); ++i)
        checkSame((*records)[i], (*again)[i]);
    return 0;
}
