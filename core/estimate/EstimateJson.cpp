#include "estimate/EstimateJson.h"

#include "accuracy/ErrorBand.h"

#include "common/TextFormat.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <utility>

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

// Offloaded states on the busiest node's host (beyond the spec; estimate/Offload.h): null
// when nothing is offloaded, capacities null when the host figure is unknown.
ordered_json hostMemoryJson(const std::optional<HostMemory>& h) {
    if (!h)
        return nullptr;
    ordered_json j = ordered_json::object();
    j["bytes_per_node"] = bytesValue(h->bytesPerNode);
    j["capacity_bytes"] = h->capacityBytes ? bytesValue(*h->capacityBytes) : ordered_json(nullptr);
    j["nvme_bytes_per_node"] = bytesValue(h->nvmeBytesPerNode);
    j["nvme_capacity_bytes"] =
        h->nvmeCapacityBytes ? bytesValue(*h->nvmeCapacityBytes) : ordered_json(nullptr);
    return j;
}

constexpr double kGiB = double(1ull << 30);

// Beyond the spec's four energy fields: the breakdown by consumer, the power figures used,
// the cost model, and one step's facility power trace (core/energy/EnergyReport.h).
void addEnergyDetail(ordered_json& energy, const EnergyReport& r) {
    ordered_json b = ordered_json::object();
    b["gpus"] = r.stepJoules.gpus;
    b["hosts"] = r.stepJoules.hosts;
    b["network"] = r.stepJoules.network;
    b["cooling"] = r.stepJoules.cooling;
    energy["step_breakdown_j"] = std::move(b);
    ordered_json g = ordered_json::object();
    g["compute_bound"] = r.gpuWatts.computeBound;
    g["memory_bound"] = r.gpuWatts.memoryBound;
    g["communicating"] = r.gpuWatts.communicating;
    g["idle"] = r.gpuWatts.idle;
    energy["gpu_phase_w"] = std::move(g);
    energy["host_w_per_node"] = r.hostWPerNode;
    energy["network_w"] = r.networkW;
    energy["pue"] = r.pue;
    energy["peak_node_w"] = r.peakNodeW;
    energy["node_max_w"] = r.nodeMaxW > 0 ? ordered_json(r.nodeMaxW) : ordered_json(nullptr);
    energy["step_co2_kg"] = optionalValue(r.stepCo2Kg);
    energy["gpu_hours_per_step"] = r.gpuHoursPerStep;
    energy["ownership"] = r.ownership;
    energy["train_gpu_hours"] = optionalValue(r.trainGpuHours);
    energy["train_electricity_usd"] = optionalValue(r.trainElectricityUsd);
    if (r.window) {
        const GridWindow& w = *r.window;
        ordered_json win = ordered_json::object();
        win["run_hours"] = w.runHours;
        win["first_start"] = w.firstStart;
        win["first_co2_kg"] = w.firstCo2Kg;
        win["first_electricity_usd"] = optionalValue(w.firstElectricityUsd);
        win["lowest_co2_start"] = w.lowestCo2Start;
        win["lowest_co2_kg"] = w.lowestCo2Kg;
        win["lowest_price_start"] = w.lowestPriceStart;
        win["lowest_electricity_usd"] = optionalValue(w.lowestElectricityUsd);
        energy["grid_window"] = std::move(win);
    }
    ordered_json trace = ordered_json::array();
    for (const PowerSample& p : r.powerTrace)
        trace.push_back(ordered_json::array({p.timeS, p.watts}));
    energy["power_trace"] = {{"covers_step", r.traceCoversStep},
                             {"end_s", r.traceEndS},
                             {"samples_s_w", std::move(trace)}};
}

} // namespace

namespace {

// A run's total in the largest unit it fills at least once (a LoRA run is kWh, not "0 MWh").
std::string scaledText(double value, std::initializer_list<std::pair<double, const char*>> units) {
    for (const auto& [scale, name] : units)
        if (value >= scale || scale == (units.end() - 1)->first)
            return printfText(value >= 100 * scale ? "%.0f %s" : "%.2f %s", value / scale, name);
    return {};
}

std::string energyText(const Estimate& e) {
    if (!e.energyReport || !e.stepJoules || !e.avgPowerW)
        return {};
    const EnergyReport& r = *e.energyReport;
    const EnergyBreakdown& b = r.stepJoules;
    const double total = b.total() > 0 ? b.total() : 1.0;
    std::string out;
    out += printfText("energy: %.2f MJ per step, average %.3f MW (PUE %.2f)\n", *e.stepJoules / 1e6,
                      *e.avgPowerW / 1e6, r.pue);
    if (r.stepCo2Kg)
        out += printfText("  CO2 %.3f kg per step\n", *r.stepCo2Kg);
    out += printfText("  GPUs %.1f%%, hosts %.1f%%,", 100 * b.gpus / total, 100 * b.hosts / total);
    out += printfText(" network %.1f%%, cooling %.1f%%\n", 100 * b.network / total,
                      100 * b.cooling / total);
    out += printfText("  GPU W: compute %.0f, memory %.0f,", r.gpuWatts.computeBound,
                      r.gpuWatts.memoryBound);
    out +=
        printfText(" communicating %.0f, idle %.0f\n", r.gpuWatts.communicating, r.gpuWatts.idle);
    out += printfText("  node peak %.2f kW", r.peakNodeW / 1e3);
    out += r.nodeMaxW > 0 ? printfText(" of %.2f kW rated\n", r.nodeMaxW / 1e3) : "\n";
    if (e.usdPerMillionTokens)
        out += "cost (" + r.ownership +
               "): " + printfText("$%.3f per million tokens\n", *e.usdPerMillionTokens);
    if (e.trainKwh)
        out += "train: " + scaledText(*e.trainKwh, {{1e3, "MWh"}, {1, "kWh"}}) +
               (e.trainCo2Kg ? ", " + scaledText(*e.trainCo2Kg, {{1e3, "t CO2"}, {1, "kg CO2"}})
                             : std::string()) +
               (e.trainUsd ? printfText(*e.trainUsd >= 1e6 ? ", $%.2fM" : ", $%.2f",
                                        *e.trainUsd >= 1e6 ? *e.trainUsd / 1e6 : *e.trainUsd)
                           : std::string()) +
               (r.trainGpuHours
                    ? ", " + scaledText(*r.trainGpuHours, {{1e6, "M GPU-hours"}, {1, "GPU-hours"}})
                    : std::string()) +
               "\n";
    if (r.window)
        out += printfText("grid window: first hour %.0f t CO2, best start %.0f t CO2",
                          r.window->firstCo2Kg / 1e3, r.window->lowestCo2Kg / 1e3) +
               " (" + r.window->lowestCo2Start + ")\n";
    return out;
}

// time.expected_error: null when no band is attached (accuracy/ErrorBand.h).
ordered_json expectedErrorJson(const std::optional<ExpectedError>& band) {
    if (!band)
        return nullptr;
    ordered_json j = ordered_json::object();
    j["low"] = band->low;
    j["high"] = band->high;
    j["cases"] = band->cases;
    j["basis"] = band->basis;
    return j;
}

} // namespace

nlohmann::ordered_json estimateToJson(const Estimate& e) {
    ordered_json j = ordered_json::object();
    j["format"] = kEstimateFormat;
    j["fits"] = e.fits;
    if (e.hetero) { // heterogeneous clusters: the GPUs the plan uses and leaves
        j["used_gpus"] = e.hetero->usedGpus;
        j["unused_gpus"] = e.hetero->unusedGpus;
    }

    ordered_json memory = ordered_json::object();
    memory["capacity_bytes"] = bytesValue(e.capacityBytes);
    memory["peak_bytes"] = bytesValue(e.peakBytes);
    memory["peak_allocated_bytes"] = bytesValue(e.peakAllocatedBytes);
    memory["peak_reserved_bytes"] = bytesValue(e.peakReservedBytes);
    memory["peak_active_bytes"] = bytesValue(e.peakActiveBytes);
    memory["breakdown_bytes"] = memoryBreakdownJson(e.peakBreakdown);
    // Fine-tuning with adapters: the weights split into the frozen base and the adapters.
    if (e.peakBreakdown.frozenWeights > 0)
        memory["frozen_weights_bytes"] = bytesValue(e.peakBreakdown.frozenWeights);
    memory["host_memory"] = hostMemoryJson(e.hostMemory);
    memory["expected_error"] = expectedErrorJson(e.memoryExpectedError);
    if (e.hetero) {
        ordered_json pools = ordered_json::array();
        for (const PoolMemory& p : e.hetero->perPool)
            pools.push_back({{"pool", p.pool},
                             {"peak_bytes", bytesValue(p.peakBytes)},
                             {"capacity_bytes", bytesValue(p.capacityBytes)},
                             {"fits", p.fits}});
        memory["per_pool"] = std::move(pools);
    }
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
    time["expected_error"] = expectedErrorJson(e.expectedError);
    if (e.hetero) {
        time["per_pipeline_s"] = e.hetero->perPipelineSeconds;
        time["straggler"] = {{"pipeline", e.hetero->straggler.pipeline},
                             {"stage", e.hetero->straggler.stage},
                             {"pool", e.hetero->straggler.pool}};
    }
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
    if (e.energyReport)
        addEnergyDetail(energy, *e.energyReport);
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
    for (const Message& w : e.warnings)
        warnings.push_back(w.english);
    j["warnings"] = std::move(warnings);
    return j;
}

std::string estimateToText(const Estimate& e) {
    std::string out;
    out += e.fits ? "fits: yes" : "fits: NO";
    out += printfText("  peak %.1f GiB of %.1f GiB (stage ", e.peakBytes / kGiB,
                      e.capacityBytes / kGiB);
    out += std::to_string(e.peakStage) + ")";
    if (e.memoryExpectedError)
        out += ", " + errorBandText(*e.memoryExpectedError);
    out += "\n";
    if (e.memoryExpectedError)
        out += "  similar memory figures: " + e.memoryExpectedError->basis + "\n";
    const MemoryBreakdown& m = e.peakBreakdown;
    out += printfText("  PyTorch: allocated %.1f GiB, reserved %.1f GiB\n",
                      e.peakAllocatedBytes / kGiB, e.peakReservedBytes / kGiB);
    if (m.frozenWeights > 0) // LoRA / QLoRA: of the weights below
        out += printfText("  fine-tuning: frozen base %.2f GiB, adapters %.3f GiB\n",
                          m.frozenWeights / kGiB, (m.weights - m.frozenWeights) / kGiB);
    out += printfText("  memory: weights %.1f, gradients %.1f, optimizer %.1f GiB\n",
                      m.weights / kGiB, m.gradients / kGiB, m.optimizer / kGiB);
    out += printfText("          activations %.1f, comm buffers %.1f, framework %.1f GiB\n",
                      m.activations / kGiB, m.commBuffers / kGiB, m.framework / kGiB);
    if (e.hetero) { // pools of unlike GPUs
        const HeteroReport& h = *e.hetero;
        out += "  per pool:";
        for (const PoolMemory& p : h.perPool)
            out += printfText(" %s %.1f of %.1f GiB%s;", p.pool.c_str(), p.peakBytes / kGiB,
                              p.capacityBytes / kGiB, p.fits ? "" : " (does not fit)");
        out += printfText(" %lld GPUs used, %lld unused\n", static_cast<long long>(h.usedGpus),
                          static_cast<long long>(h.unusedGpus));
        out += "  per pipeline (before the reduction):";
        for (double t : h.perPipelineSeconds)
            out += printfText(" %.3f s", t);
        out += printfText("; straggler: pipeline %d, stage %d on pool %s\n", h.straggler.pipeline,
                          h.straggler.stage, h.straggler.pool.c_str());
    }
    if (e.hostMemory) {
        const HostMemory& h = *e.hostMemory;
        out += printfText("  offloaded: %.1f GiB host memory per node", h.bytesPerNode / kGiB);
        out += h.capacityBytes ? printfText(" of %.1f GiB", *h.capacityBytes / kGiB)
                               : " (capacity unknown)";
        if (h.nvmeBytesPerNode > 0)
            out += printfText(", %.2f TB NVMe per node", h.nvmeBytesPerNode / 1e12);
        out += "\n";
    }
    out += printfText("step: %.3f s", e.stepSeconds);
    if (e.expectedError)
        out += ", " + errorBandText(*e.expectedError);
    out += "  (" + std::to_string(e.microbatches) + " micro-batches)\n";
    if (e.expectedError)
        out += "  similar runs: " + e.expectedError->basis + "\n";
    const TimeBreakdown& t = e.time;
    const auto line = [&](const char* name, double v) {
        if (v <= 0 && std::string(name) != "compute")
            return;
        out += printfText("  %-16s %9.3f s  %5.1f%%\n", name, v,
                          e.stepSeconds > 0 ? 100.0 * v / e.stepSeconds : 0.0);
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
    out += printfText("throughput: %.0f tokens/s, %.1f tokens/s per GPU\n", e.tokensPerS,
                      e.tokensPerSPerGpu);
    out += printfText("model TFLOP/s per GPU: %.1f  MFU: %.1f%%\n", e.modelTflopsPerGpu,
                      100.0 * e.mfu);
    const CommBytesByDimension& c = e.commBytesPerGpu;
    out += printfText("communication per GPU per step: tp %.2f GB, pp %.2f GB,", c.tp / 1e9,
                      c.pp / 1e9);
    if (c.cp > 0)
        out += printfText(" cp %.2f GB,", c.cp / 1e9);
    if (c.ep > 0)
        out += printfText(" ep %.2f GB,", c.ep / 1e9);
    out += printfText(" dp %.2f GB\n", c.dp / 1e9);
    out += printfText("cluster traffic per step: scale-up %.1f GB, scale-out %.1f GB\n",
                      e.commBytesByLink.scaleUp / 1e9, e.commBytesByLink.scaleOut / 1e9);
    if (e.trainSteps && e.trainDays)
        out += printfText("training: %.0f steps, %.1f days\n", *e.trainSteps, *e.trainDays);
    out += energyText(e);
    for (const Message& w : e.warnings)
        out += "warning: " + w.english + "\n";
    return out;
}

} // namespace ts
