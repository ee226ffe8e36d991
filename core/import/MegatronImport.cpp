// A Megatron-LM launch (core_v0.15.0 flags, megatron/training/arguments.py) as a scenario:
// the inverse of core/export/MegatronArgs.cpp.

#include "import/MegatronFlags.h"
#include "import/ShellWords.h"

#include "common/Diagnostics.h"
#include "scenario/Limits.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace ts {
namespace {

using Json = nlohmann::ordered_json;
using Flags = MegatronFlags;

// The command that runs a *.py program (pretrain_gpt.py, preferably): its launcher words and
// the program's arguments.
bool findLaunch(const ShellCommands& script, std::vector<std::string>& launcher,
                std::vector<std::string>& program) {
    const std::vector<std::string>* best = nullptr;
    std::size_t bestAt = 0;
    for (const auto& cmd : script.commands)
        for (std::size_t i = 0; i < cmd.size(); ++i) {
            const auto& w = cmd[i];
            const bool py = w.size() > 3 && w.compare(w.size() - 3, 3, ".py") == 0;
            const bool gpt = w.find("pretrain_gpt") != std::string::npos;
            if (py && (!best || gpt || cmd.size() - i > best->size() - bestAt)) {
                best = &cmd;
                bestAt = i;
            }
        }
    if (!best)
        return false;
    launcher.assign(best->begin(), best->begin() + std::ptrdiff_t(bestAt));
    program.assign(best->begin() + std::ptrdiff_t(bestAt) + 1, best->end());
    return true;
}

// --flag v1 v2 ... and --flag=v; flags in order of appearance.
Flags parseFlags(const std::vector<std::string>& words, std::vector<std::string>& order) {
    Flags flags;
    std::string current;
    for (const auto& w : words) {
        if (w.rfind("--", 0) == 0) {
            const auto eq = w.find('=');
            current = w.substr(0, eq);
            flags[current];
            order.push_back(current);
            if (eq != std::string::npos)
                flags[current].push_back(w.substr(eq + 1));
        } else if (!current.empty()) {
            flags[current].push_back(w);
        }
    }
    return flags;
}

} // namespace

std::optional<std::int64_t> flagInteger(const Flags& f, const char* flag) {
    const auto it = f.find(flag);
    if (it == f.end() || it->second.empty())
        return std::nullopt;
    try {
        std::size_t used = 0;
        const std::int64_t v = std::stoll(it->second.front(), &used);
        if (used == it->second.front().size())
            return v;
    } catch (...) {
    }
    return std::nullopt;
}

std::string flagText(const Flags& f, const char* flag) {
    const auto it = f.find(flag);
    return it == f.end() || it->second.empty() ? std::string() : it->second.front();
}

bool hasFlag(const Flags& f, const char* flag) {
    return f.count(flag) > 0;
}

// "([0]*3+[1]*58)", "[0,0,1,...]" or an integer k (every k-th layer is MoE): dense layers
// before the first MoE layer, or -1 when the pattern is not "dense first, then all MoE".
int megatronFirstDense(const std::string& freq, int layers) {
    // A whole number at the front of `text`, or -1 (std::stoi throws; a hostile "[0]*2^31"
    // would allocate gigabytes): the pattern holds at most as many entries as layers.
    const auto number = [](const std::string& text) -> long long {
        std::size_t digits = 0;
        while (digits < text.size() && digits < 9 && std::isdigit((unsigned char)text[digits]))
            ++digits;
        return digits == 0 ? -1 : std::stoll(text.substr(0, digits));
    };
    std::vector<int> pattern;
    if (freq.find('*') != std::string::npos) {
        for (std::size_t at = freq.find('['); at != std::string::npos;
             at = freq.find('[', at + 1)) {
            const std::size_t star = freq.find('*', at);
            const long long v = number(freq.substr(at + 1));
            const long long n = star == std::string::npos ? -1 : number(freq.substr(star + 1));
            if (v < 0 || n < 0 || (long long)pattern.size() + n > layers)
                return -1;
            pattern.insert(pattern.end(), std::size_t(n), int(v));
        }
    } else if (freq.find('[') != std::string::npos) {
        for (char c : freq)
            if (c == '0' || c == '1')
                pattern.push_back(c - '0');
    } else {
        return number(freq) == 1 ? 0 : -1;
    }
    if (int(pattern.size()) != layers)
        return -1;
    const auto first = std::find(pattern.begin(), pattern.end(), 1);
    if (std::find(first, pattern.end(), 0) != pattern.end())
        return -1;
    return int(first - pattern.begin());
}

namespace {

// Every integer flag the importer reads, with its accepted range (scenario/Limits.h): a value
// outside it, or not a whole number, is refused naming the flag, before any arithmetic.
struct IntegerFlag {
    const char* flag;
    limits::IntRange range;
};
constexpr limits::IntRange kAnyPositive{1, 1'000'000'000'000, "a trillion at most"};
constexpr limits::IntRange kLoraRank{0, limits::kHidden.max, "at most the hidden size"};
const IntegerFlag kIntegerFlags[] = {
    {"--nnodes", limits::kGpus},
    {"--nproc_per_node", limits::kGpusPerNode},
    {"--nproc-per-node", limits::kGpusPerNode},
    {"--tensor-model-parallel-size", limits::kGpus},
    {"--pipeline-model-parallel-size", limits::kGpus},
    {"--context-parallel-size", limits::kGpus},
    {"--expert-model-parallel-size", limits::kGpus},
    {"--expert-tensor-parallel-size", limits::kGpus},
    {"--num-distributed-optimizer-instances", limits::kGpus},
    {"--num-layers", limits::kLayers},
    {"--num-layers-per-virtual-pipeline-stage", limits::kLayers},
    {"--num-virtual-stages-per-pipeline-rank", limits::kVpp},
    {"--recompute-num-layers", limits::kLayers},
    {"--hidden-size", limits::kHidden},
    {"--ffn-hidden-size", limits::kFfnHidden},
    {"--moe-ffn-hidden-size", limits::kFfnHidden},
    {"--moe-shared-expert-intermediate-size", limits::kFfnHidden},
    {"--num-attention-heads", limits::kHeads},
    {"--num-query-groups", limits::kHeads},
    {"--kv-channels", limits::kHeadDim},
    {"--vocab-size", limits::kVocab},
    {"--q-lora-rank", kLoraRank},
    {"--num-experts", limits::kExperts},
    {"--moe-router-topk", limits::kExperts},
    {"--moe-router-num-groups", limits::kExperts},
    {"--seq-length", limits::kSeqLen},
    {"--global-batch-size", limits::kGlobalBatch},
    {"--micro-batch-size", limits::kGlobalBatch},
    {"--train-iters", kAnyPositive},
};

bool integerFlagsInRange(const Flags& f, ImportResult& r) {
    for (const auto& [flag, range] : kIntegerFlags) {
        const auto it = f.find(flag);
        if (it == f.end() || it->second.empty())
            continue;
        const auto value = flagInteger(f, flag);
        if (value && range.contains(*value))
            continue;
        r.error = std::string(flag) + " " + quoteInput(it->second.front(), 40) +
                  ": expected a whole number from " + std::to_string(range.min) + " to " +
                  std::to_string(range.max) + " (" + range.reason + ")";
        return false;
    }
    return true;
}

} // namespace

ImportResult importMegatron(const ImportInput& input) {
    ImportResult r;
    const ShellCommands script = readShellCommands(input.text);
    r.notes = script.notes;
    std::vector<std::string> launcher, program;
    if (!findLaunch(script, launcher, program)) {
        r.error = "no command runs a Python program (pretrain_gpt.py): give the torchrun ... "
                  "pretrain_gpt.py command line or the launch script";
        return r;
    }
    std::vector<std::string> launcherOrder, order;
    const Flags launch = parseFlags(launcher, launcherOrder);
    const Flags f = parseFlags(program, order);
    if (!integerFlagsInRange(launch, r) || !integerFlagsInRange(f, r))
        return r;
    const auto nnodes = flagInteger(launch, "--nnodes");
    auto nproc = flagInteger(launch, "--nproc_per_node");
    if (!nproc)
        nproc = flagInteger(launch, "--nproc-per-node");
    if (!nnodes || !nproc) {
        r.error = "the launcher gives no numeric --nnodes and --nproc_per_node (torchrun): the "
                  "world size is unknown";
        return r;
    }
    for (const auto& flag : order) {
        if (megatronIgnoredFlags().count(flag))
            r.ignored.push_back(flag);
        else if (!megatronKnownFlags().count(flag)) {
            std::string entry = flag;
            for (const auto& v : f.at(flag))
                entry += " " + v;
            r.unsupported.push_back(entry);
        }
    }
    Json scenario;
    scenario["format"] = "trainscape.scenario/1";
    scenario["name"] = "Imported Megatron-LM job";
    scenario["model"] = megatronModel(f, r);
    if (r.error.empty())
        megatronModelKeys(f, scenario["model"], r);
    if (!r.error.empty())
        return r;
    Json cluster = {{"preset", input.clusterPreset}, {"num_gpus", *nnodes * *nproc}};
    if (*nnodes > 1)
        cluster["gpus_per_node"] = *nproc;
    scenario["cluster"] = cluster;
    scenario["training"] = megatronTraining(f, r);
    scenario["parallelism"] = megatronParallel(f, scenario["model"], *nnodes * *nproc, r);
    if (!r.error.empty())
        return r;
    if (f.count("--finetune")) // every weight from --pretrained-checkpoint
        scenario["finetune"] = {{"method", "full"}};
    // Transformer Engine's modules, also under --use-torch-fsdp2 or Megatron-FSDP
    // (scenario/ExecutionJson.h, inferFramework).
    scenario["execution"] = {{"framework", "megatron"}};
    if (f.count("--cross-entropy-loss-fusion")) // Megatron-Core's fused vocab-parallel loss
        scenario["execution"]["cross_entropy"] = "fused";
    if (f.count("--attention-backend")) { // AttnBackend: flash, fused, unfused, local, auto
        const std::string b = flagText(f, "--attention-backend");
        if (b == "flash" || b == "unfused")
            scenario["execution"]["attention_backend"] = b;
        else if (b == "fused")
            scenario["execution"]["attention_backend"] = "cudnn";
        else if (b != "auto")
            r.unsupported.push_back("--attention-backend " + b);
    }
    // The MoE token dispatcher (core_v0.15.0 arguments.py --moe-token-dispatcher-type, default
    // allgather; flex with --moe-enable-deepep is DeepEP).
    if (scenario["model"].contains("moe")) {
        const std::string d = f.count("--moe-token-dispatcher-type")
                                  ? flagText(f, "--moe-token-dispatcher-type")
                                  : std::string("allgather");
        if (d == "flex" && f.count("--moe-enable-deepep"))
            scenario["execution"]["moe_dispatcher"] = "deepep";
        else if (d == "alltoall" || d == "allgather")
            scenario["execution"]["moe_dispatcher"] = d;
        else
            r.unsupported.push_back("--moe-token-dispatcher-type " + d);
    }
    r.scenario = std::move(scenario);
    return r;
}

} // namespace ts
