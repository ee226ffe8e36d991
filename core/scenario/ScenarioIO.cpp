#include "scenario/ScenarioIO.h"

#include "common/AtomicFile.h"
#include "common/JsonObjectReader.h"
#include "common/JsonText.h"
#include "scenario/ExecutionJson.h"
#include "scenario/FinetuneJson.h"
#include "scenario/Limits.h"
#include "scenario/PoolJson.h"
#include "scenario/SectionJson.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ts {

using namespace limits;

namespace {

// Line and column (1-based) of a byte offset, for syntax errors.
std::string lineColumn(std::string_view text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Deepest nesting of arrays and objects, scanning outside strings; stops early past `limit`.
// nlohmann's parser would accept any depth, and a hostile file could exhaust the stack of
// code that walks the result.
int nestingDepth(std::string_view text, int limit, std::size_t& where) {
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{') {
            if (++depth > deepest) {
                deepest = depth;
                if (deepest > limit) {
                    where = i;
                    return deepest;
                }
            }
        } else if (c == ']' || c == '}')
            --depth;
    }
    return deepest;
}

// The first byte offset where `text` is not valid UTF-8, or npos.
std::size_t invalidUtf8Offset(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t n = c < 0x80           ? 1
                        : (c >> 5) == 0x6  ? 2
                        : (c >> 4) == 0xE  ? 3
                        : (c >> 3) == 0x1E ? 4
                                           : 0;
        if (n == 0 || i + n > text.size())
            return i;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
                return i;
        if ((n == 2 && c < 0xC2) || (n == 4 && c > 0xF4))
            return i;
        i += n;
    }
    return std::string_view::npos;
}

template <class T>
void putNullable(Json& out, const char* key, const std::optional<std::optional<T>>& value) {
    if (value)
        out[key] = *value ? Json(**value) : Json(nullptr);
}

// Quantities are held as doubles; a whole value is written as an integer ("367", not
// "367.0"), so that a file written by hand comes back as it was.
void writeWholeNumbersAsIntegers(Json& value) {
    if (value.is_number_float()) {
        const double v = value.get<double>();
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
            value = static_cast<std::int64_t>(v);
    } else if (value.is_structured()) {
        for (auto& child : value)
            writeWholeNumbersAsIntegers(child);
    }
}

} // namespace

std::optional<Json> parseJsonText(std::string_view text, Diagnostics& diags) {
    if (text.size() > kMaxDocumentBytes) {
        diags.error("", "the file is " + std::to_string(text.size()) +
                            " bytes; a scenario is at most " + std::to_string(kMaxDocumentBytes) +
                            " bytes");
        return std::nullopt;
    }
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        diags.error("", "the file is empty: expected a JSON object with \"format\": \"" +
                            std::string(kScenarioFormat) + "\"");
        return std::nullopt;
    }
    if (const auto bad = invalidUtf8Offset(text); bad != std::string_view::npos) {
        diags.error("", "not valid UTF-8 at byte " + std::to_string(bad) + " (" +
                            lineColumn(text, bad) + "): save the file as UTF-8");
        return std::nullopt;
    }
    std::size_t where = 0;
    if (nestingDepth(text, kMaxNestingDepth, where) > kMaxNestingDepth) {
        diags.error("", "JSON nested deeper than " + std::to_string(kMaxNestingDepth) +
                            " levels at " + lineColumn(text, where) +
                            ": a scenario needs at most a few levels");
        return std::nullopt;
    }
    JsonTextError error;
    if (auto doc = parseJsonLinear(text, error))
        return doc;
    if (error.duplicate)
        diags.error(error.path, error.message);
    else
        diags.error("", "not valid JSON at " +
                            lineColumn(text, error.byte > 0 ? error.byte - 1 : 0) + ": " +
                            error.message);
    return std::nullopt;
}

static ParallelInput readParallelism(JsonObjectReader& r) {
    ParallelInput p;
    p.tp = r.int32("tp", 1, static_cast<int>(kMaxGpus));
    p.pp = r.int32("pp", kPipelineStages);
    p.cp = r.int32("cp", 1, static_cast<int>(kMaxGpus));
    p.ep = r.int32("ep", 1, static_cast<int>(kMaxGpus));
    if (r.isNull("etp"))
        p.etp = std::optional<int>{};
    else if (auto v = r.int32("etp", 1, static_cast<int>(kMaxGpus)))
        p.etp = std::optional<int>{*v};
    if (r.isNull("dp"))
        p.dp = std::optional<std::int64_t>{};
    else if (auto v = r.integer("dp", 1, kMaxGpus))
        p.dp = std::optional<std::int64_t>{*v};
    // Hybrid sharding degree (FSDP HYBRID_SHARD, torchtitan --parallelism.data_parallel_
    // shard_degree); null = dp (full sharding).
    if (r.isNull("dp_shard"))
        p.dpShard = std::optional<std::int64_t>{};
    else if (auto v = r.integer("dp_shard", 1, kMaxGpus))
        p.dpShard = std::optional<std::int64_t>{*v};
    p.cpComm = r.enumeration<CpCommType, EnumNames<CpCommType>>("cp_comm"); // --cp-comm-type
    p.vpp = r.int32("vpp", kVpp);
    if (const Json* layers = r.raw("pipeline_layers")) {
        const std::string path = r.childPath("pipeline_layers");
        if (layers->is_null()) {
            p.pipelineLayers = std::optional<std::vector<int>>{};
        } else if (!layers->is_array() || layers->empty()) {
            r.diagnostics().error(path, "expected null or a non-empty array of pp*vpp layer "
                                        "counts, got " +
                                            jsonTypeName(*layers) + " (" + jsonPreview(*layers) +
                                            ")");
        } else if (layers->size() > static_cast<std::size_t>(kMaxLayers)) {
            r.diagnostics().error(path, "more entries than the largest layer count " +
                                            std::to_string(kMaxLayers));
        } else {
            std::vector<int> counts;
            bool ok = true;
            for (std::size_t i = 0; i < layers->size(); ++i) {
                const Json& v = (*layers)[i];
                if (!v.is_number_integer() || v.get<std::int64_t>() < 0 ||
                    v.get<std::int64_t>() > kMaxLayers) {
                    r.diagnostics().error(jsonPointerChild(path, i),
                                          "expected a layer count from 0 to " +
                                              std::to_string(kMaxLayers) + ", got " +
                                              jsonPreview(v));
                    ok = false;
                } else {
                    counts.push_back(static_cast<int>(v.get<std::int64_t>()));
                }
            }
            if (ok)
                p.pipelineLayers = std::optional<std::vector<int>>{std::move(counts)};
        }
    }
    p.sequenceParallel = r.boolean("sequence_parallel");
    // FP8 expert dispatch (DeepSeek-V3 arXiv 2412.19437 sec. 3.3.2; DeepEP).
    p.moeDispatchFp8 = r.boolean("moe_dispatch_fp8");
    // Megatron --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split.
    p.embeddingInPipelineSplit = r.boolean("embedding_in_pipeline_split");
    p.lossInPipelineSplit = r.boolean("loss_in_pipeline_split");
    readPipelines(r, p); // with cluster.pools (scenario/PoolJson.h)
    p.zero = r.int32("zero", 0, 3);
    p.recompute = r.enumeration<RecomputeMode, EnumNames<RecomputeMode>>("recompute");
    if (r.isNull("recompute_layers"))
        p.recomputeLayers = std::optional<int>{};
    else if (auto v = r.int32("recompute_layers", 0, kMaxLayers))
        p.recomputeLayers = std::optional<int>{*v};
    p.schedule = r.enumeration<PipelineScheduleKind, EnumNames<PipelineScheduleKind>>("schedule");
    if (const Json* offload = r.raw("offload"); offload && !offload->is_null()) {
        JsonObjectReader o(*offload, r.childPath("offload"), r.diagnostics());
        if (o.valid()) {
            OffloadInput in;
            in.optimizer = o.enumeration<OffloadTarget, EnumNames<OffloadTarget>>("optimizer");
            in.params = o.enumeration<OffloadTarget, EnumNames<OffloadTarget>>("params");
            in.activations = o.enumeration<OffloadTarget, EnumNames<OffloadTarget>>("activations");
            o.finish();
            p.offload = in;
        }
    }
    if (const Json* overlap = r.raw("overlap"); overlap && !overlap->is_null()) {
        JsonObjectReader o(*overlap, r.childPath("overlap"), r.diagnostics());
        if (o.valid()) {
            OverlapInput in;
            in.tp = o.boolean("tp");
            in.dp = o.boolean("dp");
            in.pp = o.boolean("pp");
            in.ep = o.boolean("ep");
            o.finish();
            p.overlap = in;
        }
    }
    return p;
}

static void readCluster(const Json& value, const std::string& path, Diagnostics& diags,
                        ClusterInput& c) {
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return;
    c.preset = r.string("preset", 200);
    c.gpu = readGpuInput(r);
    // With pools, num_gpus is their sum and may be left out (scenario/PoolJson.h).
    readPools(r, c);
    if (!c.pools && !r.has("pools"))
        r.require("num_gpus", "give the total number of GPUs, e.g. 1024");
    c.numGpus = r.integer("num_gpus", kGpus);
    c.gpusPerNode = r.int32("gpus_per_node", 1, kMaxGpusPerNode);
    if (const Json* up = r.raw("scale_up"); up && !up->is_null()) {
        JsonObjectReader u(*up, r.childPath("scale_up"), diags);
        if (u.valid()) {
            c.scaleUp = readScaleUp(u);
            u.finish();
        }
    }
    if (const Json* out = r.raw("scale_out"); out && !out->is_null()) {
        JsonObjectReader o(*out, r.childPath("scale_out"), diags);
        if (o.valid()) {
            c.scaleOut = readScaleOut(o);
            o.finish();
        }
    }
    if (const Json* host = r.raw("host"); host && !host->is_null()) {
        JsonObjectReader h(*host, r.childPath("host"), diags);
        if (h.valid()) {
            c.host = readHost(h);
            h.finish();
        }
    }
    if (const Json* graph = r.raw("graph")) {
        if (graph->is_null() || graph->is_object())
            c.graph = *graph;
        else
            diags.error(r.childPath("graph"),
                        "expected null or a topology graph object, got " + jsonTypeName(*graph));
    }
    r.finish();
}

static void readTraining(const Json& value, const std::string& path, Diagnostics& diags,
                         TrainingInput& t) {
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return;
    r.require("seq_len", "give the sequence length in tokens, e.g. 8192");
    r.require("global_batch", "give the sequences per optimizer step, e.g. 1024");
    t.seqLen = r.integer("seq_len", 1, kMaxSeqLen);
    t.globalBatch = r.integer("global_batch", 1, kMaxGlobalBatch);
    t.microBatch = r.integer("micro_batch", 1, kMaxGlobalBatch);
    t.precision = r.enumeration<Precision, EnumNames<Precision>>("precision");
    // Megatron-LM's --fp8-recipe also offers "mxfp8"; here MXFP8 is a precision of its own.
    if (const Json* recipe = r.raw("fp8_recipe"); recipe && *recipe == "mxfp8")
        diags.error(r.childPath("fp8_recipe"),
                    "\"mxfp8\" is not an FP8 recipe here: set training.precision to \"mxfp8\" "
                    "(MX blocks of 32 with E8M0 scales) and remove fp8_recipe");
    else
        t.fp8Recipe = r.enumeration<Fp8Recipe, EnumNames<Fp8Recipe>>("fp8_recipe");
    t.optimizer = r.enumeration<OptimizerKind, EnumNames<OptimizerKind>>("optimizer");
    t.optimizerInBackward = r.boolean("optimizer_in_backward"); // torchtune optimizer_in_bwd
    t.optimizerImpl = r.enumeration<OptimizerImpl, EnumNames<OptimizerImpl>>("optimizer_impl");
    t.compile = r.boolean("compile");
    t.masterWeights = r.boolean("master_weights");
    t.gradReduceDtype =
        r.enumeration<GradReduceDtype, EnumNames<GradReduceDtype>>("grad_reduce_dtype");
    t.documentTokens = r.integer("document_tokens", 1, kMaxSeqLen);
    t.tokens = r.number("tokens", 0, kMaxTokens, true);
    r.finish();
}

static void readCosts(const Json& value, const std::string& path, Diagnostics& diags,
                      std::optional<CostInput>& out) {
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return;
    CostInput c;
    c.gpuHourUsd = r.number("gpu_hour_usd", 0, kMaxPrice);
    c.electricityUsdPerKwh = r.number("electricity_usd_kwh", 0, kMaxPrice);
    c.pue = r.number("pue", 1, 10);
    c.gridGco2PerKwh = r.number("grid_gco2_kwh", kGridGco2Kwh);
    c.ownership = r.enumeration<Ownership, EnumNames<Ownership>>("ownership");
    c.amortizationYears = r.number("amortization_years", 0, 100, true);
    c.nodeCapexUsd = r.number("node_capex_usd", 0, kMaxPrice);
    c.networkCapexUsd = r.number("network_capex_usd", 0, kMaxPrice);
    c.gpuIdleW = r.number("gpu_idle_w", 0, kMaxPowerW);
    c.gpuComputeFraction = r.number("gpu_compute_fraction", 0, 1);
    c.gpuMemoryFraction = r.number("gpu_memory_fraction", 0, 1);
    c.gpuCommFraction = r.number("gpu_comm_fraction", 0, 1);
    c.hostWPerNode = r.number("host_w_per_node", 0, kMaxPowerW);
    c.networkW = r.number("network_w", 0, kMaxPowerW * 1e3);
    c.carbonCsv = r.string("carbon_csv", 4096);
    r.finish();
    out = c;
}

std::optional<Scenario> scenarioFromJson(const Json& doc, Diagnostics& diags) {
    const std::size_t errorsBefore = diags.errorCount();
    JsonObjectReader r(doc, "", diags);
    if (!r.valid())
        return std::nullopt;
    Scenario s;
    if (r.require("format", std::string("expected \"") + kScenarioFormat + "\"")) {
        const Json& format = *r.raw("format");
        if (!format.is_string() || format.get<std::string>() != kScenarioFormat)
            diags.error("/format", "unsupported format " + jsonPreview(format) + ": expected \"" +
                                       kScenarioFormat + "\"");
    }
    s.name = r.string("name", 1000);

    if (r.require("model", "give \"preset\" (e.g. \"llama3-70b\") or the architecture keys")) {
        JsonObjectReader m(*r.raw("model"), "/model", diags);
        if (m.valid()) {
            s.model = readModelFields(m);
            s.model.preset = m.string("preset", 200);
            m.finish();
        }
    }
    if (r.require("cluster", "give at least \"num_gpus\" and a \"preset\" or \"gpu\""))
        readCluster(*r.raw("cluster"), "/cluster", diags, s.cluster);
    if (r.require("training", "give at least \"seq_len\" and \"global_batch\""))
        readTraining(*r.raw("training"), "/training", diags, s.training);
    if (const Json* p = r.raw("parallelism"); p && !p->is_null()) {
        JsonObjectReader pr(*p, "/parallelism", diags);
        if (pr.valid()) {
            s.parallelism = readParallelism(pr);
            pr.finish();
        }
    }
    if (const Json* c = r.raw("costs"); c && !c->is_null())
        readCosts(*c, "/costs", diags, s.costs);
    if (const Json* e = r.raw("execution"); e && !e->is_null()) {
        JsonObjectReader er(*e, "/execution", diags);
        if (er.valid()) {
            s.execution = readExecution(er);
            er.finish();
        }
    }
    if (const Json* f = r.raw("finetune"); f && !f->is_null())
        s.finetune = readFinetune(*f, "/finetune", diags);
    if (r.isNull("calibration"))
        s.calibration = std::optional<std::string>{};
    else if (auto id = r.string("calibration", 200))
        s.calibration = std::optional<std::string>{*id};
    r.finish();
    if (diags.errorCount() > errorsBefore)
        return std::nullopt;
    return s;
}

Json scenarioToJson(const Scenario& s) {
    Json j = Json::object();
    j["format"] = kScenarioFormat;
    putOptional(j, "name", s.name);

    Json model = Json::object();
    putOptional(model, "preset", s.model.preset);
    writeModelFields(s.model, model);
    j["model"] = model;

    Json cluster = Json::object();
    const ClusterInput& c = s.cluster;
    putOptional(cluster, "preset", c.preset);
    putGpuInput(cluster, c.gpu);
    putOptional(cluster, "num_gpus", c.numGpus);
    putOptional(cluster, "gpus_per_node", c.gpusPerNode);
    if (c.scaleUp)
        cluster["scale_up"] = scaleUpToJson(*c.scaleUp);
    if (c.scaleOut)
        cluster["scale_out"] = scaleOutToJson(*c.scaleOut);
    if (c.host)
        cluster["host"] = hostToJson(*c.host);
    if (c.graph)
        cluster["graph"] = *c.graph;
    writePools(c, cluster);
    j["cluster"] = cluster;

    Json training = Json::object();
    const TrainingInput& t = s.training;
    putOptional(training, "seq_len", t.seqLen);
    putOptional(training, "global_batch", t.globalBatch);
    putOptional(training, "micro_batch", t.microBatch);
    putEnum(training, "precision", t.precision);
    putEnum(training, "fp8_recipe", t.fp8Recipe);
    putEnum(training, "optimizer", t.optimizer);
    putOptional(training, "optimizer_in_backward", t.optimizerInBackward);
    putEnum(training, "optimizer_impl", t.optimizerImpl);
    putOptional(training, "compile", t.compile);
    putOptional(training, "master_weights", t.masterWeights);
    putEnum(training, "grad_reduce_dtype", t.gradReduceDtype);
    putOptional(training, "document_tokens", t.documentTokens);
    putOptional(training, "tokens", t.tokens);
    j["training"] = training;

    if (s.parallelism) {
        const ParallelInput& p = *s.parallelism;
        Json par = Json::object();
        putOptional(par, "tp", p.tp);
        putOptional(par, "pp", p.pp);
        putOptional(par, "cp", p.cp);
        putOptional(par, "ep", p.ep);
        putNullable(par, "etp", p.etp);
        putNullable(par, "dp", p.dp);
        putNullable(par, "dp_shard", p.dpShard);
        putEnum(par, "cp_comm", p.cpComm);
        putOptional(par, "vpp", p.vpp);
        putNullable(par, "pipeline_layers", p.pipelineLayers);
        putOptional(par, "sequence_parallel", p.sequenceParallel);
        putOptional(par, "moe_dispatch_fp8", p.moeDispatchFp8);
        putOptional(par, "embedding_in_pipeline_split", p.embeddingInPipelineSplit);
        putOptional(par, "loss_in_pipeline_split", p.lossInPipelineSplit);
        writePipelines(p, par);
        putOptional(par, "zero", p.zero);
        putEnum(par, "recompute", p.recompute);
        putNullable(par, "recompute_layers", p.recomputeLayers);
        putEnum(par, "schedule", p.schedule);
        if (p.offload) {
            Json o = Json::object();
            putEnum(o, "optimizer", p.offload->optimizer);
            putEnum(o, "params", p.offload->params);
            putEnum(o, "activations", p.offload->activations);
            par["offload"] = o;
        }
        if (p.overlap) {
            Json o = Json::object();
            putOptional(o, "tp", p.overlap->tp);
            putOptional(o, "dp", p.overlap->dp);
            putOptional(o, "pp", p.overlap->pp);
            putOptional(o, "ep", p.overlap->ep);
            par["overlap"] = o;
        }
        j["parallelism"] = par;
    }
    if (s.costs) {
        Json costs = Json::object();
        putOptional(costs, "gpu_hour_usd", s.costs->gpuHourUsd);
        putOptional(costs, "electricity_usd_kwh", s.costs->electricityUsdPerKwh);
        putOptional(costs, "pue", s.costs->pue);
        putOptional(costs, "grid_gco2_kwh", s.costs->gridGco2PerKwh);
        putEnum(costs, "ownership", s.costs->ownership);
        putOptional(costs, "amortization_years", s.costs->amortizationYears);
        putOptional(costs, "node_capex_usd", s.costs->nodeCapexUsd);
        putOptional(costs, "network_capex_usd", s.costs->networkCapexUsd);
        putOptional(costs, "gpu_idle_w", s.costs->gpuIdleW);
        putOptional(costs, "gpu_compute_fraction", s.costs->gpuComputeFraction);
        putOptional(costs, "gpu_memory_fraction", s.costs->gpuMemoryFraction);
        putOptional(costs, "gpu_comm_fraction", s.costs->gpuCommFraction);
        putOptional(costs, "host_w_per_node", s.costs->hostWPerNode);
        putOptional(costs, "network_w", s.costs->networkW);
        putOptional(costs, "carbon_csv", s.costs->carbonCsv);
        j["costs"] = costs;
    }
    if (s.execution)
        j["execution"] = executionToJson(*s.execution);
    if (s.finetune)
        j["finetune"] = finetuneToJson(*s.finetune);
    putNullable(j, "calibration", s.calibration);
    writeWholeNumbersAsIntegers(j);
    return j;
}

std::optional<Scenario> parseScenarioText(std::string_view text, Diagnostics& diags) {
    auto doc = parseJsonText(text, diags);
    if (!doc)
        return std::nullopt;
    return scenarioFromJson(*doc, diags);
}

std::string scenarioToText(const Scenario& scenario) {
    return scenarioToJson(scenario).dump(2) + "\n";
}

std::optional<std::string> readTextFile(const std::string& path, Diagnostics& diags) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        diags.error("", "\"" + path + "\" is a folder: expected a scenario file (.json)");
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diags.error("", "cannot open \"" + path + "\": " + std::strerror(errno));
        return std::nullopt;
    }
    std::string text;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxDocumentBytes) {
            diags.error("", "\"" + path + "\" is larger than " + std::to_string(kMaxDocumentBytes) +
                                " bytes: a scenario file is far smaller");
            return std::nullopt;
        }
    }
    if (in.bad()) {
        diags.error("", "cannot read \"" + path + "\"");
        return std::nullopt;
    }
    return text;
}

std::optional<Scenario> loadScenarioFile(const std::string& path, Diagnostics& diags) {
    auto text = readTextFile(path, diags);
    if (!text)
        return std::nullopt;
    return parseScenarioText(*text, diags);
}

bool writeTextFileAtomically(const std::string& path, const std::string& text, std::string& error) {
    FileWriteResult written = writeFileAtomically(path, text);
    error = written.error;
    return written.ok();
}

bool saveScenarioFile(const std::string& path, const Scenario& scenario, std::string& error) {
    return writeTextFileAtomically(path, scenarioToText(scenario), error);
}

} // namespace ts
