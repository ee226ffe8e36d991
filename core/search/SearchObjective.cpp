// Objectives of a plan search (search/PlanSearch.h).

#include "search/PlanSearch.h"

#include <array>
#include <utility>

namespace ts {

namespace {

constexpr std::array<std::pair<SearchObjective, const char*>, 6> kObjectiveNames{{
    {SearchObjective::StepTime, "step-time"},
    {SearchObjective::TokensPerSecond, "tokens-per-s"},
    {SearchObjective::TimeToTrain, "time-to-train"},
    {SearchObjective::CostPerToken, "cost-per-token"},
    {SearchObjective::CostPerRun, "cost-per-run"},
    {SearchObjective::EnergyPerRun, "energy-per-run"},
}};

} // namespace

std::optional<SearchObjective> searchObjectiveFromName(const std::string& name) {
    for (const auto& [objective, text] : kObjectiveNames)
        if (name == text)
            return objective;
    return std::nullopt;
}

std::string searchObjectiveName(SearchObjective objective) {
    for (const auto& [o, text] : kObjectiveNames)
        if (o == objective)
            return text;
    return "step-time";
}

bool objectiveNeedsTokens(SearchObjective objective) {
    return objective == SearchObjective::TimeToTrain || objective == SearchObjective::CostPerRun ||
           objective == SearchObjective::EnergyPerRun;
}

std::optional<double> objectiveValue(SearchObjective objective, const Estimate& e) {
    switch (objective) {
    case SearchObjective::StepTime:
        return e.stepSeconds;
    case SearchObjective::TokensPerSecond:
        return -e.tokensPerS;
    case SearchObjective::TimeToTrain:
        return e.trainDays;
    case SearchObjective::CostPerToken:
        return e.usdPerMillionTokens;
    case SearchObjective::CostPerRun:
        return e.trainUsd;
    case SearchObjective::EnergyPerRun:
        return e.trainKwh;
    }
    return std::nullopt;
}

} // namespace ts
