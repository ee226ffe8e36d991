#pragma once
// A whole library, or chosen scenarios, as one JSON document ("trainscape.library-bundle/1"):
// every scenario with its tags, versions (time, note, the scenario itself) and cached
// estimates. Import checks the whole bundle (naming the JSON path of each problem) before it
// writes anything, then inserts one scenario per transaction, each under a new id.
//
// {"format": "trainscape.library-bundle/1", "trainscape_version": "0.1.0",
//  "exported_at": "2026-12-01T20:47:03.123Z", "source": "sqlite:/home/me/library.sqlite",
//  "scenarios": [{"id": 1, "name": "...", "created_at": "...", "tags": ["h100"],
//                 "versions": [{"number": 1, "created_at": "...", "note": "...",
//                               "scenario": {...}}],
//                 "estimates": [{"version": 1, "estimator_version": "...",
//                                "computed_at": "...", "estimate": {...}}]}]}

#include "store/Library.h"

#include <string>
#include <vector>

namespace ts::store {

inline constexpr const char* kBundleFormat = "trainscape.library-bundle/1";

// `ids` empty = every scenario.
Result<std::string> exportBundle(Library& library, const std::vector<ScenarioId>& ids);

// The records of a bundle's text, checked; errors name the JSON path.
Result<std::vector<ScenarioRecord>> parseBundle(const std::string& text);

// Returns the new ids, in the bundle's order.
Result<std::vector<ScenarioId>> importBundle(Library& library, const std::string& text);

} // namespace ts::store
