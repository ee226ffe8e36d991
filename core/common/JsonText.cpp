#include "common/JsonText.h"

#include "common/Diagnostics.h"

#include <unordered_set>
#include <vector>

namespace ts {

namespace {

using Json = nlohmann::ordered_json;

// Builds the value; containers stay at stable addresses while open, since a parent gains no
// sibling of an open child.
class LinearBuilder : public nlohmann::json_sax<Json> {
public:
    explicit LinearBuilder(JsonTextError& error) : error_(error) {}

    Json result;

    bool null() override { return add(Json(nullptr)); }
    bool boolean(bool v) override { return add(Json(v)); }
    bool number_integer(number_integer_t v) override { return add(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
    bool string(string_t& v) override { return add(Json(std::move(v))); }
    bool binary(binary_t& v) override { return add(Json::binary(std::move(v))); }
    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override {
        Frame& f = stack_.back();
        if (!f.keys.insert(k).second) {
            error_.duplicate = true;
            error_.path = jsonPointerChild(pointer(), k);
            error_.message = "duplicate key " + quoteInput(k) +
                             ": each key may appear once in an object (which value is meant?)";
            return false;
        }
        f.key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ...", or
        // "[json.exception.out_of_range.406] number overflow parsing '1e999'"
        if (auto colon = what.find(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
        else if (auto bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        error_.message = what;
        error_.byte = position;
        return false;
    }

private:
    struct Frame {
        Json* value;
        std::string key;                      // objects: the key of the next value
        std::unordered_set<std::string> keys; // objects: the keys so far
    };

    Json* place(Json&& v) {
        if (stack_.empty()) {
            result = std::move(v);
            return &result;
        }
        Frame& f = stack_.back();
        if (f.value->is_array()) {
            auto& items = f.value->get_ref<Json::array_t&>();
            items.push_back(std::move(v));
            return &items.back();
        }
        // Appended without ordered_map's linear lookup: key() has refused duplicates.
        auto& items = static_cast<Json::object_t::Container&>(f.value->get_ref<Json::object_t&>());
        items.emplace_back(std::move(f.key), std::move(v));
        return &items.back().second;
    }

    bool add(Json&& v) {
        place(std::move(v));
        return true;
    }
    bool open(Json&& container) {
        stack_.push_back(Frame{place(std::move(container)), {}, {}});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }

    // The pointer of the innermost open container.
    std::string pointer() const {
        std::string out;
        for (std::size_t i = 1; i < stack_.size(); ++i) {
            const Frame& parent = stack_[i - 1];
            if (parent.value->is_array())
                out = jsonPointerChild(out, parent.value->size() - 1);
            else
                out = jsonPointerChild(out, lastKey(*parent.value)); // the open child
        }
        return out;
    }
    static std::string lastKey(const Json& object) {
        const auto& items =
            static_cast<const Json::object_t::Container&>(object.get_ref<const Json::object_t&>());
        return items.empty() ? std::string() : items.back().first;
    }

    std::vector<Frame> stack_;
    JsonTextError& error_;
};

} // namespace

std::optional<Json> parseJsonLinear(std::string_view text, JsonTextError& error) {
    LinearBuilder builder(error);
    bool ok = false;
    try {
        ok = Json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const std::exception& e) {
        error.message = e.what();
        return std::nullopt;
    }
    if (!ok)
        return std::nullopt;
    return std::move(builder.result);
}

} // namespace ts
