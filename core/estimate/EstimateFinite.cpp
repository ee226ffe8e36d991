#include "estimate/EstimateFinite.h"

#include "common/Diagnostics.h"
#include "estimate/EstimateJson.h"

#include <cmath>

namespace ts {

namespace {

bool findNonFinite(const nlohmann::ordered_json& value, const std::string& path,
                   std::string& where) {
    if (value.is_number_float()) {
        if (std::isfinite(value.get<double>()))
            return false;
        where = path;
        return true;
    }
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            if (findNonFinite(*it, jsonPointerChild(path, it.key()), where))
                return true;
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            if (findNonFinite(value[i], jsonPointerChild(path, i), where))
                return true;
    }
    return false;
}

} // namespace

std::optional<std::string> firstNonFiniteNumber(const nlohmann::ordered_json& estimate) {
    std::string where;
    if (findNonFinite(estimate, "", where))
        return where;
    return std::nullopt;
}

std::string nonFiniteEstimateMessage(const std::string& where) {
    return "the estimate's " + where +
           " is not a finite number: the scenario's figures are beyond what the model can "
           "represent (see the accepted ranges in core/scenario/Limits.h)";
}

std::optional<std::string> nonFiniteEstimateError(const Estimate& estimate) {
    if (const auto where = firstNonFiniteNumber(estimateToJson(estimate)))
        return nonFiniteEstimateMessage(*where);
    return std::nullopt;
}

} // namespace ts
