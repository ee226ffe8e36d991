#pragma once
// JSON text -> the project's ordered JSON in time linear in the input.
//
// nlohmann::ordered_json keeps an object's keys in a vector and looks each one up linearly,
// so its own parser takes quadratic time on an object of many keys (100k keys: 15 s). This
// parser builds the same value through nlohmann's SAX interface, appending keys without a
// lookup and finding duplicates with one hash set per open object; a duplicate key is refused
// (with its JSON pointer) instead of the last one silently winning (RFC 8259 sec. 4: names
// "SHOULD be unique"; a typo'd copy-paste is the usual cause).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ts {

struct JsonTextError {
    std::string message;  // without position
    std::string path;     // JSON pointer of a duplicate key; "" for a syntax error
    std::size_t byte = 0; // offset of a syntax error
    bool duplicate = false;
};

std::optional<nlohmann::ordered_json> parseJsonLinear(std::string_view text, JsonTextError& error);

} // namespace ts
