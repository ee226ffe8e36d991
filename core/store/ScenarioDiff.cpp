#include "store/ScenarioDiff.h"

#include <map>

#include <nlohmann/json.hpp>

namespace ts::store {

namespace {

void flatten(const nlohmann::json& value, const std::string& key,
             std::map<std::string, std::string>& out) {
    if (value.is_object() && !value.empty()) {
        for (const auto& [child, v] : value.items())
            flatten(v, key.empty() ? child : key + "." + child, out);
        return;
    }
    if (!key.empty())
        out[key] = value.dump();
}

std::map<std::string, std::string> flattened(const std::string& text) {
    std::map<std::string, std::string> out;
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_discarded())
        flatten(doc, "", out);
    return out;
}

} // namespace

std::vector<KeyChange> diffScenarioTexts(const std::string& before, const std::string& after) {
    const auto a = flattened(before), b = flattened(after);
    std::vector<KeyChange> changes;
    auto ia = a.begin();
    auto ib = b.begin();
    while (ia != a.end() || ib != b.end()) {
        if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
            changes.push_back({ia->first, ia->second, ""});
            ++ia;
        } else if (ia == a.end() || ib->first < ia->first) {
            changes.push_back({ib->first, "", ib->second});
            ++ib;
        } else {
            if (ia->second != ib->second)
                changes.push_back({ia->first, ia->second, ib->second});
            ++ia;
            ++ib;
        }
    }
    return changes;
}

} // namespace ts::store
