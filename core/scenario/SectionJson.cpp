#include "scenario/SectionJson.h"

#include "scenario/Limits.h"

#include <algorithm>
#include <utility>

namespace ts {

using namespace limits;

std::optional<GpuSpec> readGpuSpec(JsonObjectReader& r) {
    GpuSpec gpu;
    bool ok = true;
    for (const char* key :
         {"name", "memory_gib", "hbm_gb_s", "bf16_tflops", "fp8_tflops", "fp32_tflops", "tdp_w"})
        ok = r.require(key) && ok;
    const auto name = r.string("name", 200);
    const auto memory = r.number("memory_gib", kMemoryGiB);
    const auto hbm = r.number("hbm_gb_s", kBandwidthGBps);
    // 0: no BF16 (Turing, e.g. T4); such a GPU gives its FP16 peak in fp16_tflops.
    const auto bf16 = r.number("bf16_tflops", 0, kMaxTflops);
    const auto fp8 = r.number("fp8_tflops", 0, kMaxTflops); // 0: no FP8 tensor cores
    const auto fp32 = r.number("fp32_tflops", kTflops);
    const auto tdp = r.number("tdp_w", 0, kMaxPowerW, true);
    gpu.fp16Tflops = r.number("fp16_tflops", kTflops);
    gpu.tf32Tflops = r.number("tf32_tflops", kTflops);
    gpu.fp4Tflops = r.number("fp4_tflops", kTflops);
    gpu.mamfBf16Tflops = r.number("mamf_bf16_tflops", kTflops);
    gpu.mamfFp8Tflops = r.number("mamf_fp8_tflops", kTflops);
    gpu.idleW = r.number("idle_w", 0, kMaxPowerW);
    gpu.smCount = r.int32("sm_count", 1, 100'000);
    gpu.sfuExpTeraPerS = r.number("sfu_exp_tera_per_s", kExpTeraPerS);
    gpu.pcieGBps = r.number("pcie_gb_s", 0, kMaxBandwidthGBps, true);
    if (!ok || !name || !memory || !hbm || !bf16 || !fp8 || !fp32 || !tdp)
        return std::nullopt;
    gpu.name = *name;
    gpu.memoryGiB = *memory;
    gpu.hbmGBps = *hbm;
    gpu.bf16Tflops = *bf16;
    gpu.fp8Tflops = *fp8;
    gpu.fp32Tflops = *fp32;
    gpu.tdpW = *tdp;
    // 0 says "no such tensor cores"; anything else is bounded like every other peak.
    for (const auto& [key, value] :
         {std::pair{"bf16_tflops", gpu.bf16Tflops}, std::pair{"fp8_tflops", gpu.fp8Tflops}})
        if (value > 0 && value < kTflops.min)
            r.diagnostics().error(r.childPath(key),
                                  formatNumber(value) + " is out of range: expected 0 (none) or " +
                                      formatNumber(kTflops.min) + " to " +
                                      formatNumber(kTflops.max) + " (" + kTflops.reason + ")");
    if (gpu.bf16Tflops <= 0 && !gpu.fp16Tflops)
        r.diagnostics().error(r.childPath("fp16_tflops"),
                              "bf16_tflops 0 means no BF16: give the FP16 tensor peak in "
                              "fp16_tflops (e.g. 65 for a T4)");
    if (gpu.mamfBf16Tflops && *gpu.mamfBf16Tflops > gpu.bf16Tflops)
        r.diagnostics().error(r.childPath("mamf_bf16_tflops"),
                              "achievable matmul TFLOPS " + formatNumber(*gpu.mamfBf16Tflops) +
                                  " exceeds the BF16 peak " + formatNumber(gpu.bf16Tflops));
    if (gpu.mamfFp8Tflops && *gpu.mamfFp8Tflops > gpu.fp8Tflops)
        r.diagnostics().error(r.childPath("mamf_fp8_tflops"),
                              "achievable matmul TFLOPS " + formatNumber(*gpu.mamfFp8Tflops) +
                                  " exceeds the FP8 peak " + formatNumber(gpu.fp8Tflops));
    return gpu;
}

void writeGpuSpec(const GpuSpec& gpu, Json& out) {
    out["name"] = gpu.name;
    out["memory_gib"] = gpu.memoryGiB;
    out["hbm_gb_s"] = gpu.hbmGBps;
    out["bf16_tflops"] = gpu.bf16Tflops;
    out["fp8_tflops"] = gpu.fp8Tflops;
    out["fp32_tflops"] = gpu.fp32Tflops;
    out["tdp_w"] = gpu.tdpW;
    putOptional(out, "fp16_tflops", gpu.fp16Tflops);
    putOptional(out, "tf32_tflops", gpu.tf32Tflops);
    putOptional(out, "fp4_tflops", gpu.fp4Tflops);
    putOptional(out, "mamf_bf16_tflops", gpu.mamfBf16Tflops);
    putOptional(out, "pcie_gb_s", gpu.pcieGBps);
    putOptional(out, "mamf_fp8_tflops", gpu.mamfFp8Tflops);
    putOptional(out, "idle_w", gpu.idleW);
    putOptional(out, "sm_count", gpu.smCount);
    putOptional(out, "sfu_exp_tera_per_s", gpu.sfuExpTeraPerS);
}

static std::optional<MlaConfig> readMla(const Json& value, const std::string& path,
                                        Diagnostics& diags) {
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return std::nullopt;
    bool ok = true;
    for (const char* key :
         {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"})
        ok = r.require(key) && ok;
    const auto q = r.int32("q_lora_rank", 0, kMaxHeadDim);
    const auto kv = r.int32("kv_lora_rank", 1, kMaxHeadDim);
    const auto nope = r.int32("qk_nope_head_dim", 1, kMaxHeadDim);
    const auto rope = r.int32("qk_rope_head_dim", 0, kMaxHeadDim);
    const auto v = r.int32("v_head_dim", 1, kMaxHeadDim);
    r.finish();
    if (!ok || !q || !kv || !nope || !rope || !v)
        return std::nullopt;
    return MlaConfig{*q, *kv, *nope, *rope, *v};
}

// The rules of group-limited routing as Megatron-Core checks them (TransformerConfig:
// num_moe_experts % moe_router_num_groups == 0, moe_router_group_topk <=
// moe_router_num_groups; its group scores sum each group's top top_k / group_topk experts,
// so group_topk <= top_k), plus enough experts in the chosen groups for top_k.
bool checkMoeGroups(const MoeConfig& moe, const std::string& path, Diagnostics& diags) {
    const std::size_t errorsBefore = diags.errorCount();
    const int groups = moe.groupCount(), perToken = moe.groupsPerTokenCount();
    const std::string groupsPath = jsonPointerChild(path, "groups");
    const std::string perTokenPath = jsonPointerChild(path, "groups_per_token");
    if (!groups && !perToken)
        return true;
    if (!groups) {
        diags.error(groupsPath, "required with groups_per_token = " + std::to_string(perToken) +
                                    ": the number of expert groups, a divisor of experts = " +
                                    std::to_string(moe.experts) +
                                    " (DeepSeek-V3: \"groups\": 8, \"groups_per_token\": 4)");
        return false;
    }
    if (!perToken) {
        diags.error(perTokenPath,
                    "required with groups = " + std::to_string(groups) +
                        ": how many groups a token's experts may come from, 1 to " +
                        std::to_string(std::min(groups, moe.topK)) +
                        " (DeepSeek-V3: 4 of 8); or set groups to null for no group limit");
        return false;
    }
    if (moe.experts % groups != 0) {
        diags.error(groupsPath, "experts = " + std::to_string(moe.experts) +
                                    " is not divisible by groups = " + std::to_string(groups) +
                                    ": the groups must split the experts evenly");
        return false;
    }
    if (perToken > groups) {
        diags.error(perTokenPath, "groups_per_token = " + std::to_string(perToken) +
                                      " exceeds groups = " + std::to_string(groups) +
                                      ": choose 1 to " + std::to_string(groups));
        return false;
    }
    if (perToken > moe.topK) {
        diags.error(perTokenPath,
                    "groups_per_token = " + std::to_string(perToken) +
                        " exceeds top_k = " + std::to_string(moe.topK) +
                        ": each chosen group must be able to hold one of the token's experts "
                        "(Megatron-Core scores a group by its top top_k / groups_per_token "
                        "experts); choose 1 to " +
                        std::to_string(std::min(groups, moe.topK)));
        return false;
    }
    const int pool = perToken * (moe.experts / groups);
    if (moe.topK > pool)
        diags.error(
            perTokenPath,
            "groups_per_token = " + std::to_string(perToken) + ": that many groups of " +
                std::to_string(moe.experts / groups) + " experts hold " + std::to_string(pool) +
                ", fewer than top_k = " + std::to_string(moe.topK) + ": choose at least " +
                std::to_string((moe.topK + moe.experts / groups - 1) / (moe.experts / groups)));
    return diags.errorCount() == errorsBefore;
}

static std::optional<MoeConfig> readMoe(const Json& value, const std::string& path,
                                        Diagnostics& diags) {
    JsonObjectReader r(value, path, diags);
    if (!r.valid())
        return std::nullopt;
    bool ok = true;
    for (const char* key : {"experts", "top_k", "expert_ffn_hidden"})
        ok = r.require(key) && ok;
    MoeConfig moe;
    const auto experts = r.int32("experts", 1, kMaxExperts);
    const auto topK = r.int32("top_k", 1, kMaxExperts);
    const auto ffn = r.integer("expert_ffn_hidden", 1, kMaxFfnHidden);
    moe.sharedExperts = r.int32("shared_experts", 0, kMaxExperts).value_or(0);
    moe.firstDenseLayers = r.int32("first_dense_layers", 0, kMaxLayers).value_or(0);
    moe.capacityFactor = r.number("capacity_factor", kCapacityFactor);
    moe.expertBias = r.boolean("expert_bias");
    moe.routerBias = r.boolean("router_bias");
    // Group-limited routing; null (or absent) = none.
    for (auto [key, field] :
         {std::pair{"groups", &moe.groups}, std::pair{"groups_per_token", &moe.groupsPerToken}}) {
        if (r.isNull(key))
            *field = std::optional<int>{};
        else if (auto v = r.int32(key, 1, kMaxExperts))
            *field = std::optional<int>{*v};
        else if (r.has(key))
            ok = false; // reported by int32
    }
    r.finish();
    if (!ok || !experts || !topK || !ffn)
        return std::nullopt;
    moe.experts = *experts;
    moe.topK = *topK;
    moe.expertFfnHidden = *ffn;
    if (moe.topK > moe.experts)
        diags.error(jsonPointerChild(path, "top_k"),
                    "top_k = " + std::to_string(moe.topK) +
                        " exceeds experts = " + std::to_string(moe.experts) +
                        ": a token is routed to at most every expert");
    return moe; // the resolver checks groups against experts and top_k (checkMoeGroups)
}

ModelInput readModelFields(JsonObjectReader& r) {
    ModelInput m;
    m.layers = r.int32("layers", 1, kMaxLayers);
    m.hidden = r.integer("hidden", 1, kMaxHidden);
    m.ffnHidden = r.integer("ffn_hidden", 1, kMaxFfnHidden);
    m.heads = r.int32("heads", 1, kMaxHeads);
    m.kvHeads = r.int32("kv_heads", 1, kMaxHeads);
    m.headDim = r.int32("head_dim", 1, kMaxHeadDim);
    m.vocab = r.integer("vocab", 1, kMaxVocab);
    m.mlp = r.enumeration<MlpKind, EnumNames<MlpKind>>("mlp");
    m.tiedEmbeddings = r.boolean("tied_embeddings");
    if (const Json* mla = r.raw("mla")) {
        if (mla->is_null())
            m.mla = std::optional<MlaConfig>{};
        else if (auto parsed = readMla(*mla, r.childPath("mla"), r.diagnostics()))
            m.mla = parsed;
    }
    if (const Json* moe = r.raw("moe")) {
        if (moe->is_null())
            m.moe = std::optional<MoeConfig>{};
        else if (auto parsed = readMoe(*moe, r.childPath("moe"), r.diagnostics()))
            m.moe = parsed;
    }
    if (r.isNull("sliding_window"))
        m.slidingWindow = std::optional<std::int64_t>{};
    else if (auto w = r.integer("sliding_window", 1, kMaxSeqLen))
        m.slidingWindow = std::optional<std::int64_t>{*w};
    m.windowLayers = r.enumeration<WindowLayers, EnumNames<WindowLayers>>("window_layers");
    m.attentionSinks = r.boolean("attention_sinks");
    m.attentionBias = r.boolean("attention_bias");
    return m;
}

static Json mlaToJson(const MlaConfig& mla) {
    Json j = Json::object();
    j["q_lora_rank"] = mla.qLoraRank;
    j["kv_lora_rank"] = mla.kvLoraRank;
    j["qk_nope_head_dim"] = mla.qkNopeHeadDim;
    j["qk_rope_head_dim"] = mla.qkRopeHeadDim;
    j["v_head_dim"] = mla.vHeadDim;
    return j;
}

static Json moeToJson(const MoeConfig& moe) {
    Json j = Json::object();
    j["experts"] = moe.experts;
    j["top_k"] = moe.topK;
    j["expert_ffn_hidden"] = moe.expertFfnHidden;
    j["shared_experts"] = moe.sharedExperts;
    j["first_dense_layers"] = moe.firstDenseLayers;
    j["capacity_factor"] = moe.capacityFactor ? Json(*moe.capacityFactor) : Json(nullptr);
    // Only when written: files without group-limited routing stay as they were.
    if (moe.groups)
        j["groups"] = *moe.groups ? Json(**moe.groups) : Json(nullptr);
    if (moe.groupsPerToken)
        j["groups_per_token"] = *moe.groupsPerToken ? Json(**moe.groupsPerToken) : Json(nullptr);
    putOptional(j, "expert_bias", moe.expertBias);
    putOptional(j, "router_bias", moe.routerBias);
    return j;
}

void writeModelFields(const ModelInput& m, Json& out) {
    putOptional(out, "layers", m.layers);
    putOptional(out, "hidden", m.hidden);
    putOptional(out, "ffn_hidden", m.ffnHidden);
    putOptional(out, "heads", m.heads);
    putOptional(out, "kv_heads", m.kvHeads);
    putOptional(out, "head_dim", m.headDim);
    putOptional(out, "vocab", m.vocab);
    putEnum(out, "mlp", m.mlp);
    putOptional(out, "tied_embeddings", m.tiedEmbeddings);
    if (m.mla)
        out["mla"] = *m.mla ? mlaToJson(**m.mla) : Json(nullptr);
    if (m.moe)
        out["moe"] = *m.moe ? moeToJson(**m.moe) : Json(nullptr);
    if (m.slidingWindow)
        out["sliding_window"] = *m.slidingWindow ? Json(**m.slidingWindow) : Json(nullptr);
    putEnum(out, "window_layers", m.windowLayers);
    putOptional(out, "attention_sinks", m.attentionSinks);
    putOptional(out, "attention_bias", m.attentionBias);
}

ModelInput toModelInput(const ModelConfig& c) {
    ModelInput m;
    m.layers = c.layers;
    m.hidden = c.hidden;
    m.ffnHidden = c.ffnHidden;
    m.heads = c.heads;
    m.kvHeads = c.kvHeads;
    m.headDim = c.headDim;
    m.vocab = c.vocab;
    m.mlp = c.mlp;
    m.tiedEmbeddings = c.tiedEmbeddings;
    m.mla = c.mla;
    m.moe = c.moe;
    // Wave-3 keys: written only where they differ from what their absence means, so that a
    // model without them reads back as before.
    if (c.slidingWindow) {
        m.slidingWindow = c.slidingWindow;
        m.windowLayers = c.windowLayers;
    }
    if (c.attentionSinks)
        m.attentionSinks = true;
    if (c.attentionBias != (c.mlp == MlpKind::Gelu))
        m.attentionBias = c.attentionBias;
    return m;
}

std::optional<GpuInput> readGpuInput(JsonObjectReader& r) {
    Diagnostics& diags = r.diagnostics();
    const Json* gpu = r.raw("gpu");
    if (!gpu || gpu->is_null())
        return std::nullopt;
    if (gpu->is_string())
        return GpuInput{gpu->get<std::string>(), std::nullopt};
    if (gpu->is_object()) {
        JsonObjectReader g(*gpu, r.childPath("gpu"), diags);
        std::optional<GpuSpec> spec = readGpuSpec(g);
        g.finish();
        return spec ? std::optional<GpuInput>(GpuInput{std::nullopt, *spec}) : std::nullopt;
    }
    diags.error(r.childPath("gpu"), "expected a catalog GPU id (e.g. \"h100-sxm-80gb\") or a GPU "
                                    "object, got " +
                                        jsonTypeName(*gpu) + " (" + jsonPreview(*gpu) + ")");
    return std::nullopt;
}

void putGpuInput(Json& out, const std::optional<GpuInput>& gpu) {
    if (gpu && gpu->catalogId) {
        out["gpu"] = *gpu->catalogId;
    } else if (gpu && gpu->spec) {
        Json object = Json::object();
        writeGpuSpec(*gpu->spec, object);
        out["gpu"] = object;
    }
}

ScaleUpInput readScaleUp(JsonObjectReader& r) {
    ScaleUpInput s;
    s.domainGpus = r.int32("domain_gpus", 1, kMaxDomainGpus);
    s.bandwidthGBps = r.number("bandwidth_gb_s", kBandwidthGBps);
    s.latencyUs = r.number("latency_us", 0, kMaxLatencyUs);
    return s;
}

ScaleOutInput readScaleOut(JsonObjectReader& r) {
    ScaleOutInput s;
    s.topology = r.enumeration<ScaleOutTopology, EnumNames<ScaleOutTopology>>("topology");
    s.nicGbitPerS = r.number("nic_gbit_s", kBandwidthGbits);
    s.nicsPerNode = r.int32("nics_per_node", 0, kMaxNicsPerNode);
    s.oversubscription = r.number("oversubscription", 1, 1e3);
    s.latencyUs = r.number("latency_us", 0, kMaxLatencyUs);
    s.switchRadix = r.int32("switch_radix", 2, kMaxSwitchRadix);
    if (r.isNull("tiers"))
        s.tiers = std::optional<int>{};
    else if (auto tiers = r.int32("tiers", 1, kMaxTiers))
        s.tiers = std::optional<int>{*tiers};
    s.pods = r.int32("pods", 1, kMaxPods);
    s.wanGbitPerS = r.number("wan_gbit_s", kBandwidthGbits);
    s.wanLatencyUs = r.number("wan_latency_us", 0, kMaxLatencyUs);
    if (const Json* dims = r.raw("torus_dims"); dims && !dims->is_null()) {
        const std::string path = r.childPath("torus_dims");
        std::vector<int> out;
        if (!dims->is_array() || dims->size() < 2 || dims->size() > 3)
            r.diagnostics().error(path, "expected 2 or 3 integers (domains per dimension)");
        else
            for (std::size_t i = 0; i < dims->size(); ++i) {
                const Json& d = (*dims)[i];
                if (d.is_number_integer() && d.get<std::int64_t>() >= 1 &&
                    d.get<std::int64_t>() <= kMaxGpus)
                    out.push_back(static_cast<int>(d.get<std::int64_t>()));
                else
                    r.diagnostics().error(jsonPointerChild(path, i),
                                          "expected an integer >= 1, got " + jsonPreview(d));
            }
        if (out.size() == dims->size() && !out.empty())
            s.torusDims = out;
    }
    return s;
}

Json scaleUpToJson(const ScaleUpInput& s) {
    Json j = Json::object();
    putOptional(j, "domain_gpus", s.domainGpus);
    putOptional(j, "bandwidth_gb_s", s.bandwidthGBps);
    putOptional(j, "latency_us", s.latencyUs);
    return j;
}

Json scaleOutToJson(const ScaleOutInput& s) {
    Json j = Json::object();
    putEnum(j, "topology", s.topology);
    putOptional(j, "nic_gbit_s", s.nicGbitPerS);
    putOptional(j, "nics_per_node", s.nicsPerNode);
    putOptional(j, "oversubscription", s.oversubscription);
    putOptional(j, "latency_us", s.latencyUs);
    putOptional(j, "switch_radix", s.switchRadix);
    if (s.tiers)
        j["tiers"] = *s.tiers ? Json(**s.tiers) : Json(nullptr);
    putOptional(j, "pods", s.pods);
    putOptional(j, "wan_gbit_s", s.wanGbitPerS);
    putOptional(j, "wan_latency_us", s.wanLatencyUs);
    putOptional(j, "torus_dims", s.torusDims);
    return j;
}

// Host figures bound CPU/NVMe offload (ZeRO-Offload, Ren et al. 2021; ZeRO-Infinity,
// Rajbhandari et al. 2021): the PCIe link per GPU, host DRAM and the node's NVMe drives.
HostInput readHost(JsonObjectReader& r) {
    constexpr double kMaxNvmeGiB = 1e9;
    HostInput h;
    h.pcieGBps = r.number("pcie_gb_s", kBandwidthGBps);
    h.memoryGiB = r.number("memory_gib", kMemoryGiB);
    h.memoryGBps = r.number("memory_gb_s", kBandwidthGBps);
    h.nvmeReadGBps = r.number("nvme_read_gb_s", kBandwidthGBps);
    h.nvmeWriteGBps = r.number("nvme_write_gb_s", kBandwidthGBps);
    h.nvmeGiB = r.number("nvme_gib", 0, kMaxNvmeGiB, true);
    return h;
}

Json hostToJson(const HostInput& h) {
    Json j = Json::object();
    putOptional(j, "pcie_gb_s", h.pcieGBps);
    putOptional(j, "memory_gib", h.memoryGiB);
    putOptional(j, "memory_gb_s", h.memoryGBps);
    putOptional(j, "nvme_read_gb_s", h.nvmeReadGBps);
    putOptional(j, "nvme_write_gb_s", h.nvmeWriteGBps);
    putOptional(j, "nvme_gib", h.nvmeGiB);
    return j;
}

} // namespace ts
