#pragma once
// Typed, path-aware reading of one JSON object. Every getter records its key as allowed,
// so that finish() can reject the keys nobody asked for (with a "did you mean" hint).
// A getter returns std::nullopt when the key is absent or null, and also when the value is
// invalid, in which case it has recorded an error naming the key's JSON path and the
// accepted range or values.

#include "common/Diagnostics.h"
#include "common/Range.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts {

using Json = nlohmann::ordered_json;

// "an integer", "a string", ... for messages.
std::string jsonTypeName(const Json& value);
// A short rendering of a value for messages, cut at ~40 characters.
std::string jsonPreview(const Json& value);
// Formats a number without trailing zeros (8, 0.5, 1e+15).
std::string formatNumber(double value);

class JsonObjectReader {
public:
    // `what` names the object in messages, e.g. "the model".
    JsonObjectReader(const Json& value, std::string path, Diagnostics& diags);

    bool valid() const { return object_ != nullptr; }
    const std::string& path() const { return path_; }
    std::string childPath(std::string_view key) const;
    Diagnostics& diagnostics() { return diags_; }

    // Presence; these also mark the key as allowed.
    bool has(std::string_view key);    // present (null counts as present)
    bool isNull(std::string_view key); // present and null
    const Json* raw(std::string_view key);

    // Records an error when the key is absent (or null, unless nullAllowed).
    bool require(std::string_view key, std::string_view hint = {});

    std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max);
    std::optional<int> int32(std::string_view key, int min, int max);
    // A finite number in [min, max]; with minExclusive the bound itself is refused.
    std::optional<double> number(std::string_view key, double min, double max,
                                 bool minExclusive = false);
    // The same within a named range (scenario/Limits.h): a refusal also quotes its reason.
    std::optional<std::int64_t> integer(std::string_view key, const limits::IntRange& range);
    std::optional<int> int32(std::string_view key, const limits::IntRange& range);
    std::optional<double> number(std::string_view key, const limits::RealRange& range);
    std::optional<std::string> string(std::string_view key, std::size_t maxLength = 4096);
    std::optional<bool> boolean(std::string_view key);
    // One of `choices` (a string); the message lists them.
    std::optional<std::size_t> choice(std::string_view key,
                                      const std::vector<std::string_view>& choices);
    template <class E, class Names> std::optional<E> enumeration(std::string_view key) {
        const auto& names = Names::names;
        auto index = choice(key, std::vector<std::string_view>(names.begin(), names.end()));
        if (!index)
            return std::nullopt;
        return static_cast<E>(*index);
    }

    // Rejects every key not asked for so far.
    void finish();

private:
    const Json* lookup(std::string_view key);
    // Runs `read`, and adds `reason` to the error it records, if any.
    template <class F> auto withReason(const char* reason, F read);
    void typeError(std::string_view key, const Json& value, std::string_view expected);

    const Json* object_ = nullptr;
    std::string path_;
    Diagnostics& diags_;
    std::set<std::string, std::less<>> allowed_;
};

// Levenshtein distance, for "did you mean" hints.
std::size_t editDistance(std::string_view a, std::string_view b);

} // namespace ts
