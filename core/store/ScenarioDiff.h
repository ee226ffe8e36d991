#pragma once
// What changed between two versions of a scenario: the keys (dotted paths, e.g.
// "parallelism.tp") whose values differ, with both values as compact JSON ("" = absent).

#include <string>
#include <vector>

namespace ts::store {

struct KeyChange {
    std::string key;
    std::string before; // "" when the key is absent there
    std::string after;
};

// Both texts are scenario documents; a text that is not JSON counts as empty.
std::vector<KeyChange> diffScenarioTexts(const std::string& before, const std::string& after);

} // namespace ts::store
