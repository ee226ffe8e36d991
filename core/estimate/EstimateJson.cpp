#include "estimate/EstimateJson.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace ts {

namespace {

using nlohmann::ordered_json;

ordered_json bytesValue(double bytes) {
    return static_cast<std::int64_t>(std::llround(bytes));
}

ordered_json optionalValue(const std::optional<double>& v) {
    return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json memoryBreakdownJson(const MemoryBreakdown& b) {
    ordered_json j = ordered_json::object();
    j["weights"] = bytesValue(b.weights);
    j["gradients"] = bytesValue(b.gradients);
    j["optimizer"] = bytesValue(b.optimizer);
    j["activations"] = bytesValue(b.activations);
    j["comm_buffers"] = bytesValue(b.commBuffers);
    j["framework"] = bytesValue(b.framework);
    return j;
}

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

constexpr double kGiB = double(1ull << 30);

} // namespace

nlohmann::ordered_json estimateToJson(const Estimate& e) {
    ordered_json j = ordered_json::object();
    j["format"] = kEstimateFormat;
    j["fits"] = e.fits;

    ordered_json memory = ordered_json::object();
    memory["capacity_bytes"] = bytesValue(e.capacityBytes);
    memory["peak_bytes"] = bytesValue(e.peakBytes);
    memory["breakdown_bytes"] = memoryBreakdownJson(e.peakBreakdown);
    j["memory"] = std::move(memory);

    ordered_json time = ordered_json::object();
    time["step_s"] = e.stepSeconds;
    ordered_json tb = ordered_json::object();
    tb["compute"] = e.time.compute;
    tb["recompute"] = e.time.recompute;
    tb["tp_exposed"] = e.time.tpExposed;
    tb["cp_exposed"] = e.time.cpExposed;
    tb["ep_exposed"] = e.time.epExposed;
    tb["pp_exposed"] = e.time.ppExposed;
    tb["pipeline_bubble"] = e.time.pipelineBubble;
    tb["dp_exposed"] = e.time.dpExposed;
    tb["optimizer"] = e.time.optimizer;
    tb["offload_exposed"] = e.time.offloadExposed;
    time["breakdown_s"] = std::move(tb);
    j["time"] = std::move(time);

    ordered_json tp = ordered_json::object();
    tp["tokens_per_s"] = e.tokensPerS;
    tp["tokens_per_s_per_gpu"] = e.tokensPerSPerGpu;
    tp["model_tflops_per_gpu"] = e.modelTflopsPerGpu;
    tp["mfu"] = e.mfu;
    j["throughput"] = std::move(tp);

    ordered_json comm = ordered_json::object();
    ordered_json perGpu = ordered_json::object();
    perGpu["tp"] = bytesValue(e.commBytesPerGpu.tp);
    perGpu["cp"] = bytesValue(e.commBytesPerGpu.cp);
    perGpu["ep"] = bytesValue(e.commBytesPerGpu.ep);
    perGpu["pp"] = bytesValue(e.commBytesPerGpu.pp);
    perGpu["dp"] = bytesValue(e.commBytesPerGpu.dp);
    comm["bytes_per_gpu_per_step"] = std::move(perGpu);
    ordered_json byLink = ordered_json::object();
    byLink["scale_up"] = bytesValue(e.commBytesByLink.scaleUp);
    byLink["scale_out"] = bytesValue(e.commBytesByLink.scaleOut);
    comm["bytes_per_step_by_link"] = std::move(byLink);
    j["communication"] = std::move(comm);

    ordered_json energy = ordered_json::object();
    energy["step_j"] = optionalValue(e.stepJoules);
    energy["avg_power_w"] = optionalValue(e.avgPowerW);
    energy["train_kwh"] = optionalValue(e.trainKwh);
    energy["train_co2_kg"] = optionalValue(e.trainCo2Kg);
    j["energy"] = std::move(energy);

    ordered_json cost = ordered_json::object();
    cost["train_usd"] = optionalValue(e.trainUsd);
    cost["usd_per_million_tokens"] = optionalValue(e.usdPerMillionTokens);
    j["cost"] = std::move(cost);

    ordered_json train = ordered_json::object();
    train["steps"] = optionalValue(e.trainSteps);
    train["days"] = optionalValue(e.trainDays);
    j["train"] = std::move(train);

    ordered_json warnings = ordered_json::array();
    for (const std::string& w : e.warnings)
        warnings.push_back(w);
    j["warnings"] = std::move(warnings);
    return j;
}

std::string estimateToText(const Estimate& e) {
    std::string out;
    out += e.fits ? "fits: yes" : "fits: NO";
    out +=
        format("  peak %.1f GiB of %.1f GiB (stage ", e.peakBytes / kGiB, e.capacityBytes / kGiB);
    out += std::to_string(e.peakStage) + ")\n";
    const MemoryBreakdown& m = e.peakBreakdown;
    out += format("  memory: weights %.1f, gradients %.1f, optimizer %.1f GiB\n", m.weights / kGiB,
                  m.gradients / kGiB, m.optimizer / kGiB);
    out += format("          activations %.1f, comm buffers %.1f, framework %.1f GiB\n",
                  m.activations / kGiB, m.commBuffers / kGiB, m.framework / kGiB);
    out += format("step: %.3f s", e.stepSeconds);
    out += "  (" + std::to_string(e.microbatches) + " micro-batches)\n";
    const TimeBreakdown& t = e.time;
    const auto line = [&](const char* name, double v) {
        if (v <= 0 && std::string(name) != "compute")
            return;
        char buf[96];
        std::snprintf(buf, sizeof buf, "  %-16s %9.3f s  %5.1f%%\n", name, v,
                      e.stepSeconds > 0 ? 100.0 * v / e.stepSeconds : 0.0);
        out += buf;
    };
    line("compute", t.compute);
    line("recompute", t.recompute);
    line("tp exposed", t.tpExposed);
    line("cp exposed", t.cpExposed);
    line("ep exposed", t.epExposed);
    line("pp exposed", t.ppExposed);
    line("pipeline bubble", t.pipelineBubble);
    line("dp exposed", t.dpExposed);
    line("optimizer", t.optimizer);
    line("offload exposed", t.offloadExposed);
    out += format("throughput: %.0f tokens/s, %.1f tokens/s per GPU\n", e.tokensPerS,
                  e.tokensPerSPerGpu);
    out += format("model TFLOP/s per GPU: %.1f  MFU: %.1f%%\n", e.modelTflopsPerGpu, 100.0 * e.mfu);
    const CommBytesByDimension& c = e.commBytesPerGpu;
    out +=
        format("communication per GPU per step: tp %.2f GB, pp %.2f GB,", c.tp / 1e9, c.pp / 1e9);
    out += format(" dp %.2f GB\n", c.dp / 1e9);
    out += format("cluster traffic per step: scale-up %.1f GB, scale-out %.1f GB\n",
                  e.commBytesByLink.scaleUp / 1e9, e.commBytesByLink.scaleOut / 1e9);
    if (e.trainSteps && e.trainDays)
        out += format("training: %.0f steps, %.1f days\n", *e.trainSteps, *e.trainDays);
    for (const std::string& w : e.warnings)
        out += "warning: " + w + "\n";
    return out;
}

} // namespace ts
