#include "scenario/PoolJson.h"

#include "scenario/Limits.h"
#include "scenario/SectionJson.h"

namespace ts {

using namespace limits;

namespace {

// Ids name pools in parallelism.pipelines and (issue 33) sites; a short printable name.
constexpr std::size_t kMaxIdLength = 64;
// More pools than GPU kinds a planner would mix; bounds the search's stage-to-pool orders.
constexpr std::size_t kMaxPools = 64;
constexpr std::size_t kMaxPipelineEntries = 4096;

PoolInput readPool(const Json& value, const std::string& path, Diagnostics& diags) {
    PoolInput p;
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return p;
    r.require("id", "give the pool a name, e.g. \"a100\", that parallelism.pipelines names");
    r.require("gpu", "give a catalog GPU id, e.g. \"h100-sxm-80gb\"");
    r.require("num_gpus", "give the pool's GPUs, e.g. 64");
    p.id = r.string("id", kMaxIdLength);
    if (p.id && p.id->empty())
        diags.error(r.childPath("id"), "a pool id must not be empty");
    p.gpu = readGpuInput(r);
    p.numGpus = r.integer("num_gpus", kGpus);
    p.gpusPerNode = r.int32("gpus_per_node", kGpusPerNode);
    if (const Json* up = r.raw("scale_up"); up && !up->is_null()) {
        JsonObjectReader u(*up, r.childPath("scale_up"), diags);
        if (u.valid()) {
            p.scaleUp = readScaleUp(u);
            u.finish();
        }
    }
    p.nicGbitPerS = r.number("nic_gbit_s", kBandwidthGbits);
    p.nicsPerNode = r.int32("nics_per_node", kNicsPerNode);
    if (r.isNull("site"))
        p.site = std::optional<std::string>{};
    else if (auto site = r.string("site", kMaxIdLength))
        p.site = std::optional<std::string>{*site};
    p.gpuHourUsd = r.number("gpu_hour_usd", kPrice);
    r.finish();
    return p;
}

PipelineEntryInput readPipelineEntry(const Json& value, const std::string& path,
                                     Diagnostics& diags) {
    PipelineEntryInput e;
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return e;
    e.count = r.int32("count", kGpus);
    r.require("stages", "list the pipeline's stages, e.g. [{\"pool\": \"h100\", \"tp\": 8}]");
    if (const Json* stages = r.raw("stages"); stages && !stages->is_null()) {
        const std::string stagesPath = r.childPath("stages");
        if (!stages->is_array() || stages->empty()) {
            diags.error(stagesPath, "expected a non-empty list of stages {\"pool\", \"tp\"}");
        } else if (stages->size() > std::size_t(kPipelineStages.max)) {
            diags.error(stagesPath, "at most " + std::to_string(kPipelineStages.max) +
                                        " stages per pipeline (" + kPipelineStages.reason + ")");
        } else {
            std::vector<PipelineStageInput> list;
            for (std::size_t i = 0; i < stages->size(); ++i) {
                JsonObjectReader s((*stages)[i], stagesPath + "/" + std::to_string(i), diags);
                if (!s.valid())
                    continue;
                PipelineStageInput st;
                s.require("pool", "name a pool of cluster.pools");
                st.pool = s.string("pool", kMaxIdLength);
                st.tp = s.int32("tp", kGpus);
                s.finish();
                list.push_back(st);
            }
            e.stages = std::move(list);
        }
    }
    e.microBatch = r.integer("micro_batch", 1, kMaxGlobalBatch);
    if (r.isNull("sequences"))
        e.sequences = std::optional<std::int64_t>{};
    else if (auto v = r.integer("sequences", 1, kMaxGlobalBatch))
        e.sequences = std::optional<std::int64_t>{*v};
    r.finish();
    return e;
}

} // namespace

void readPools(JsonObjectReader& r, ClusterInput& out) {
    Diagnostics& diags = r.diagnostics();
    if (const Json* pools = r.raw("pools"); pools && !pools->is_null()) {
        const std::string path = r.childPath("pools");
        if (!pools->is_array() || pools->empty()) {
            diags.error(path, "expected a non-empty list of pools {\"id\", \"gpu\", \"num_gpus\"}");
        } else if (pools->size() > kMaxPools) {
            diags.error(path, "at most " + std::to_string(kMaxPools) + " pools");
        } else {
            std::vector<PoolInput> list;
            for (std::size_t i = 0; i < pools->size(); ++i)
                list.push_back(readPool((*pools)[i], path + "/" + std::to_string(i), diags));
            out.pools = std::move(list);
        }
    }
    if (r.isNull("pool_link_gbit_s"))
        out.poolLinkGbitPerS = std::optional<double>{};
    else if (auto v = r.number("pool_link_gbit_s", kBandwidthGbits))
        out.poolLinkGbitPerS = std::optional<double>{*v};
}

void writePools(const ClusterInput& in, Json& cluster) {
    if (in.pools) {
        Json list = Json::array();
        for (const PoolInput& p : *in.pools) {
            Json j = Json::object();
            putOptional(j, "id", p.id);
            putGpuInput(j, p.gpu);
            putOptional(j, "num_gpus", p.numGpus);
            putOptional(j, "gpus_per_node", p.gpusPerNode);
            if (p.scaleUp)
                j["scale_up"] = scaleUpToJson(*p.scaleUp);
            putOptional(j, "nic_gbit_s", p.nicGbitPerS);
            putOptional(j, "nics_per_node", p.nicsPerNode);
            if (p.site)
                j["site"] = *p.site ? Json(**p.site) : Json(nullptr);
            putOptional(j, "gpu_hour_usd", p.gpuHourUsd);
            list.push_back(std::move(j));
        }
        cluster["pools"] = std::move(list);
    }
    if (in.poolLinkGbitPerS)
        cluster["pool_link_gbit_s"] =
            *in.poolLinkGbitPerS ? Json(**in.poolLinkGbitPerS) : Json(nullptr);
}

void readPipelines(JsonObjectReader& r, ParallelInput& out) {
    Diagnostics& diags = r.diagnostics();
    const Json* pipelines = r.raw("pipelines");
    if (!pipelines || pipelines->is_null())
        return;
    const std::string path = r.childPath("pipelines");
    if (!pipelines->is_array() || pipelines->empty()) {
        diags.error(path, "expected a non-empty list of pipelines {\"count\", \"stages\"}");
        return;
    }
    if (pipelines->size() > kMaxPipelineEntries) {
        diags.error(path, "at most " + std::to_string(kMaxPipelineEntries) +
                              " entries: give identical replicas one entry with a count");
        return;
    }
    std::vector<PipelineEntryInput> list;
    for (std::size_t i = 0; i < pipelines->size(); ++i)
        list.push_back(readPipelineEntry((*pipelines)[i], path + "/" + std::to_string(i), diags));
    out.pipelines = std::move(list);
}

void writePipelines(const ParallelInput& in, Json& parallelism) {
    if (!in.pipelines)
        return;
    Json list = Json::array();
    for (const PipelineEntryInput& e : *in.pipelines) {
        Json j = Json::object();
        putOptional(j, "count", e.count);
        if (e.stages) {
            Json stages = Json::array();
            for (const PipelineStageInput& s : *e.stages) {
                Json st = Json::object();
                putOptional(st, "pool", s.pool);
                putOptional(st, "tp", s.tp);
                stages.push_back(std::move(st));
            }
            j["stages"] = std::move(stages);
        }
        putOptional(j, "micro_batch", e.microBatch);
        if (e.sequences)
            j["sequences"] = *e.sequences ? Json(**e.sequences) : Json(nullptr);
        list.push_back(std::move(j));
    }
    parallelism["pipelines"] = std::move(list);
}

} // namespace ts
