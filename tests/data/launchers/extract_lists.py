#!/usr/bin/env python3
"""Rebuilds the flag and key lists in this folder from the targets' own source at a tag.

Usage: extract_lists.py MEGATRON_LM_GIT DEEPSPEED_GIT
(git directories of NVIDIA/Megatron-LM and deepspeedai/DeepSpeed clones with their tags).
Megatron-LM: the option strings of every add_argument call in megatron/training/arguments.py.
DeepSpeed: the config keys its parser reads, as dotted paths (see deepspeed_keys below).
"""
import ast
import re
import subprocess
import sys

MEGATRON_TAG = "core_v0.15.0"
DEEPSPEED_TAG = "v0.19.5"


def show(git, tag, path):
    return subprocess.run(["git", "--git-dir", git, "show", f"{tag}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def commit(git, tag):
    return subprocess.run(["git", "--git-dir", git, "rev-parse", f"{tag}^{{commit}}"], check=True,
                          capture_output=True, text=True).stdout.strip()


def megatron_flags(git):
    text = show(git, MEGATRON_TAG, "megatron/training/arguments.py")
    names = set()
    for group in re.findall(r"add_argument\(\s*((?:['\"]--?[A-Za-z0-9_-]+['\"]\s*,\s*)+)", text):
        names.update(re.findall(r"['\"](--?[A-Za-z0-9_-]+)['\"]", group))
    return sorted(names)


def pydantic_fields(source, class_name):
    """Field names and alias= strings of one pydantic model class."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
                    for call in ast.walk(item):
                        if isinstance(call, ast.keyword) and call.arg == "alias":
                            out.add(call.value.value)
    return out


def string_constants(source):
    out = {}
    for node in ast.parse(source).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            out[node.targets[0].id] = node.value.value
    return out


def deepspeed_keys(git):
    t = DEEPSPEED_TAG
    keys = set()
    consts = string_constants(show(git, t, "deepspeed/runtime/constants.py"))
    for name, value in consts.items():
        if name.endswith(("_DEFAULT", "_FORMAT")) or "\n" in value or not re.fullmatch(r"[a-z_0-9]+", value):
            continue
        if name.startswith("FP16_"):
            keys.add("fp16." + value)
        elif name == "GRAD_ACCUM_DTYPE":
            # runtime/config.py get_data_types: param_dict[DATA_TYPES][GRAD_ACCUM_DTYPE]
            keys.add("data_types." + value)
        elif name.startswith("BFLOAT16_"):
            keys.add("bf16." + value)
        elif name in ("TYPE", "OPTIMIZER_PARAMS", "SCHEDULER_PARAMS"):
            continue
        else:
            keys.add(value)
    keys.update({"optimizer.type", "optimizer.params.*", "scheduler.type", "scheduler.params.*"})
    zero = show(git, t, "deepspeed/runtime/zero/config.py")
    keys.update("zero_optimization." + f for f in pydantic_fields(zero, "DeepSpeedZeroConfig"))
    offload = show(git, t, "deepspeed/runtime/zero/offload_config.py")
    keys.update("zero_optimization.offload_param." + f
                for f in pydantic_fields(offload, "DeepSpeedZeroOffloadParamConfig"))
    keys.update("zero_optimization.offload_optimizer." + f
                for f in pydantic_fields(offload, "DeepSpeedZeroOffloadOptimizerConfig"))
    act = string_constants(show(git, t, "deepspeed/runtime/activation_checkpointing/config.py"))
    keys.update("activation_checkpointing." + v for n, v in act.items()
                if n.startswith("ACT_CHKPT_") and not n.endswith(("_DEFAULT", "_FORMAT")))
    config = show(git, t, "deepspeed/runtime/config.py")
    pipeline = re.search(r"default_pipeline = \{(.*?)\}", config, re.S).group(1)
    keys.update("pipeline." + k for k in re.findall(r'"([a-z_]+)":', pipeline))
    if '"sequence_parallel_size" in config' in config:
        keys.add("sequence_parallel_size")
    tp = show(git, t, "deepspeed/runtime/tensor_parallel/config.py")
    keys.update("tensor_parallel." + f for f in pydantic_fields(tp, "TPTrainingConfig"))
    # AutoEP (expert parallelism of Hugging Face MoE blocks): the keys parse_autoep_config
    # reads from the "expert_parallel" section (EXPERT_PARALLEL in runtime/config.py).
    if 'EXPERT_PARALLEL = "expert_parallel"' in config:
        autoep = show(git, t, "deepspeed/module_inject/auto_ep_config.py")
        body = re.search(r"def parse_autoep_config\(.*?\n(.*?)\n    return config", autoep, re.S).group(1)
        keys.update("expert_parallel." + k
                    for k in re.findall(r'param_dict(?:\.get\(|\[)"([a-z_0-9]+)"', body))
        keys.update("expert_parallel." + k for k in re.findall(r'"([a-z_0-9]+)" in param_dict', body))
        keys.add("expert_parallel")
    return sorted(keys)


def write(path, header, lines):
    with open(path, "w") as f:
        f.write("".join(f"# {h}\n" for h in header))
        f.write("\n".join(lines) + "\n")


def main():
    megatron, deepspeed = sys.argv[1], sys.argv[2]
    here = __file__.rsplit("/", 1)[0]
    write(f"{here}/megatron-lm-{MEGATRON_TAG}-flags.txt",
          ["Every command-line flag of Megatron-LM's pretraining scripts: the option strings of",
           "the add_argument calls in megatron/training/arguments.py (extract_lists.py).",
           "repository: NVIDIA/Megatron-LM", "file: megatron/training/arguments.py",
           f"tag: {MEGATRON_TAG} (commit {commit(megatron, MEGATRON_TAG)})"],
          megatron_flags(megatron))
    write(f"{here}/deepspeed-{DEEPSPEED_TAG}-config-keys.txt",
          ["Every ds_config.json key DeepSpeed reads, as a dotted path; '*' allows any child",
           "(torch optimizer and scheduler arguments). Built by extract_lists.py from:",
           "repository: deepspeedai/DeepSpeed",
           "files: deepspeed/runtime/constants.py, deepspeed/runtime/config.py,",
           "  deepspeed/runtime/zero/config.py, deepspeed/runtime/zero/offload_config.py,",
           "  deepspeed/runtime/activation_checkpointing/config.py,",
           "  deepspeed/runtime/tensor_parallel/config.py,",
           "  deepspeed/module_inject/auto_ep_config.py (parse_autoep_config)",
           f"tag: {DEEPSPEED_TAG} (commit {commit(deepspeed, DEEPSPEED_TAG)})"],
          deepspeed_keys(deepspeed))


if __name__ == "__main__":
    main()
