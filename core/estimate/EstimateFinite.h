#pragma once
// Every number in an estimate is finite, or the scenario is refused: an infinite step or a
// NaN share means some input reached past what the model can represent, and a planner must
// say so rather than print "inf s" or a null where the format promises a number.

#include "estimate/Estimate.h"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ts {

// The JSON pointer of the first number in `estimate` (estimateToJson) that is NaN or
// infinite; nullopt when all are finite.
std::optional<std::string> firstNonFiniteNumber(const nlohmann::ordered_json& estimate);

// Why an estimate whose number at `where` (a JSON pointer into estimateToJson) is not finite is
// refused: the one message the CLI and the app give.
std::string nonFiniteEstimateMessage(const std::string& where);

// That message for the first non-finite number of `estimate`; nullopt when all are finite.
std::optional<std::string> nonFiniteEstimateError(const Estimate& estimate);

} // namespace ts
