// Target "torchtitan": a TOML job config for pytorch/torchtitan tag v0.2.2
// (torchtitan/config/job_config.py), loaded with `--job.config_file`. Version-specific: main
// replaced TOML with Python config registries in commit 9810191 (Feb 2026).

#include "export/Exporters.h"
#include "export/LaunchShape.h"
#include "export/ShellScript.h"
#include "export/TorchtitanCustomFlavor.h"
#include "export/TorchtitanModels.h"

#include <sstream>

#include <toml++/toml.h>

namespace ts {
namespace {

void refuse(std::vector<ExportRefusal>& r, std::string path, std::string message) {
    r.push_back({std::move(path), std::move(message)});
}

std::string scheduleName(const ParallelConfig& p, std::vector<ExportRefusal>& r) {
    // torch.distributed.pipelining schedule names (torchtitan
    // parallelism.pipeline_parallel_schedule).
    switch (p.schedule) {
    case PipelineScheduleKind::GPipe:
        return p.vpp > 1 ? "LoopedBFS" : "GPipe";
    case PipelineScheduleKind::OneFOneB:
        return "1F1B";
    case PipelineScheduleKind::Interleaved:
        return "Interleaved1F1B";
    case PipelineScheduleKind::BreadthFirst:
        return "LoopedBFS";
    case PipelineScheduleKind::ZeroBubble:
        if (p.vpp == 2)
            return "ZBVZeroBubble";
        refuse(r, "/parallelism/schedule",
               "torchtitan's zero-bubble schedules are ZBVZeroBubble (vpp 2) and "
               "InterleavedZeroBubble; ZB-H1 with vpp 1 has none: set vpp to 2 or another "
               "schedule");
    }
    return "1F1B";
}

// parallelism.module_fqns_per_model_part: the exact layers of every chunk, in stage order.
toml::array modelParts(const std::vector<int>& chunks) {
    toml::array parts;
    int layer = 0;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        toml::array part;
        if (i == 0)
            part.push_back("tok_embeddings");
        for (int k = 0; k < chunks[i]; ++k)
            part.push_back("layers." + std::to_string(layer++));
        if (i + 1 == chunks.size()) {
            part.push_back("norm");
            part.push_back("output");
        }
        parts.push_back(std::move(part));
    }
    return parts;
}

toml::table parallelism(const ResolvedScenario& plan, std::vector<ExportRefusal>& r) {
    const auto& p = plan.parallel;
    if (p.zero == 1)
        refuse(r, "/parallelism/zero",
               "torchtitan shards with FSDP2: zero 0 (replicate), 2 (reshard_after_forward "
               "never) or 3 (always); it has no optimizer-only sharding");
    const std::int64_t shard = p.zero >= 2 ? (p.dpShard > 0 ? p.dpShard : p.dp) : 1;
    if (p.zero == 0 && p.dpShard > 0 && p.dpShard < p.dp)
        refuse(r, "/parallelism/dp_shard", "without ZeRO nothing is sharded; set dp_shard to null");
    if (p.tp > 1 && !p.sequenceParallel)
        refuse(r, "/parallelism/sequence_parallel",
               "torchtitan's tensor parallelism always shards norms and dropout over the "
               "sequence; set sequence_parallel to true");
    if (p.cp > 1 && p.cpComm == CpCommType::A2A)
        refuse(r, "/parallelism/cp_comm",
               "torchtitan's context parallelism is ring attention "
               "(rotate allgather or alltoall); no Ulysses a2a");
    if (plan.model.moe && p.etp != p.tp && p.etp != 1)
        refuse(r, "/parallelism/etp",
               "torchtitan needs etp equal to tp or 1 "
               "(parallel_dims.py _validate)");
    // The importer reads both as false (core/import/TorchtitanImport.cpp): the job config
    // has no switch for either, so a plan that counts on them is refused, not dropped.
    if (p.pp > 1 && p.overlap.pp)
        refuse(r, "/parallelism/overlap/pp",
               "torchtitan v0.2.2 has no setting that overlaps pipeline sends with compute; "
               "set overlap pp to false");
    if (p.ep > 1 && p.overlap.ep)
        refuse(r, "/parallelism/overlap/ep",
               "torchtitan v0.2.2 has no expert-parallel all-to-all overlap setting; set "
               "overlap ep to false");
    if (p.moeDispatchFp8)
        refuse(r, "/parallelism/moe_dispatch_fp8",
               "torchtitan v0.2.2 dispatches expert tokens in the training precision; it has "
               "no FP8 all-to-all: set it to false");
    if (p.dp > 1 && !p.overlap.dp)
        refuse(r, "/parallelism/overlap/dp",
               "torchtitan always overlaps data-parallel communication (FSDP2 prefetch, DDP "
               "buckets); set overlap dp to true");
    // torchtitan v0.2.2's own startup checks (docs/export-deepspeed-torchtitan-audit.md):
    // pure DDP takes no other parallelism (models/llama3/infra/parallelize.py:148-151), the
    // sequence splits over 2 x tp x cp (parallelize.py:69-74), async TP needs torch.compile
    // (distributed/tensor_parallel.py:16-23), which the scenario must state: compile changes
    // the activations an estimate counts (TrainingConfig::compile).
    if (p.zero == 0 && p.dp > 1 && p.cp == 1 && (p.tp > 1 || p.pp > 1))
        refuse(r, "/parallelism/zero",
               "torchtitan's DDP (replicate, nothing sharded) takes no tensor or pipeline "
               "parallelism (\"DDP has not supported > 1D parallelism\", "
               "models/llama3/infra/parallelize.py:148-151): use zero 2 or 3 (FSDP, or HSDP "
               "with dp_shard)");
    if (const std::int64_t split = 2LL * p.tp * p.cp; plan.training.seqLen % split != 0)
        refuse(r, "/training/seq_len",
               "torchtitan splits the sequence over 2 x tp x cp = " + std::to_string(split) +
                   " (models/llama3/infra/parallelize.py:69-74): use a seq_len divisible by it");
    if (p.tp > 1 && p.overlap.tp && !plan.training.compiled())
        refuse(r, "/training/compile",
               "torchtitan's async TP runs only under torch.compile (\"Async TP requires 'model' "
               "in --compile.components and --compile.enable\", "
               "distributed/tensor_parallel.py:16-23): set training.compile true or "
               "parallelism.overlap.tp false");
    toml::table t;
    t.insert("data_parallel_replicate_degree", p.dp / shard);
    t.insert("data_parallel_shard_degree", shard);
    t.insert("fsdp_reshard_after_forward", p.zero == 3   ? "always"
                                           : p.zero == 2 ? "never"
                                                         : "default");
    t.insert("tensor_parallel_degree", p.tp);
    t.insert("enable_async_tensor_parallel", p.tp > 1 && p.overlap.tp);
    t.insert("pipeline_parallel_degree", p.pp);
    if (p.pp > 1) {
        t.insert("pipeline_parallel_schedule", scheduleName(p, r));
        t.insert("pipeline_parallel_microbatch_size", plan.training.microBatch);
        t.insert("module_fqns_per_model_part", modelParts(p.pipelineLayers));
    }
    t.insert("context_parallel_degree", p.cp);
    t.insert("context_parallel_rotate_method",
             p.cpComm == CpCommType::AllGather ? "allgather" : "alltoall");
    t.insert("expert_parallel_degree", p.ep);
    t.insert("expert_tensor_parallel_degree", plan.model.moe ? p.etp : 1);
    return t;
}

} // namespace

std::string_view TorchtitanExporter::id() const {
    return "torchtitan";
}
std::string_view TorchtitanExporter::title() const {
    return "torchtitan (v0.2.2 TOML job config)";
}
std::vector<std::string> TorchtitanExporter::fileNames() const {
    return {"torchtitan.toml", "run_torchtitan.sh"};
}

void torchtitanTraining(const ResolvedScenario& plan, const LaunchShape& shape, toml::table& doc,
                        std::vector<ExportRefusal>& r);

ExportResult TorchtitanExporter::render(const ResolvedScenario& plan,
                                        const ExportOptions& options) const {
    ExportResult result;
    auto& r = result.refusals;
    const LaunchShape shape = launchShape(plan, r, FineTuning::Full);
    const TorchtitanFlavor* flavor = torchtitanFlavor(plan);
    const auto custom = flavor ? std::nullopt : torchtitanCustomFlavor(plan, r);
    toml::table doc;
    doc.insert("job", toml::table{{"description", plan.name.empty() ? "trainscape" : plan.name},
                                  {"dump_folder", "./outputs"}});
    const std::string assets = !options.dataPath.empty() ? options.dataPath
                               : flavor ? std::string("./assets/hf/") + flavor->hfName
                                        : "./assets/hf/" + plan.modelPreset;
    if (flavor || custom)
        doc.insert("model",
                   toml::table{{"name", flavor ? flavor->name : custom->modelName},
                               {"flavor", flavor ? flavor->flavor : kTorchtitanCustomFlavor},
                               {"hf_assets_path", assets}});
    if (custom)
        doc.insert("experimental", toml::table{{"custom_import", kTorchtitanCustomModule}});
    doc.insert("parallelism", parallelism(plan, r));
    torchtitanTraining(plan, shape, doc, r);
    if (!r.empty())
        return result;
    std::ostringstream toml;
    toml << "# torchtitan v0.2.2 job config, generated by Trainscape " TRAINSCAPE_VERSION "\n";
    toml << "# Scenario: " << commentText(plan.name.empty() ? "(unnamed)" : plan.name) << "\n";
    for (const auto& line : planSummary(plan, shape))
        toml << "# " << line << "\n";
    toml << "\n";
    toml << toml::toml_formatter{doc, toml::toml_formatter::default_flags |
                                          toml::format_flags::relaxed_float_precision}
         << "\n";
    result.files.push_back({"torchtitan.toml", toml.str(), FileSyntax::Toml});

    ShellScript s;
    s.line("#!/usr/bin/env bash");
    s.comment("torchtitan v0.2.2 launch (torchrun, c10d rendezvous), generated by Trainscape.");
    s.comment("Run on each of the " + num(shape.nodes) +
              " nodes with RDZV_HOST set to the first node; DRY_RUN=1 prints the command.");
    s.line("set -euo pipefail");
    s.line("HERE=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"");
    s.assign("NNODES", num(shape.nodes));
    s.assign("NPROC_PER_NODE", num(shape.gpusPerNode));
    s.assignDefault("RDZV_HOST", "localhost");
    s.assignDefault("RDZV_PORT", "29500");
    if (custom) {
        s.comment("The custom flavor's module (" + std::string(kTorchtitanCustomModule) +
                  ".py) is imported from this folder.");
        s.line("export PYTHONPATH=\"${HERE}${PYTHONPATH:+:${PYTHONPATH}}\"");
    }
    s.line("CMD=(torchrun --nnodes \"${NNODES}\" --nproc_per_node \"${NPROC_PER_NODE}\" "
           "--rdzv_backend c10d");
    s.line("    --rdzv_endpoint \"${RDZV_HOST}:${RDZV_PORT}\" --rdzv_id 101 -m torchtitan.train");
    s.line("    --job.config_file \"${HERE}/torchtitan.toml\" \"$@\")");
    s.line("if [[ \"${DRY_RUN:-0}\" == 1 ]]; then");
    s.line("    printf '%s\\n' \"${CMD[@]}\"");
    s.line("    exit 0");
    s.line("fi");
    s.line("exec \"${CMD[@]}\"");
    result.files.push_back({"run_torchtitan.sh", s.text(), FileSyntax::Shell, true});
    if (custom)
        result.files.push_back(
            {std::string(kTorchtitanCustomModule) + ".py", custom->python, FileSyntax::Text});
    return result;
}

} // namespace ts
