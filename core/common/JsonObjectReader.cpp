#include "common/JsonObjectReader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts {

std::string jsonTypeName(const Json& value) {
    switch (value.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return "an integer";
    case Json::value_t::number_float:
        return "a number";
    default:
        return "an unsupported value";
    }
}

std::string jsonPreview(const Json& value) {
    std::string text;
    try {
        text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    } catch (...) {
        text = "?";
    }
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text;
}

std::string formatNumber(double value) {
    if (std::isfinite(value) && std::fabs(value) < 1e15 && value == std::floor(value))
        return std::to_string(static_cast<long long>(value));
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

JsonObjectReader::JsonObjectReader(const Json& value, std::string path, Diagnostics& diags)
    : path_(std::move(path)), diags_(diags) {
    if (value.is_object())
        object_ = &value;
    else
        diags_.error(path_, "expected an object, got " + jsonTypeName(value) + " (" +
                                jsonPreview(value) + ")");
}

std::string JsonObjectReader::childPath(std::string_view key) const {
    return jsonPointerChild(path_, std::string(key));
}

const Json* JsonObjectReader::lookup(std::string_view key) {
    allowed_.emplace(key);
    if (!object_)
        return nullptr;
    auto it = object_->find(std::string(key));
    return it == object_->end() ? nullptr : &*it;
}

bool JsonObjectReader::has(std::string_view key) {
    return lookup(key) != nullptr;
}

bool JsonObjectReader::isNull(std::string_view key) {
    const Json* value = lookup(key);
    return value && value->is_null();
}

const Json* JsonObjectReader::raw(std::string_view key) {
    return lookup(key);
}

bool JsonObjectReader::require(std::string_view key, std::string_view hint) {
    const Json* value = lookup(key);
    if (value && !value->is_null())
        return true;
    if (!object_)
        return false;
    Message message = ts::message(value ? MessageId::MustNotBeNull : MessageId::RequiredMissing);
    if (!hint.empty())
        message = plainMessage(message.english + "; " + std::string(hint));
    diags_.error(childPath(key), std::move(message));
    return false;
}

void JsonObjectReader::typeError(std::string_view key, const Json& value,
                                 std::string_view expected) {
    diags_.error(childPath(key), "expected " + std::string(expected) + ", got " +
                                     jsonTypeName(value) + " (" + jsonPreview(value) + ")");
}

std::optional<std::int64_t> JsonObjectReader::integer(std::string_view key, std::int64_t min,
                                                      std::int64_t max) {
    const Json* value = lookup(key);
    if (!value || value->is_null())
        return std::nullopt;
    const std::string range =
        "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    const auto refuse = [&](MessageId id, std::string shown) {
        diags_.error(childPath(key),
                     message(id, {std::move(shown), std::to_string(min), std::to_string(max)}));
    };
    if (value->is_number_integer() || value->is_number_unsigned()) {
        if (value->is_number_unsigned() &&
            value->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
            refuse(MessageId::IntegerOutOfRange, jsonPreview(*value));
            return std::nullopt;
        }
        const std::int64_t v = value->get<std::int64_t>();
        if (v < min || v > max) {
            refuse(MessageId::IntegerOutOfRange, std::to_string(v));
            return std::nullopt;
        }
        return v;
    }
    if (value->is_number_float()) {
        const double v = value->get<double>();
        if (!std::isfinite(v) || v != std::floor(v)) {
            refuse(MessageId::NotWholeNumber, formatNumber(v));
            return std::nullopt;
        }
        if (v < static_cast<double>(min) || v > static_cast<double>(max)) {
            refuse(MessageId::IntegerOutOfRange, formatNumber(v));
            return std::nullopt;
        }
        return static_cast<std::int64_t>(v);
    }
    typeError(key, *value, range);
    return std::nullopt;
}

std::optional<int> JsonObjectReader::int32(std::string_view key, int min, int max) {
    auto v = integer(key, min, max);
    if (!v)
        return std::nullopt;
    return static_cast<int>(*v);
}

std::optional<double> JsonObjectReader::number(std::string_view key, double min, double max,
                                               bool minExclusive) {
    const Json* value = lookup(key);
    if (!value || value->is_null())
        return std::nullopt;
    const std::string range = std::string("a number ") +
                              (minExclusive ? "greater than " : "from ") + formatNumber(min) +
                              (minExclusive ? " and at most " : " to ") + formatNumber(max);
    if (!value->is_number()) {
        typeError(key, *value, range);
        return std::nullopt;
    }
    const double v = value->get<double>();
    if (!std::isfinite(v) || v < min || v > max || (minExclusive && v == min)) {
        diags_.error(childPath(key),
                     message(minExclusive ? MessageId::NumberOutOfRangeExclusive
                                          : MessageId::NumberOutOfRange,
                             {formatNumber(v), formatNumber(min), formatNumber(max)}));
        return std::nullopt;
    }
    return v;
}

template <class F> auto JsonObjectReader::withReason(const char* reason, F read) {
    const std::size_t before = diags_.all().size();
    auto value = read();
    if (diags_.all().size() > before && reason && *reason)
        diags_.amendLast(std::string(" (") + reason + ")");
    return value;
}

std::optional<std::int64_t> JsonObjectReader::integer(std::string_view key,
                                                      const limits::IntRange& range) {
    return withReason(range.reason, [&] { return integer(key, range.min, range.max); });
}

std::optional<int> JsonObjectReader::int32(std::string_view key, const limits::IntRange& range) {
    auto v = integer(key, range);
    if (!v)
        return std::nullopt;
    return static_cast<int>(*v);
}

std::optional<double> JsonObjectReader::number(std::string_view key,
                                               const limits::RealRange& range) {
    return withReason(range.reason, [&] { return number(key, range.min, range.max); });
}

std::optional<std::string> JsonObjectReader::string(std::string_view key, std::size_t maxLength) {
    const Json* value = lookup(key);
    if (!value || value->is_null())
        return std::nullopt;
    if (!value->is_string()) {
        typeError(key, *value, "a string");
        return std::nullopt;
    }
    const auto& text = value->get_ref<const std::string&>();
    if (text.size() > maxLength) {
        diags_.error(childPath(key), "string of " + std::to_string(text.size()) +
                                         " bytes is too long: at most " +
                                         std::to_string(maxLength));
        return std::nullopt;
    }
    return text;
}

std::optional<bool> JsonObjectReader::boolean(std::string_view key) {
    const Json* value = lookup(key);
    if (!value || value->is_null())
        return std::nullopt;
    if (!value->is_boolean()) {
        typeError(key, *value, "true or false");
        return std::nullopt;
    }
    return value->get<bool>();
}

static std::string listChoices(const std::vector<std::string_view>& choices) {
    std::string out;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i)
            out += i + 1 == choices.size() ? " or " : ", ";
        out += '"';
        out += choices[i];
        out += '"';
    }
    return out;
}

std::optional<std::size_t> JsonObjectReader::choice(std::string_view key,
                                                    const std::vector<std::string_view>& choices) {
    const Json* value = lookup(key);
    if (!value || value->is_null())
        return std::nullopt;
    if (!value->is_string()) {
        typeError(key, *value, "one of " + listChoices(choices));
        return std::nullopt;
    }
    const auto& text = value->get_ref<const std::string&>();
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == text)
            return i;
    diags_.error(childPath(key),
                 message(MessageId::ChoiceInvalid, {jsonPreview(*value), listChoices(choices)}));
    return std::nullopt;
}

void JsonObjectReader::finish() {
    if (!object_)
        return;
    // Enough to see what is wrong; a file of a million stray keys gets one line for the rest.
    constexpr std::size_t kMaxUnknownReported = 20;
    std::size_t unknown = 0;
    for (auto it = object_->begin(); it != object_->end(); ++it) {
        const std::string& key = it.key();
        if (allowed_.count(key))
            continue;
        if (++unknown > kMaxUnknownReported)
            continue;
        if (key.size() > 64) {
            diags_.error(path_, "unknown key " + quoteInput(key) + ": no key is that long");
            continue;
        }
        // Suggest only near misses; among equally near ones, the longest common prefix.
        std::string best;
        std::size_t bestDistance = 3, bestPrefix = 0;
        for (const auto& candidate : allowed_) {
            const std::size_t d = editDistance(key, candidate);
            std::size_t prefix = 0;
            while (prefix < key.size() && prefix < candidate.size() &&
                   key[prefix] == candidate[prefix])
                ++prefix;
            if (d < bestDistance || (d == bestDistance && !best.empty() && prefix > bestPrefix)) {
                bestDistance = d;
                bestPrefix = prefix;
                best = candidate;
            }
        }
        std::string message = "unknown key \"" + key + "\"";
        if (!best.empty())
            message += "; did you mean \"" + best + "\"?";
        else {
            message += "; allowed keys here: ";
            std::size_t n = 0;
            for (const auto& candidate : allowed_)
                message += (n++ ? ", " : "") + candidate;
        }
        diags_.error(childPath(key), message);
    }
    if (unknown > kMaxUnknownReported)
        diags_.error(path_, std::to_string(unknown - kMaxUnknownReported) +
                                " more unknown keys in this object");
}

} // namespace ts
