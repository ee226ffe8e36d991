// parseSearchPins (search/SearchSpace.h): "tp=8,pp=4|8,recompute=full".

#include "search/SearchSpace.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace ts {

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, sep))
        out.push_back(item);
    return out;
}

template <class Int> bool parseInt(const std::string& s, Int& out) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

template <class Int>
bool intValues(const std::string& field, const std::vector<std::string>& values, Int lowest,
               std::vector<Int>& into, Diagnostics& diags) {
    into.clear();
    for (const std::string& v : values) {
        Int x{};
        if (!parseInt(v, x) || x < lowest) {
            diags.error("--pin " + field,
                        "\"" + v + "\" is not an integer >= " + std::to_string(lowest));
            return false;
        }
        into.push_back(x);
    }
    return true;
}

bool flagValues(const std::string& field, const std::vector<std::string>& values,
                std::vector<int>& into, Diagnostics& diags) {
    into.clear();
    for (const std::string& v : values) {
        if (v == "true" || v == "1")
            into.push_back(1);
        else if (v == "false" || v == "0")
            into.push_back(0);
        else {
            diags.error("--pin " + field, "\"" + v + "\" is not true or false");
            return false;
        }
    }
    return true;
}

template <class E>
bool enumValues(const std::string& field, const std::vector<std::string>& values,
                std::vector<E>& into, Diagnostics& diags) {
    into.clear();
    for (const std::string& v : values) {
        const auto e = enumFromString<E>(v);
        if (!e) {
            std::string names;
            for (std::string_view n : EnumNames<E>::names)
                names += (names.empty() ? "" : ", ") + std::string(n);
            diags.error("--pin " + field, "\"" + v + "\" is not one of " + names);
            return false;
        }
        into.push_back(*e);
    }
    return true;
}

bool setField(const std::string& f, const std::vector<std::string>& v, SearchDomain& d,
              Diagnostics& diags) {
    if (f == "tp")
        return intValues(f, v, 1, d.tp, diags);
    if (f == "pp")
        return intValues(f, v, 1, d.pp, diags);
    if (f == "vpp")
        return intValues(f, v, 1, d.vpp, diags);
    if (f == "cp")
        return intValues(f, v, 1, d.cp, diags);
    if (f == "ep")
        return intValues(f, v, 1, d.ep, diags);
    if (f == "etp")
        return intValues(f, v, 1, d.etp, diags);
    if (f == "zero")
        return intValues(f, v, 0, d.zero, diags) &&
               std::all_of(d.zero.begin(), d.zero.end(), [&](int z) {
                   if (z <= 3)
                       return true;
                   diags.error("--pin zero", "ZeRO stages are 0, 1, 2 and 3");
                   return false;
               });
    if (f == "dp_shard")
        return intValues(f, v, std::int64_t{0}, d.dpShard, diags);
    if (f == "micro_batch")
        return intValues(f, v, std::int64_t{1}, d.microBatch, diags);
    if (f == "recompute_layers")
        return intValues(f, v, 0, d.recomputeLayers, diags);
    if (f == "sequence_parallel")
        return flagValues(f, v, d.sequenceParallel, diags);
    if (f == "recompute")
        return enumValues(f, v, d.recompute, diags);
    if (f == "schedule")
        return enumValues(f, v, d.schedule, diags);
    if (f == "offload.optimizer")
        return enumValues(f, v, d.offloadOptimizer, diags);
    if (f == "offload.params")
        return enumValues(f, v, d.offloadParams, diags);
    if (f == "offload.activations")
        return enumValues(f, v, d.offloadActivations, diags);
    if (f == "overlap.tp")
        return flagValues(f, v, d.overlapTp, diags);
    if (f == "overlap.dp")
        return flagValues(f, v, d.overlapDp, diags);
    if (f == "overlap.pp")
        return flagValues(f, v, d.overlapPp, diags);
    if (f == "overlap.ep")
        return flagValues(f, v, d.overlapEp, diags);
    diags.error("--pin", "unknown field \"" + f +
                             "\"; fields: tp, pp, vpp, cp, ep, etp, dp_shard, zero, "
                             "sequence_parallel, recompute, recompute_layers, micro_batch, "
                             "schedule, offload.optimizer, offload.params, offload.activations, "
                             "overlap.tp, overlap.dp, overlap.pp, overlap.ep");
    return false;
}

} // namespace

bool parseSearchPins(const std::string& text, SearchDomain& domain, Diagnostics& diags) {
    bool ok = true;
    for (const std::string& item : split(text, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
            diags.error("--pin", "\"" + item + "\" is not FIELD=VALUE (or FIELD=V1|V2|...)");
            ok = false;
            continue;
        }
        const std::string field = item.substr(0, eq);
        ok = setField(field, split(item.substr(eq + 1), '|'), domain, diags) && ok;
    }
    return ok;
}

} // namespace ts
