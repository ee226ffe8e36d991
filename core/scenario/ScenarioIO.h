#pragma once
// Reading and writing scenario files (format v1, shared/spec/scenario-format.md).
// Reading never throws: every problem becomes a Diagnostic with its JSON path. Hostile
// input (huge, deeply nested, non-UTF-8, non-JSON) is refused with a clear message.

#include "common/Diagnostics.h"
#include "scenario/Scenario.h"

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts {

inline constexpr std::size_t kMaxDocumentBytes = 16u << 20; // 16 MiB
inline constexpr int kMaxNestingDepth = 64;

// Parses JSON text with the limits above. Syntax errors name line and column.
std::optional<nlohmann::ordered_json> parseJsonText(std::string_view text, Diagnostics& diags);

// Typed reading of a parsed document: types, ranges, enums, unknown keys (with a
// "did you mean" hint). Cross-field consistency is checked by resolveScenario().
std::optional<Scenario> scenarioFromJson(const nlohmann::ordered_json& doc, Diagnostics& diags);
nlohmann::ordered_json scenarioToJson(const Scenario& scenario);

std::optional<Scenario> parseScenarioText(std::string_view text, Diagnostics& diags);
std::string scenarioToText(const Scenario& scenario); // pretty, 2-space indent, final newline

// Reads a file; a missing or unreadable file is a diagnostic at path "".
std::optional<std::string> readTextFile(const std::string& path, Diagnostics& diags);
std::optional<Scenario> loadScenarioFile(const std::string& path, Diagnostics& diags);

// Writes with writeFileAtomically() (common/AtomicFile.h): a crash, a full disk or a planted
// link never loses the file. Returns false with `error` set.
bool writeTextFileAtomically(const std::string& path, const std::string& text, std::string& error);
bool saveScenarioFile(const std::string& path, const Scenario& scenario, std::string& error);

} // namespace ts
