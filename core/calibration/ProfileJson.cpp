#include "calibration/ProfileJson.h"

#include "scenario/ScenarioIO.h"

#include <set>

namespace ts {

namespace {

constexpr double kMaxTflops = 1e6;
constexpr double kMaxGBps = 1e6;
constexpr std::int64_t kMaxDim = std::int64_t(1) << 24; // 16M rows or columns
constexpr std::size_t kMaxPoints = 100000;

// Reads `key` as an array, calling `each` with every element and its path.
template <class Each> void readArray(JsonObjectReader& r, std::string_view key, Each each) {
    const Json* value = r.raw(key);
    if (!value || value->is_null())
        return;
    const std::string path = r.childPath(key);
    if (!value->is_array()) {
        r.diagnostics().error(path, "expected an array, got " + jsonTypeName(*value));
        return;
    }
    if (value->size() > kMaxPoints) {
        r.diagnostics().error(path, "more than " + std::to_string(kMaxPoints) + " entries");
        return;
    }
    for (std::size_t i = 0; i < value->size(); ++i)
        each((*value)[i], jsonPointerChild(path, i));
}

constexpr double kMaxWatts = 10'000; // a board far beyond any GPU's limit
constexpr std::int64_t kMaxSamples = std::int64_t(1) << 40;

// "power": {"how": "...", "phases": {"idle": {"watts": 71.2, "max_watts": 75, "samples": 50},
// ...}} (calibration/MeasuredPower.h; written by tools/calibrate/make_profile.py).
std::optional<PhasePower> readPhasePower(JsonObjectReader& phases, std::string_view name) {
    const Json* value = phases.raw(name);
    if (!value || value->is_null())
        return std::nullopt;
    JsonObjectReader r(*value, phases.childPath(name), phases.diagnostics());
    if (!r.valid())
        return std::nullopt;
    r.require("watts");
    r.require("samples");
    PhasePower p;
    p.watts = r.number("watts", 0, kMaxWatts).value_or(0);
    p.maxWatts = r.number("max_watts", 0, kMaxWatts);
    p.samples = r.integer("samples", 1, kMaxSamples).value_or(0);
    if (p.maxWatts && *p.maxWatts < p.watts)
        r.diagnostics().error(r.childPath("max_watts"), "max_watts " + formatNumber(*p.maxWatts) +
                                                            " is below the mean watts " +
                                                            formatNumber(p.watts));
    r.finish();
    return p;
}

std::optional<MeasuredPower> readPower(JsonObjectReader& profile) {
    const Json* value = profile.raw("power");
    if (!value || value->is_null())
        return std::nullopt;
    JsonObjectReader r(*value, profile.childPath("power"), profile.diagnostics());
    if (!r.valid())
        return std::nullopt;
    r.require("phases");
    MeasuredPower m;
    m.how = r.string("how", 1000).value_or("");
    if (const Json* phases = r.raw("phases"); phases && !phases->is_null()) {
        JsonObjectReader pr(*phases, r.childPath("phases"), r.diagnostics());
        if (pr.valid()) {
            for (const PowerPhaseField& f : kPowerPhases)
                m.*f.member = readPhasePower(pr, f.name);
            pr.finish(); // names the unknown phase
        }
    }
    r.finish();
    return m;
}

Json phasePowerJson(const PhasePower& p) {
    Json j = {{"watts", p.watts}, {"samples", p.samples}};
    if (p.maxWatts)
        j["max_watts"] = *p.maxWatts;
    return j;
}

Json powerJson(const MeasuredPower& m) {
    Json phases = Json::object();
    for (const PowerPhaseField& f : kPowerPhases)
        if (const auto& phase = m.*f.member)
            phases[f.name] = phasePowerJson(*phase);
    return {{"how", m.how}, {"phases", phases}};
}

std::optional<MatmulDtype> readDtype(JsonObjectReader& r) {
    auto name = r.string("dtype", 40);
    if (!name)
        return std::nullopt;
    auto dtype = matmulDtypeFromName(*name);
    if (!dtype)
        r.diagnostics().error(r.childPath("dtype"),
                              "unknown dtype \"" + *name +
                                  "\": expected tf32, fp16, bf16, fp8 or fp4");
    return dtype;
}

std::optional<MatmulPoint> readMatmul(const Json& json, const std::string& path,
                                      Diagnostics& diags) {
    JsonObjectReader r(json, path, diags);
    if (!r.valid())
        return std::nullopt;
    const std::size_t before = diags.errorCount();
    MatmulPoint p;
    r.require("m");
    r.require("n");
    r.require("k");
    r.require("dtype");
    r.require("tflops");
    p.m = r.integer("m", 1, kMaxDim).value_or(0);
    p.n = r.integer("n", 1, kMaxDim).value_or(0);
    p.k = r.integer("k", 1, kMaxDim).value_or(0);
    p.dtype = readDtype(r).value_or(MatmulDtype::Bf16);
    p.tflops = r.number("tflops", 0, kMaxTflops, true).value_or(0);
    p.source = r.string("source", 100).value_or("");
    r.finish();
    if (diags.errorCount() != before)
        return std::nullopt;
    return p;
}

std::optional<AttentionPoint> readAttention(const Json& json, const std::string& path,
                                            Diagnostics& diags) {
    JsonObjectReader r(json, path, diags);
    if (!r.valid())
        return std::nullopt;
    const std::size_t before = diags.errorCount();
    AttentionPoint p;
    r.require("seq_len");
    r.require("head_dim");
    r.require("causal");
    r.require("forward_tflops");
    p.seqLen = r.integer("seq_len", 1, std::int64_t(1) << 26).value_or(0);
    p.headDim = r.int32("head_dim", 1, 1024).value_or(0);
    p.causal = r.boolean("causal").value_or(true);
    p.forwardTflops = r.number("forward_tflops", 0, kMaxTflops, true).value_or(0);
    p.backwardTflops = r.number("backward_tflops", 0, kMaxTflops, true);
    p.source = r.string("source", 100).value_or("");
    r.finish();
    if (diags.errorCount() != before)
        return std::nullopt;
    return p;
}

std::optional<CollectivePoint> readCollectivePoint(const Json& json, const std::string& path,
                                                   Diagnostics& diags) {
    JsonObjectReader r(json, path, diags);
    if (!r.valid())
        return std::nullopt;
    const std::size_t before = diags.errorCount();
    CollectivePoint p;
    r.require("bytes");
    r.require("time_us");
    r.require("busbw_gb_s");
    p.bytes = r.number("bytes", 0, 1e15, true).value_or(0);
    p.timeUs = r.number("time_us", 0, 1e12, true).value_or(0);
    p.busbwGBps = r.number("busbw_gb_s", 0, kMaxGBps).value_or(0);
    r.finish();
    if (diags.errorCount() != before)
        return std::nullopt;
    return p;
}

std::optional<CollectiveMeasurement> readCollective(const Json& json, const std::string& path,
                                                    Diagnostics& diags) {
    JsonObjectReader r(json, path, diags);
    if (!r.valid())
        return std::nullopt;
    const std::size_t before = diags.errorCount();
    CollectiveMeasurement c;
    r.require("collective");
    r.require("scope");
    r.require("ranks");
    r.require("nodes");
    r.require("busbw_gb_s");
    if (auto name = r.string("collective", 40)) {
        if (auto kind = collectiveFromName(*name))
            c.collective = *kind;
        else
            diags.error(r.childPath("collective"),
                        "unknown collective \"" + *name +
                            "\": expected all_reduce, all_gather, reduce_scatter, all_to_all or "
                            "send_recv");
    }
    if (auto scope = r.choice("scope", {"scale_up", "scale_out"}))
        c.scope = *scope == 0 ? CollectiveScope::ScaleUp : CollectiveScope::ScaleOut;
    c.ranks = r.int32("ranks", 2, 1 << 20).value_or(2);
    c.nodes = r.int32("nodes", 1, 1 << 20).value_or(1);
    c.latencyUs = r.number("latency_us", 0, 1e6);
    c.busbwGBps = r.number("busbw_gb_s", 0, kMaxGBps, true).value_or(0);
    c.source = r.string("source", 100).value_or("");
    readArray(r, "points", [&](const Json& item, const std::string& itemPath) {
        if (auto p = readCollectivePoint(item, itemPath, diags))
            c.points.push_back(*p);
    });
    r.finish();
    if (diags.errorCount() != before)
        return std::nullopt;
    if (c.nodes > c.ranks) {
        diags.error(jsonPointerChild(path, "nodes"),
                    "nodes = " + std::to_string(c.nodes) +
                        " exceeds ranks = " + std::to_string(c.ranks));
        return std::nullopt;
    }
    if (c.scope == CollectiveScope::ScaleUp && c.nodes != 1) {
        diags.error(jsonPointerChild(path, "scope"),
                    "\"scale_up\" is one node's NVLink domain, but nodes = " +
                        std::to_string(c.nodes) + ": use \"scale_out\"");
        return std::nullopt;
    }
    if (c.scope == CollectiveScope::ScaleOut && c.nodes < 2) {
        diags.error(jsonPointerChild(path, "scope"),
                    "\"scale_out\" needs nodes >= 2: a one-node measurement is \"scale_up\"");
        return std::nullopt;
    }
    for (std::size_t i = 1; i < c.points.size(); ++i)
        if (c.points[i].bytes <= c.points[i - 1].bytes) {
            diags.error(jsonPointerChild(jsonPointerChild(path, "points"), i) + "/bytes",
                        "points must be sorted by increasing bytes");
            return std::nullopt;
        }
    return c;
}

} // namespace

std::optional<CalibrationProfile> profileFromJson(const Json& json, Diagnostics& diags) {
    JsonObjectReader r(json, "", diags);
    if (!r.valid())
        return std::nullopt;
    const std::size_t before = diags.errorCount();
    CalibrationProfile p;
    r.require("format", std::string("use \"") + kCalibrationFormat + "\"");
    if (auto format = r.string("format", 100); format && *format != kCalibrationFormat)
        diags.error("/format", "unsupported format \"" + *format + "\": this version reads \"" +
                                   kCalibrationFormat + "\"");
    r.require("id");
    r.require("kind", "\"published\" or \"measured\"");
    r.require("provenance", "an object with where, when and how");
    if (auto id = r.string("id", 100)) {
        if (id->empty() || id->find_first_of(" /\\\"") != std::string::npos)
            diags.error("/id", "an id is a non-empty name without spaces, slashes or quotes");
        p.id = *id;
    }
    p.name = r.string("name", 200).value_or(p.id);
    if (auto kind = r.choice("kind", {"published", "measured"}))
        p.kind = *kind == 0 ? ProfileKind::Published : ProfileKind::Measured;
    p.gpu = r.string("gpu", 100).value_or("");
    p.deviceName = r.string("device_name", 200).value_or("");
    p.notes = r.string("notes", 20000).value_or("");
    if (const Json* prov = r.raw("provenance"); prov && !prov->is_null()) {
        JsonObjectReader pr(*prov, "/provenance", diags);
        if (pr.valid()) {
            pr.require("where");
            pr.require("how");
            p.provenance.where = pr.string("where", 1000).value_or("");
            p.provenance.when = pr.string("when", 100).value_or("");
            p.provenance.how = pr.string("how", 4000).value_or("");
            pr.finish();
        }
    }
    readArray(r, "sources", [&](const Json& item, const std::string& path) {
        JsonObjectReader sr(item, path, diags);
        if (!sr.valid())
            return;
        sr.require("id");
        sr.require("title");
        ProfileSource s;
        s.id = sr.string("id", 100).value_or("");
        s.title = sr.string("title", 1000).value_or("");
        s.url = sr.string("url", 2000).value_or("");
        sr.finish();
        p.sources.push_back(s);
    });
    readArray(r, "matmul", [&](const Json& item, const std::string& path) {
        if (auto m = readMatmul(item, path, diags))
            p.matmul.push_back(*m);
    });
    readArray(r, "attention", [&](const Json& item, const std::string& path) {
        if (auto a = readAttention(item, path, diags))
            p.attention.push_back(*a);
    });
    if (const Json* hbm = r.raw("hbm"); hbm && !hbm->is_null()) {
        JsonObjectReader hr(*hbm, "/hbm", diags);
        if (hr.valid()) {
            hr.require("achieved_gb_s");
            HbmMeasurement h;
            h.achievedGBps = hr.number("achieved_gb_s", 0, kMaxGBps, true).value_or(0);
            h.source = hr.string("source", 100).value_or("");
            hr.finish();
            p.hbm = h;
        }
    }
    p.kernelOverheadUs = r.number("kernel_overhead_us", 0, 1000);
    readArray(r, "collectives", [&](const Json& item, const std::string& path) {
        if (auto c = readCollective(item, path, diags))
            p.collectives.push_back(*c);
    });
    p.power = readPower(r);
    r.finish();
    if (diags.errorCount() != before)
        return std::nullopt;

    // Every point of a published profile names its source, and every named source exists.
    std::set<std::string> known;
    for (std::size_t i = 0; i < p.sources.size(); ++i)
        if (!known.insert(p.sources[i].id).second)
            diags.error(jsonPointerChild(jsonPointerChild("/sources", i), "id"),
                        "source id \"" + p.sources[i].id + "\" appears twice");
    auto checkSource = [&](const std::string& source, const std::string& path) {
        if (source.empty()) {
            if (p.kind == ProfileKind::Published)
                diags.error(path, "a published profile names the source of every figure");
        } else if (!known.count(source)) {
            diags.error(path, "unknown source \"" + source + "\": list it under /sources");
        }
    };
    for (std::size_t i = 0; i < p.matmul.size(); ++i)
        checkSource(p.matmul[i].source, jsonPointerChild("/matmul", i) + "/source");
    for (std::size_t i = 0; i < p.attention.size(); ++i)
        checkSource(p.attention[i].source, jsonPointerChild("/attention", i) + "/source");
    if (p.hbm)
        checkSource(p.hbm->source, "/hbm/source");
    for (std::size_t i = 0; i < p.collectives.size(); ++i)
        checkSource(p.collectives[i].source, jsonPointerChild("/collectives", i) + "/source");
    if (diags.errorCount() != before)
        return std::nullopt;
    return p;
}

std::optional<CalibrationProfile> parseProfile(const std::string& text, Diagnostics& diags) {
    auto doc = parseJsonText(text, diags);
    if (!doc)
        return std::nullopt;
    return profileFromJson(*doc, diags);
}

std::optional<CalibrationProfile> loadProfileFile(const std::string& path, Diagnostics& diags) {
    auto text = readTextFile(path, diags);
    if (!text)
        return std::nullopt;
    auto profile = parseProfile(*text, diags);
    if (profile)
        profile->origin = path;
    return profile;
}

Json profileToJson(const CalibrationProfile& p) {
    Json j;
    j["format"] = kCalibrationFormat;
    j["id"] = p.id;
    j["name"] = p.name;
    j["kind"] = p.kind == ProfileKind::Published ? "published" : "measured";
    j["gpu"] = p.gpu.empty() ? Json(nullptr) : Json(p.gpu);
    if (!p.deviceName.empty())
        j["device_name"] = p.deviceName;
    j["provenance"] = {
        {"where", p.provenance.where}, {"when", p.provenance.when}, {"how", p.provenance.how}};
    Json sources = Json::array();
    for (const auto& s : p.sources)
        sources.push_back({{"id", s.id}, {"title", s.title}, {"url", s.url}});
    j["sources"] = sources;
    if (!p.notes.empty())
        j["notes"] = p.notes;
    auto withSource = [](Json item, const std::string& source) {
        if (!source.empty())
            item["source"] = source;
        return item;
    };
    Json matmul = Json::array();
    for (const auto& m : p.matmul)
        matmul.push_back(withSource({{"m", m.m},
                                     {"n", m.n},
                                     {"k", m.k},
                                     {"dtype", matmulDtypeName(m.dtype)},
                                     {"tflops", m.tflops}},
                                    m.source));
    j["matmul"] = matmul;
    Json attention = Json::array();
    for (const auto& a : p.attention) {
        Json item = {{"seq_len", a.seqLen},
                     {"head_dim", a.headDim},
                     {"causal", a.causal},
                     {"forward_tflops", a.forwardTflops}};
        if (a.backwardTflops)
            item["backward_tflops"] = *a.backwardTflops;
        attention.push_back(withSource(item, a.source));
    }
    j["attention"] = attention;
    j["hbm"] =
        p.hbm ? withSource({{"achieved_gb_s", p.hbm->achievedGBps}}, p.hbm->source) : Json(nullptr);
    if (p.kernelOverheadUs)
        j["kernel_overhead_us"] = *p.kernelOverheadUs;
    Json collectives = Json::array();
    for (const auto& c : p.collectives) {
        Json item = {{"collective", collectiveName(c.collective)},
                     {"scope", collectiveScopeName(c.scope)},
                     {"ranks", c.ranks},
                     {"nodes", c.nodes},
                     {"latency_us", c.latencyUs ? Json(*c.latencyUs) : Json(nullptr)},
                     {"busbw_gb_s", c.busbwGBps}};
        item = withSource(item, c.source);
        Json points = Json::array();
        for (const auto& pt : c.points)
            points.push_back(
                {{"bytes", pt.bytes}, {"time_us", pt.timeUs}, {"busbw_gb_s", pt.busbwGBps}});
        item["points"] = points;
        collectives.push_back(item);
    }
    j["collectives"] = collectives;
    j["power"] = p.power ? powerJson(*p.power) : Json(nullptr);
    return j;
}

bool saveProfileFile(const CalibrationProfile& profile, const std::string& path,
                     std::string& error) {
    return writeTextFileAtomically(path, profileToJson(profile).dump(2) + "\n", error);
}

} // namespace ts
