#include "scenario/ExecutionJson.h"

#include "scenario/SectionJson.h"

#include <string>

namespace ts {

namespace {

constexpr double kMaxHostLaunchUs = 10'000; // 10 ms per kernel: far beyond any real host

// `name` in double quotes (built by appending: GCC 12 misreports "\"" + std::string).
std::string quoted(std::string_view name) {
    std::string out;
    out.reserve(name.size() + 2);
    out += '"';
    out += name;
    out += '"';
    return out;
}

std::string moduleList() {
    std::string out;
    for (std::string_view name : EnumNames<RecomputeModule>::names) {
        if (!out.empty())
            out += ", ";
        out += quoted(name);
    }
    return out;
}

std::optional<std::vector<RecomputeModule>> readModules(const Json& value, const std::string& path,
                                                        Diagnostics& diags) {
    if (!value.is_array()) {
        diags.error(path, "expected null or an array of Megatron --recompute-modules names (" +
                              moduleList() + "), got " + jsonTypeName(value) + " (" +
                              jsonPreview(value) + ")");
        return std::nullopt;
    }
    std::vector<RecomputeModule> modules;
    bool ok = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const Json& v = value[i];
        const auto m =
            v.is_string() ? enumFromString<RecomputeModule>(v.get<std::string>()) : std::nullopt;
        if (!m) {
            diags.error(jsonPointerChild(path, i),
                        "unknown module " + jsonPreview(v) + ": expected one of " + moduleList());
            ok = false;
            continue;
        }
        for (RecomputeModule seen : modules)
            if (seen == *m) {
                diags.error(jsonPointerChild(path, i),
                            quoted(enumName(*m)) + " is named twice: name each module once");
                ok = false;
            }
        modules.push_back(*m);
    }
    if (!ok)
        return std::nullopt;
    return modules;
}

} // namespace

Framework inferFramework(const TrainingConfig& training, const ParallelConfig& plan) {
    const bool pytorch = !training.masterWeights || training.compiled() || plan.zero >= 2;
    return pytorch ? Framework::Pytorch : Framework::Megatron;
}

CrossEntropy inferCrossEntropy(Framework framework, const TrainingConfig& training) {
    if (framework == Framework::Megatron)
        return CrossEntropy::Fused;
    return training.masterWeights ? CrossEntropy::Plain : CrossEntropy::Chunked;
}

ExecutionInput readExecution(JsonObjectReader& r) {
    ExecutionInput e;
    e.moeDispatcher = r.enumeration<MoeDispatcher, EnumNames<MoeDispatcher>>("moe_dispatcher");
    e.moeGroupedGemm = r.enumeration<MoeGroupedGemm, EnumNames<MoeGroupedGemm>>("moe_grouped_gemm");
    e.moeForceBalance = r.boolean("moe_force_balance");
    e.cudaGraphs = r.enumeration<CudaGraphs, EnumNames<CudaGraphs>>("cuda_graphs");
    if (r.isNull("recompute_modules"))
        e.recomputeModules = std::optional<std::vector<RecomputeModule>>{};
    else if (const Json* v = r.raw("recompute_modules")) {
        if (auto modules = readModules(*v, r.childPath("recompute_modules"), r.diagnostics()))
            e.recomputeModules = std::optional<std::vector<RecomputeModule>>{std::move(*modules)};
    }
    e.fp8Attention = r.boolean("fp8_attention");
    if (r.isNull("framework"))
        e.framework = std::optional<Framework>{};
    else if (auto f = r.enumeration<Framework, EnumNames<Framework>>("framework"))
        e.framework = std::optional<Framework>{*f};
    if (r.isNull("cross_entropy"))
        e.crossEntropy = std::optional<CrossEntropy>{};
    else if (auto c = r.enumeration<CrossEntropy, EnumNames<CrossEntropy>>("cross_entropy"))
        e.crossEntropy = std::optional<CrossEntropy>{*c};
    e.lossChunks = r.int32("loss_chunks", 1, kMaxLossChunks);
    e.attentionBackend =
        r.enumeration<AttentionBackend, EnumNames<AttentionBackend>>("attention_backend");
    e.fp8WeightCache = r.boolean("fp8_weight_cache");
    if (r.isNull("host_launch_us"))
        e.hostLaunchUs = std::optional<double>{};
    else if (auto v = r.number("host_launch_us", 0, kMaxHostLaunchUs))
        e.hostLaunchUs = std::optional<double>{*v};
    return e;
}

Json executionToJson(const ExecutionInput& e) {
    Json j = Json::object();
    putEnum(j, "moe_dispatcher", e.moeDispatcher);
    putEnum(j, "moe_grouped_gemm", e.moeGroupedGemm);
    putOptional(j, "moe_force_balance", e.moeForceBalance);
    putEnum(j, "cuda_graphs", e.cudaGraphs);
    if (e.recomputeModules) {
        if (!*e.recomputeModules) {
            j["recompute_modules"] = nullptr;
        } else {
            Json list = Json::array();
            for (RecomputeModule m : **e.recomputeModules)
                list.push_back(std::string(enumName(m)));
            j["recompute_modules"] = list;
        }
    }
    putOptional(j, "fp8_attention", e.fp8Attention);
    if (e.hostLaunchUs)
        j["host_launch_us"] = *e.hostLaunchUs ? Json(**e.hostLaunchUs) : Json(nullptr);
    if (e.framework)
        j["framework"] = *e.framework ? Json(std::string(enumName(**e.framework))) : Json(nullptr);
    if (e.crossEntropy)
        j["cross_entropy"] =
            *e.crossEntropy ? Json(std::string(enumName(**e.crossEntropy))) : Json(nullptr);
    putOptional(j, "loss_chunks", e.lossChunks);
    putEnum(j, "attention_backend", e.attentionBackend);
    putOptional(j, "fp8_weight_cache", e.fp8WeightCache);
    return j;
}

bool resolveExecution(const std::optional<ExecutionInput>& given, const ModelConfig& model,
                      const TrainingConfig& training, const ParallelConfig& plan,
                      ExecutionConfig& out, Diagnostics& diags) {
    const ExecutionInput in = given.value_or(ExecutionInput{});
    bool ok = true;
    out = ExecutionConfig{};
    out.moeDispatcher = in.moeDispatcher.value_or(MoeDispatcher::AllToAll);
    out.moeGroupedGemm = in.moeGroupedGemm.value_or(MoeGroupedGemm::Grouped);
    out.moeForceBalance = in.moeForceBalance.value_or(false);
    out.cudaGraphs = in.cudaGraphs.value_or(CudaGraphs::None);
    out.fp8Attention = in.fp8Attention.value_or(false);
    out.hostLaunchUs =
        in.hostLaunchUs && *in.hostLaunchUs ? **in.hostLaunchUs : kDefaultHostLaunchUs;
    const bool inferred = !(in.framework && *in.framework);
    out.framework = inferred ? inferFramework(training, plan) : **in.framework;
    // The one inference a Megatron-LM run can fall into: ZeRO 2/3 alone (Megatron-FSDP).
    if (inferred && out.framework == Framework::Pytorch && training.masterWeights &&
        !training.compiled())
        diags.warning("/execution/framework",
                      message(MessageId::FrameworkFromZero, {std::to_string(plan.zero)}));
    out.crossEntropy = in.crossEntropy && *in.crossEntropy
                           ? **in.crossEntropy
                           : inferCrossEntropy(out.framework, training);
    out.lossChunks = in.lossChunks.value_or(kDefaultLossChunks);
    out.attentionBackend = in.attentionBackend.value_or(AttentionBackend::Auto);
    out.fp8WeightCache = in.fp8WeightCache.value_or(true);
    if (in.lossChunks && out.crossEntropy != CrossEntropy::Chunked &&
        out.crossEntropy != CrossEntropy::LinearChunked)
        diags.warning("/execution/loss_chunks",
                      "has no effect with cross_entropy \"" +
                          std::string(enumName(out.crossEntropy)) +
                          "\": only \"chunked\" and \"linear-chunked\" split the loss");
    if (in.fp8WeightCache && !isLowPrecision(training.precision))
        diags.warning("/execution/fp8_weight_cache",
                      "has no effect with training.precision \"" +
                          std::string(enumName(training.precision)) +
                          "\": only FP8 and FP4 recipes keep a quantized weight copy");

    if (!model.moe) {
        for (const auto& [set, key] : {std::pair{in.moeDispatcher.has_value(), "moe_dispatcher"},
                                       {in.moeGroupedGemm.has_value(), "moe_grouped_gemm"},
                                       {in.moeForceBalance.value_or(false), "moe_force_balance"}})
            if (set)
                diags.warning(std::string("/execution/") + key, "has no effect without model.moe");
    } else if (plan.ep <= 1 && (out.moeDispatcher == MoeDispatcher::DeepEp ||
                                out.moeDispatcher == MoeDispatcher::HybridEp)) {
        diags.warning("/execution/moe_dispatcher",
                      quoted(enumName(out.moeDispatcher)) +
                          " with ep = 1: there is no expert all-to-all to dispatch");
    }

    const char* modulesPath = "/execution/recompute_modules";
    const bool modulesGiven = in.recomputeModules && *in.recomputeModules;
    if (plan.recompute == RecomputeMode::Selective) {
        out.recomputeModules = modulesGiven
                                   ? **in.recomputeModules
                                   : std::vector<RecomputeModule>{RecomputeModule::CoreAttn};
        for (std::size_t i = 0; i < out.recomputeModules.size(); ++i) {
            const RecomputeModule m = out.recomputeModules[i];
            const bool moeOnly = m == RecomputeModule::MoeAct || m == RecomputeModule::Moe ||
                                 m == RecomputeModule::SharedExperts;
            const bool lacks = (moeOnly && !model.moe) ||
                               (m == RecomputeModule::SharedExperts && model.moe &&
                                model.moe->sharedExperts == 0) ||
                               (m == RecomputeModule::MlaUpProj && !model.mla);
            if (lacks && modulesGiven)
                diags.warning(jsonPointerChild(modulesPath, i),
                              quoted(enumName(m)) +
                                  ": the model has no such module, so nothing is recomputed");
        }
    } else if (modulesGiven) {
        diags.error(modulesPath, "only applies with parallelism.recompute \"selective\" (now \"" +
                                     std::string(enumName(plan.recompute)) +
                                     "\"): set recompute to \"selective\" or remove the key");
        ok = false;
    }

    if (out.fp8Attention && !isLowPrecision(training.precision)) {
        diags.error("/execution/fp8_attention",
                    "attention in FP8 needs an FP8 training precision (\"fp8\", \"mxfp8\" or "
                    "\"nvfp4\"; now \"" +
                        std::string(enumName(training.precision)) + "\"): set it to false");
        ok = false;
    }
    return ok;
}

ExecutionInput explicitExecution(const ExecutionConfig& e, const ModelConfig& model,
                                 const TrainingConfig& training, const ParallelConfig& plan) {
    ExecutionInput in;
    if (model.moe) {
        in.moeDispatcher = e.moeDispatcher;
        in.moeGroupedGemm = e.moeGroupedGemm;
        in.moeForceBalance = e.moeForceBalance;
    }
    in.cudaGraphs = e.cudaGraphs;
    if (plan.recompute == RecomputeMode::Selective)
        in.recomputeModules = std::optional<std::vector<RecomputeModule>>{e.recomputeModules};
    if (isLowPrecision(training.precision))
        in.fp8Attention = e.fp8Attention;
    in.hostLaunchUs = std::optional<double>{e.hostLaunchUs};
    in.framework = std::optional<Framework>{e.framework};
    in.crossEntropy = std::optional<CrossEntropy>{e.crossEntropy};
    return in;
}

} // namespace ts
