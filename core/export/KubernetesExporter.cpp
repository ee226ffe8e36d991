// Target "k8s": a Kubeflow Trainer v2 TrainJob (trainer.kubeflow.org/v1alpha1,
// pkg/apis/trainer/v1alpha1/trainjob_types.go) and, marked legacy, a training-operator v1
// PyTorchJob (kubeflow.org/v1, pkg/apis/kubeflow.org/v1/pytorch_types.go). Both run torchrun
// with Megatron-LM; the operator injects PET_NNODES / PET_NPROC_PER_NODE / PET_NODE_RANK /
// PET_MASTER_ADDR, which torchrun reads as its flags. A LoRA plan runs Megatron-Bridge's
// run_recipe.py instead (export/BridgeRecipe.h).

#include "export/BridgeRecipe.h"
#include "export/Exporters.h"
#include "export/LaunchEnvironment.h"
#include "export/LaunchShape.h"
#include "export/MegatronArgs.h"

#include <yaml-cpp/yaml.h>

namespace ts {
namespace {

struct Pod {
    std::string image;
    std::vector<std::string> command;
    std::vector<std::string> args;
    std::vector<EnvVar> env;
    std::int64_t gpus = 0;
};

// "$NAME": Kubernetes expands $(NAME) from the container's env.
std::string kubernetesValue(const std::string& v) {
    return !v.empty() && v[0] == '$' ? "$(" + v.substr(1) + ")" : v;
}

Pod podSpec(const ResolvedScenario& plan, const LaunchShape& shape, const MegatronArgs& args,
            const BridgeRecipe* recipe, const ExportOptions& options) {
    Pod pod;
    pod.image = options.image.empty() ? "nvcr.io/nvidia/pytorch:25.11-py3" : options.image;
    if (recipe) {
        const std::string bridge =
            options.megatronDir.empty() ? "/opt/Megatron-Bridge" : options.megatronDir;
        pod.command = {"torchrun", bridge + "/scripts/training/run_recipe.py"};
        pod.args = recipe->program;
        for (const auto& o : recipe->overrides) {
            const auto eq = o.find('=');
            pod.args.push_back(o.substr(0, eq + 1) + kubernetesValue(o.substr(eq + 1)));
        }
    } else {
        const std::string megatron =
            options.megatronDir.empty() ? "/opt/Megatron-LM" : options.megatronDir;
        pod.command = {"torchrun", megatron + "/pretrain_gpt.py"};
        for (const auto& arg : allArgs(args)) {
            pod.args.push_back(arg.flag);
            for (const auto& v : arg.values)
                pod.args.push_back(kubernetesValue(v));
        }
    }
    pod.env = launchEnvironment(plan.cluster, !recipe && megatronFsdp(plan));
    pod.env.push_back({"TRAIN_ITERS", num(shape.trainIters > 0 ? shape.trainIters : 100), ""});
    pod.env.push_back({"LR", "3.0e-4", ""});
    if (plan.finetune)
        pod.env.push_back({"PRETRAINED_CHECKPOINT",
                           recipe ? recipe->checkpoint : std::string(kPretrainedCheckpoint), ""});
    pod.gpus = shape.gpusPerNode;
    return pod;
}

void emitEnv(YAML::Emitter& y, const std::vector<EnvVar>& env) {
    y << YAML::Key << "env" << YAML::Value << YAML::BeginSeq;
    for (const auto& e : env)
        y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << e.name << YAML::Key << "value"
          << YAML::Value << YAML::DoubleQuoted << e.value << YAML::EndMap;
    y << YAML::EndSeq;
}

void emitList(YAML::Emitter& y, const char* key, const std::vector<std::string>& items) {
    y << YAML::Key << key << YAML::Value << YAML::BeginSeq;
    for (const auto& item : items)
        y << YAML::DoubleQuoted << item;
    y << YAML::EndSeq;
}

void emitGpuLimits(YAML::Emitter& y, std::int64_t gpus) {
    y << YAML::Key << "limits" << YAML::Value << YAML::BeginMap << YAML::Key << "nvidia.com/gpu"
      << YAML::Value << gpus << YAML::EndMap;
}

void emitMetadata(YAML::Emitter& y, const std::string& name, const ExportOptions& options) {
    y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << name;
    y << YAML::Key << "namespace" << YAML::Value
      << (options.namespaceName.empty() ? std::string("default") : options.namespaceName);
    y << YAML::EndMap;
}

std::string trainJob(const std::string& name, const LaunchShape& shape, const Pod& pod,
                     const ExportOptions& options) {
    YAML::Emitter y;
    y << YAML::BeginMap;
    y << YAML::Key << "apiVersion" << YAML::Value << "trainer.kubeflow.org/v1alpha1";
    y << YAML::Key << "kind" << YAML::Value << "TrainJob";
    emitMetadata(y, name, options);
    y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "runtimeRef" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << "torch-distributed";
    y << YAML::Key << "apiGroup" << YAML::Value << "trainer.kubeflow.org";
    y << YAML::Key << "kind" << YAML::Value << "ClusterTrainingRuntime" << YAML::EndMap;
    y << YAML::Key << "trainer" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "image" << YAML::Value << pod.image;
    emitList(y, "command", pod.command);
    emitList(y, "args", pod.args);
    emitEnv(y, pod.env);
    y << YAML::Key << "numNodes" << YAML::Value << shape.nodes;
    y << YAML::Key << "numProcPerNode" << YAML::Value << shape.gpusPerNode;
    y << YAML::Key << "resourcesPerNode" << YAML::Value << YAML::BeginMap;
    emitGpuLimits(y, pod.gpus);
    y << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return y.c_str();
}

void emitReplica(YAML::Emitter& y, const char* role, std::int64_t replicas, const Pod& pod) {
    y << YAML::Key << role << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "replicas" << YAML::Value << replicas;
    y << YAML::Key << "restartPolicy" << YAML::Value << "OnFailure";
    y << YAML::Key << "template" << YAML::Value << YAML::BeginMap << YAML::Key << "spec"
      << YAML::Value << YAML::BeginMap << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq
      << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << "pytorch"; // the operator requires this name
    y << YAML::Key << "image" << YAML::Value << pod.image;
    emitList(y, "command", pod.command);
    emitList(y, "args", pod.args);
    emitEnv(y, pod.env);
    y << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
    emitGpuLimits(y, pod.gpus);
    y << YAML::EndMap << YAML::EndMap << YAML::EndSeq << YAML::EndMap << YAML::EndMap
      << YAML::EndMap;
}

std::string pyTorchJob(const std::string& name, const LaunchShape& shape, const Pod& pod,
                       const ExportOptions& options) {
    YAML::Emitter y;
    y << YAML::BeginMap;
    y << YAML::Key << "apiVersion" << YAML::Value << "kubeflow.org/v1";
    y << YAML::Key << "kind" << YAML::Value << "PyTorchJob";
    emitMetadata(y, name, options);
    y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "nprocPerNode" << YAML::Value << YAML::DoubleQuoted << num(shape.gpusPerNode);
    y << YAML::Key << "pytorchReplicaSpecs" << YAML::Value << YAML::BeginMap;
    emitReplica(y, "Master", 1, pod);
    if (shape.nodes > 1)
        emitReplica(y, "Worker", shape.nodes - 1, pod);
    y << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return y.c_str();
}

std::string header(const char* what, const ResolvedScenario& plan, const LaunchShape& shape) {
    std::string text = std::string("# ") + what +
                       ", generated by Trainscape " TRAINSCAPE_VERSION "\n# Scenario: " +
                       commentText(plan.name.empty() ? "(unnamed)" : plan.name) + "\n";
    for (const auto& line : planSummary(plan, shape))
        text += "# " + line + "\n";
    return text + "---\n";
}

} // namespace

std::string_view KubernetesExporter::id() const {
    return "k8s";
}
std::string_view KubernetesExporter::title() const {
    return "Kubernetes (Kubeflow TrainJob v2; PyTorchJob v1, legacy)";
}
std::vector<std::string> KubernetesExporter::fileNames() const {
    return {"trainjob.yaml", "pytorchjob-legacy.yaml"};
}

ExportResult KubernetesExporter::render(const ResolvedScenario& plan,
                                        const ExportOptions& options) const {
    ExportResult result;
    const bool lora = plan.finetune && plan.finetune->adapters();
    const LaunchShape shape =
        launchShape(plan, result.refusals, lora ? FineTuning::FullAndLora : FineTuning::Full);
    const MegatronArgs args = megatronArgs(plan, shape, options, result.refusals);
    const BridgeRecipe recipe =
        lora ? bridgeRecipe(plan, shape, options, result.refusals) : BridgeRecipe{};
    if (!result.refusals.empty())
        return result;
    const Pod pod = podSpec(plan, shape, args, lora ? &recipe : nullptr, options);
    const std::string name = jobName(plan, options);
    result.files.push_back({"trainjob.yaml",
                            header("Kubeflow Trainer v2 TrainJob", plan, shape) +
                                trainJob(name, shape, pod, options) + "\n",
                            FileSyntax::Yaml});
    result.files.push_back(
        {"pytorchjob-legacy.yaml",
         header("Kubeflow training-operator v1 PyTorchJob (legacy)", plan, shape) +
             pyTorchJob(name, shape, pod, options) + "\n",
         FileSyntax::Yaml});
    return result;
}

} // namespace ts
