#!/usr/bin/env python3
"""Checks every golden export (tests/fixtures/export/golden/<scenario>/<target>/) with the
targets' real parsers and rules:
  - TOML by tomllib, YAML by PyYAML and yamllint, JSON by json, shell by bash -n and shellcheck;
  - each Megatron-LM flag (as bash hands it to pretrain_gpt.py: DRY_RUN=1) against the flags of
    Megatron-LM core_v0.15.0, each ds_config.json key against DeepSpeed v0.19.5's keys
    (tests/data/launchers, with repository, file and tag);
  - the invariants of shared/reference/launchers.md C7 against the resolved scenario;
  - the Kubeflow manifests' required fields (tests/data/launchers/kubeflow-required-fields.json);
  - a torchtitan custom flavor module (trainscape_flavor.py) by Python's own compiler, its
    dimensions through torchtitan v0.2.2's hidden-size formula against the plan;
  - a torchtune config's keys against torchtune v0.6.1: every top-level key one its recipe reads
    and every key the recipe reads by attribute present; the model's keys found in the recipe's
    own configs at the tag (tests/data/torchtune), every other section's _component_ and keys in
    that section of one of the four recipes' configs with the same component; the
    model builder among the tag's builders, and the plan's settings in the keys that say them;
  - the 31 finetune-dev runs (torchtune's measured runs, tests/data/finetune-dev.json) exported
    to torchtune and checked the same way, with the recipe and builder of the config each run
    was built from, where that config is still registered at v0.6.1.
A folder with REFUSED.txt holds the export --adapt wrote: its files are checked against the
adapted scenario beside them (adapted-scenario.json), the plan the target runs.
Usage: check_export.py SOURCE_DIR TRAINSCAPE_CLI
"""
import json
import re
import os
import subprocess
import sys
import tomllib

import yaml

SOURCE, CLI = sys.argv[1], sys.argv[2]
GOLDEN = os.path.join(SOURCE, "tests/fixtures/export/golden")
DATA = os.path.join(SOURCE, "tests/data/launchers")
errors = []
checked = {"files": 0, "startup_rules": 0, "megatron_flags": 0, "deepspeed_keys": 0, "torchtune_keys": 0, "plans": 0,
           "adapted": 0, "refused": 0, "finetune_runs": 0, "finetune_configs": 0}


def fail(where, message):
    errors.append(f"{where}: {message}")


def read_list(name):
    with open(os.path.join(DATA, name)) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


MEGATRON_FLAGS = read_list("megatron-lm-core_v0.15.0-flags.txt")
DEEPSPEED_KEYS = read_list("deepspeed-v0.19.5-config-keys.txt")
# A listed "a.b.c" means DeepSpeed reads the sections "a" and "a.b" too.
DEEPSPEED_KEYS |= {k.rsplit(".", n)[0] for k in set(DEEPSPEED_KEYS) for n in range(1, k.count(".") + 1)}
with open(os.path.join(DATA, "kubeflow-required-fields.json")) as f:
    KUBEFLOW = json.load(f)
TORCHTUNE_DIR = os.path.join(SOURCE, "tests/data/torchtune")
with open(os.path.join(TORCHTUNE_DIR, "torchtune-v0.6.1.json")) as f:
    TORCHTUNE = json.load(f)


def torchtune_reference():
    """{recipe: [config dicts]} of the recipes' own Llama configs at v0.6.1, read by PyYAML."""
    out = {}
    for recipe, r in TORCHTUNE["recipes"].items():
        out[recipe] = []
        for path in r["configs"]:
            with open(os.path.join(TORCHTUNE_DIR, "v0.6.1", path)) as f:
                out[recipe].append(yaml.safe_load(f))
    return out


TORCHTUNE_CONFIGS = torchtune_reference()
TORCHTUNE_RECIPE_OF = {path: recipe for recipe, r in TORCHTUNE["recipes"].items() for path in r["configs"]}
YAMLLINT_CONFIG = "{extends: default, rules: {line-length: {max: 120}}}"


def scenario_file(name):
    for folder in ("resources/examples", "tests/fixtures/export/scenarios"):
        path = os.path.join(SOURCE, folder, name + ".json")
        if os.path.exists(path):
            return path
    return None


def resolved(path):
    out = subprocess.run([CLI, "validate", "--resolved", path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def dry_run(path):
    env = dict(os.environ, DRY_RUN="1")
    out = subprocess.run(["bash", path], capture_output=True, text=True, env=env, timeout=30)
    if out.returncode != 0:
        fail(path, "DRY_RUN=1 failed: " + out.stderr.strip())
    return out.stdout.split("\n")[:-1]


def check_shell(path):
    r = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
    if r.returncode != 0:
        fail(path, "bash -n: " + r.stderr.strip())
    r = subprocess.run(["shellcheck", "--shell=bash", path], capture_output=True, text=True)
    if r.returncode != 0:
        fail(path, "shellcheck:\n" + r.stdout.strip())


def parse_file(path):
    checked["files"] += 1
    if path.endswith((".sh", ".sbatch")):
        check_shell(path)
        return None
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".json"):
        return json.loads(data)
    if path.endswith(".toml"):
        return tomllib.loads(data.decode())
    if path.endswith(".py"):
        compile(data, path, "exec")  # SyntaxError is reported by main()
        return data.decode()
    if path.endswith(".yaml"):
        r = subprocess.run(["yamllint", "-d", YAMLLINT_CONFIG, path], capture_output=True, text=True)
        if r.returncode != 0:
            fail(path, "yamllint:\n" + r.stdout.strip())
        return list(yaml.safe_load_all(data))
    return data.decode()


def flag_values(words):
    """{flag: [values]} of an argument list; a flag without values maps to []."""
    out, current = {}, None
    for w in words:
        if w.startswith("--"):
            current = w
            out[current] = []
        elif current is not None:
            out[current].append(w)
    return out


def megatron_checks(where, words, plan, world):
    """Megatron-LM flags after pretrain_gpt.py, checked against the flag list and C7."""
    start = next(i for i, w in enumerate(words) if w.endswith("pretrain_gpt.py")) + 1
    args = words[start:]
    for w in args:
        if w.startswith("--"):
            checked["megatron_flags"] += 1
            if w not in MEGATRON_FLAGS:
                fail(where, f"{w} is not a Megatron-LM core_v0.15.0 flag")
    f = flag_values(args)
    one = lambda k, d=1: int(f[k][0]) if k in f else d
    tp, pp, cp = one("--tensor-model-parallel-size"), one("--pipeline-model-parallel-size"), one("--context-parallel-size")
    plan_checks(where, plan, world, tp=tp, pp=pp, cp=cp, micro=one("--micro-batch-size"),
                global_batch=one("--global-batch-size"))
    layers = one("--num-layers")
    if "--pipeline-model-parallel-layout" in f:
        layout = f["--pipeline-model-parallel-layout"][0]
        stages = layout.split("|")
        if layout.count("t") != layers or len(stages) % pp:
            fail(where, f"layout {layout} has {layout.count('t')} layers in {len(stages)} stages")
    elif layers % pp:
        fail(where, f"num_layers {layers} % pp {pp} != 0")
    if "--num-layers-per-virtual-pipeline-stage" in f and (layers // pp) % one("--num-layers-per-virtual-pipeline-stage"):
        fail(where, "layers per stage not divisible by layers per virtual stage")
    if "--sequence-parallel" in f and tp == 1:
        fail(where, "--sequence-parallel with TP 1")
    if cp > 1 and one("--seq-length") % (2 * cp):
        fail(where, "seq_length % (2 cp) != 0")
    if "--num-experts" in f:
        ep, etp = one("--expert-model-parallel-size"), one("--expert-tensor-parallel-size", tp)
        if one("--num-experts") % ep or world % (etp * ep * pp):
            fail(where, f"MoE: experts % ep or world % (etp ep pp) != 0")


def megatron_startup_rules(where, words, text):
    """Megatron-LM core_v0.15.0's startup checks that exported flags reach, as encoded in
    core/export (docs/export-megatron-audit.md): each is a condition on the emitted flags."""
    start = next(i for i, w in enumerate(words) if w.endswith("pretrain_gpt.py")) + 1
    f = flag_values(words[start:])
    one = lambda k, d=1: int(f[k][0]) if k in f else d
    m = re.search(r"CUDA_DEVICE_MAX_CONNECTIONS(?::-|=)\"?(\w+)", text)
    connections = m.group(1) if m else None
    checked["startup_rules"] += 1
    if "--use-megatron-fsdp" in f:
        if connections == "1":  # arguments.py:715
            fail(where, "Megatron-FSDP with CUDA_DEVICE_MAX_CONNECTIONS=1")
        if f.get("--ckpt-format") != ["fsdp_dtensor"]:  # arguments.py:718
            fail(where, "Megatron-FSDP without --ckpt-format fsdp_dtensor")
        if "--use-distributed-optimizer" not in f:  # optimizer_config.py:224 with offload
            fail(where, "Megatron-FSDP without --use-distributed-optimizer")
    elif "--ckpt-format" in f and f["--ckpt-format"] == ["fsdp_dtensor"]:  # arguments.py:1064
        fail(where, "--ckpt-format fsdp_dtensor without Megatron-FSDP")
    if "--optimizer-cpu-offload" in f and "--use-precision-aware-optimizer" not in f:
        fail(where, "--optimizer-cpu-offload without --use-precision-aware-optimizer")  # :1155
    if "--use-precision-aware-optimizer" in f and (f.get("--optimizer") != ["adam"] or
                                                    "--use-distributed-optimizer" not in f):
        fail(where, "precision-aware optimizer without adam and the distributed optimizer")
    if "--overlap-moe-expert-parallel-comm" in f:  # transformer_config.py:1447-1471
        if one("--pipeline-model-parallel-size") > 1 and not (
                "--num-layers-per-virtual-pipeline-stage" in f or
                "--pipeline-model-parallel-layout" in f and
                f["--pipeline-model-parallel-layout"][0].count("|") + 1 > one("--pipeline-model-parallel-size")):
            fail(where, "EP overlap with pp > 1 and no virtual pipeline")
        if f.get("--moe-token-dispatcher-type", ["allgather"])[0] not in ("alltoall", "flex"):
            fail(where, "EP overlap without the alltoall or flex dispatcher")
        if f.get("--recompute-granularity") == ["full"]:
            fail(where, "EP overlap with full recompute")
        if "--bf16" not in f and "--fp16" not in f:
            fail(where, "EP overlap without bf16 or fp16")
    if "--tp-comm-overlap" in f and "--sequence-parallel" not in f:  # arguments.py:931
        fail(where, "--tp-comm-overlap without --sequence-parallel")
    if "--no-overlap-p2p-communication" in f and one("--pipeline-model-parallel-size") <= 2 and \
            "--num-layers-per-virtual-pipeline-stage" in f:  # arguments.py:608
        fail(where, "--no-overlap-p2p-communication needs pp > 2 with interleaving")


def plan_checks(where, plan, world, tp, pp, cp, micro, global_batch, dp=None):
    """C7: world = nodes x gpus = DP x TP x PP x CP; global = micro x accumulation x DP."""
    checked["plans"] += 1
    p, t = plan["parallelism"], plan["training"]
    if world != plan["cluster"]["num_gpus"]:
        fail(where, f"world {world} != cluster.num_gpus {plan['cluster']['num_gpus']}")
    if world % (tp * pp * cp):
        fail(where, f"world {world} % (tp pp cp) != 0")
        return
    dp = dp if dp is not None else world // (tp * pp * cp)
    if dp * tp * pp * cp != world:
        fail(where, f"dp x tp x pp x cp = {dp * tp * pp * cp} != world {world}")
    if (tp, pp, cp, dp) != (p["tp"], p["pp"], p["cp"], p["dp"]):
        fail(where, f"degrees (tp, pp, cp, dp) {(tp, pp, cp, dp)} differ from the plan's")
    if global_batch % (micro * dp):
        fail(where, f"global batch {global_batch} % (micro {micro} x dp {dp}) != 0")
    if (micro, global_batch) != (t["micro_batch"], t["global_batch"]):
        fail(where, "micro or global batch differs from the plan's")
    if plan["model"]["layers"] % pp and not p.get("pipeline_layers"):
        fail(where, "layers % pp != 0 without an explicit layout")


def bridge_checks(where, words, plan, world):
    """run_recipe.py overrides: C7, and a fine-tuning plan's recipe mode and LoRA settings."""
    o = dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("-"))
    plan_checks(where, plan, world, tp=int(o["model.tensor_model_parallel_size"]),
                pp=int(o["model.pipeline_model_parallel_size"]), cp=int(o["model.context_parallel_size"]),
                micro=int(o["train.micro_batch_size"]), global_batch=int(o["train.global_batch_size"]))
    mode = words[words.index("--mode") + 1]  # run_recipe.py choices (v0.6.0)
    if mode not in ("pretrain", "sft", "lora", "dora"):
        fail(where, f"--mode {mode} is not a run_recipe.py mode")
    tune = plan.get("finetune")
    want = "pretrain" if not tune else ("sft" if tune["method"] == "full" else "lora")
    if mode != want:
        fail(where, f"--mode {mode} for a plan that needs {want}")
    if want == "lora" and (int(o["peft.dim"]) != tune["lora_rank"] or
                           float(o["peft.alpha"]) != tune["lora_alpha"]):
        fail(where, "peft.dim / peft.alpha differ from the plan's LoRA rank and alpha")


def deepspeed_key_paths(value, prefix=""):
    if isinstance(value, dict):
        for k, v in value.items():
            path = prefix + k
            if prefix + "*" in DEEPSPEED_KEYS:  # free-form children (torch optimizer kwargs)
                continue
            yield path
            if isinstance(v, dict) and path + ".*" not in DEEPSPEED_KEYS:
                yield from deepspeed_key_paths(v, path + ".")


def check_target(name, target, folder, plan):
    files = {f: parse_file(os.path.join(folder, f)) for f in sorted(os.listdir(folder))}
    where = f"{name}/{target}"
    if target in ("megatron", "slurm"):
        script = os.path.join(folder, "train_megatron.sh" if target == "megatron" else "train.sbatch")
        words = dry_run(script)
        if any(w.endswith("run_recipe.py") for w in words):  # a LoRA plan runs Megatron-Bridge
            f = flag_values(words[: next(i for i, w in enumerate(words) if w.endswith("run_recipe.py"))])
            bridge_checks(where, words, plan, int(f["--nnodes"][0]) * int(f["--nproc_per_node"][0]))
            return
        f = flag_values(words[: next(i for i, w in enumerate(words) if w.endswith("pretrain_gpt.py"))])
        world = int(f["--nnodes"][0]) * int(f["--nproc_per_node"][0])
        megatron_checks(where, words, plan, world)
        megatron_startup_rules(where, words, open(script, encoding="utf-8").read())
    elif target == "bridge":
        words = dry_run(os.path.join(folder, "run_bridge.sh"))
        f = flag_values(words)
        bridge_checks(where, words, plan, int(f["--nnodes"][0]) * int(f["--nproc_per_node"][0]))
    elif target == "deepspeed":
        ds = files["ds_config.json"]
        for path in deepspeed_key_paths(ds):
            checked["deepspeed_keys"] += 1
            if path not in DEEPSPEED_KEYS:
                fail(where, f"{path} is not a DeepSpeed v0.19.5 config key")
        world = sum(int(line.split("slots=")[1]) for line in files["hostfile"].splitlines())
        words = dry_run(os.path.join(folder, "launch_deepspeed.sh"))
        f = flag_values(words)
        if int(f["--num_nodes"][0]) * int(f["--num_gpus"][0]) != world:
            fail(where, "launcher --num_nodes x --num_gpus differs from the hostfile")
        tp = ds.get("tensor_parallel", {}).get("autotp_size", 1)
        pp = ds.get("pipeline", {}).get("stages", 1)
        cp = ds.get("sequence_parallel_size", 1)
        micro, accum = ds["train_micro_batch_size_per_gpu"], ds["gradient_accumulation_steps"]
        dp = world // (tp * pp * cp)
        # runtime/config.py _batch_assertion; with AutoTP the key is left out (DeepSpeed derives it
        # from the world size it is built with, DP or DP x TP: config.py:953-957).
        if tp > 1 and "train_batch_size" in ds:
            fail(where, "AutoTP config writes train_batch_size (it holds only with an mpu)")
        if ds.get("train_batch_size", micro * accum * dp) != micro * accum * dp:
            fail(where, "train_batch_size != micro x accumulation x DP world")
        plan_checks(where, plan, world, tp=tp, pp=pp, cp=cp, micro=micro, global_batch=micro * accum * dp)
        ep = ds.get("expert_parallel", {})
        if ep.get("enabled"):  # module_inject/auto_ep_folding.py: ep x etp divides world / pp
            if (world // pp) % (ep["autoep_size"] * ep.get("expert_tensor_parallel_size", 1)):
                fail(where, "expert_parallel.autoep_size does not divide the stage size")
            if ep["autoep_size"] != plan["parallelism"]["ep"]:
                fail(where, "expert_parallel.autoep_size differs from the plan's ep")
        elif plan["model"].get("moe"):
            fail(where, "a mixture of experts without expert_parallel")
    elif target == "torchtitan":
        toml = files["torchtitan.toml"]
        words = dry_run(os.path.join(folder, "run_torchtitan.sh"))
        f = flag_values(words)
        world = int(f["--nnodes"][0]) * int(f["--nproc_per_node"][0])
        par, tr = toml["parallelism"], toml["training"]
        dp = par["data_parallel_replicate_degree"] * par["data_parallel_shard_degree"]
        tp, pp, cp = par["tensor_parallel_degree"], par["pipeline_parallel_degree"], par["context_parallel_degree"]
        if dp * tp * pp * cp != world:  # torchtitan/distributed/parallel_dims.py _validate
            fail(where, "dp_replicate x dp_shard x cp x tp x pp != WORLD_SIZE")
        local, glob = tr["local_batch_size"], tr["global_batch_size"]
        if glob % (local * dp):  # torchtitan/train.py gradient accumulation
            fail(where, "global_batch_size % (local_batch_size x dp) != 0")
        micro = par.get("pipeline_parallel_microbatch_size", local) if pp > 1 else local
        if pp > 1:
            parts = par["module_fqns_per_model_part"]
            n_layers = sum(1 for part in parts for m in part if m.startswith("layers."))
            if len(parts) % pp or n_layers != plan["model"]["layers"] or local % micro:
                fail(where, "module_fqns_per_model_part does not cover the layers in pp x v parts")
        plan_checks(where, plan, world, tp=tp, pp=pp, cp=cp, micro=micro, global_batch=glob, dp=dp)
        if "trainscape_flavor.py" in files:
            check_custom_flavor(where, toml, files["trainscape_flavor.py"], plan["model"])
    elif target == "k8s":
        check_k8s(where, files, plan)
    elif target == "torchtune":
        (config,) = files["torchtune.yaml"]
        check_torchtune(where, config, dry_run(os.path.join(folder, "run_torchtune.sh")), plan)


def torchtune_recipe(where, words):
    """The recipe and world of `tune run [torchrun flags] RECIPE --config FILE`."""
    if words[:2] != ["tune", "run"] or "--config" not in words:
        fail(where, f"not a tune run command: {words}")
        return None, 0
    recipe = words[words.index("--config") - 1]
    f = flag_values(words[2:words.index(recipe)])
    world = int(f["--nnodes"][0]) * int(f["--nproc_per_node"][0]) if "--nproc_per_node" in f else 1
    if recipe not in TORCHTUNE["recipes"]:
        fail(where, f"{recipe} is not one of the torchtune v0.6.1 fine-tuning recipes")
        return None, world
    if recipe.endswith("_single_device") != (world == 1):
        fail(where, f"{recipe} for a world of {world}")
    return recipe, world


def torchtune_keys(where, config, recipe):
    """Top-level keys against what the recipe reads; sections against its configs at the tag."""
    r = TORCHTUNE["recipes"][recipe]
    reads = set(r["required_keys"]) | set(r["optional_keys"])
    for key in config:
        checked["torchtune_keys"] += 1
        if key not in reads:
            fail(where, f"{key} is not read by torchtune v0.6.1 {r['source']}")
    for key in r["required_keys"]:
        if key not in config:
            fail(where, f"{r['source']} reads cfg.{key}, which the config lacks")
    references = TORCHTUNE_CONFIGS[recipe]
    for section, value in config.items():
        if not isinstance(value, dict) or "_component_" not in value:
            continue
        component = value["_component_"]
        if section == "model":
            if component not in TORCHTUNE["builders"]:
                fail(where, f"model {component} is not a torchtune v0.6.1 builder")
            kind = lambda c: c.rsplit(".", 1)[1].split("_")[0] in ("lora", "qlora")
            same = [c[section] for c in references if kind(c[section]["_component_"]) == kind(component)]
        else:  # a library component: found in that section of any of the four recipes' configs
            same = [c[section] for configs in TORCHTUNE_CONFIGS.values() for c in configs
                    if isinstance(c.get(section), dict) and c[section].get("_component_") == component]
            if not same:
                fail(where, f"{section} {component} is in no fine-tuning config at v0.6.1")
        known = set().union(*(s.keys() for s in same)) if same else set()
        for key in value:
            checked["torchtune_keys"] += 1
            if same and key not in known:
                fail(where, f"{section}.{key} is in no v0.6.1 config with {component}")


TORCHTUNE_ATTENTION = {"q_proj": "q_proj", "k_proj": "k_proj", "v_proj": "v_proj", "o_proj": "output_proj"}


def check_torchtune(where, config, words, plan):
    recipe, world = torchtune_recipe(where, words)
    if recipe is None:
        return
    torchtune_keys(where, config, recipe)
    p, t, tune = plan["parallelism"], plan["training"], plan["finetune"]
    tp = config.get("tensor_parallel_dim", 1)
    micro, accum = config["batch_size"], config["gradient_accumulation_steps"]
    plan_checks(where, plan, world, tp=tp, pp=1, cp=1, micro=micro, global_batch=micro * accum * (world // tp))
    component = config["model"]["_component_"].rsplit(".", 1)[1]
    method = component.split("_")[0] if component.startswith(("lora_", "qlora_")) else "full"
    if method != tune["method"] or recipe.startswith("lora") != (method != "full"):
        fail(where, f"{recipe} with {component} for a {tune['method']} plan")
    if method != "full":
        m, targets = config["model"], set(tune["lora_targets"])
        if (m["lora_rank"], m["lora_alpha"]) != (tune["lora_rank"], tune["lora_alpha"]):
            fail(where, "lora_rank / lora_alpha differ from the plan's")
        want = sorted(TORCHTUNE_ATTENTION[x] for x in targets if x in TORCHTUNE_ATTENTION)
        if sorted(m["lora_attn_modules"]) != want:
            fail(where, f"lora_attn_modules {m['lora_attn_modules']} for the targets {sorted(targets)}")
        if m["apply_lora_to_mlp"] != bool(targets & {"gate_proj", "up_proj", "down_proj"}):
            fail(where, "apply_lora_to_mlp differs from the plan's MLP targets")
        if m["apply_lora_to_output"] != ("lm_head" in targets):
            fail(where, "apply_lora_to_output differs from the plan's lm_head target")
    expect = {"dtype": "fp32" if t["precision"] == "fp32" else "bf16",
              "enable_activation_checkpointing": p["recompute"] == "full",
              "enable_activation_offloading": p["offload"]["activations"] == "cpu",
              "compile": t.get("compile", False)}  # unstated: the format default
    if method == "full":
        expect["optimizer_in_bwd"] = t["optimizer_in_backward"]
    if world > 1:
        expect["fsdp_cpu_offload"] = p["offload"]["params"] == "cpu"
        expect["fsdp_reshard_after_forward"] = p["zero"] == 3
    for key, value in expect.items():
        if config.get(key) != value:
            fail(where, f"{key} is {config.get(key)!r}, the plan says {value!r}")
    optimizer = {"adam": "torch.optim.AdamW", "adam8bit": "bitsandbytes.optim.PagedAdamW8bit"}[t["optimizer"]]
    if config["optimizer"]["_component_"] != optimizer:
        fail(where, f"optimizer {config['optimizer']['_component_']} for {t['optimizer']}")
    if config["tokenizer"]["max_seq_len"] != t["seq_len"] or not config["dataset"].get("packed"):
        fail(where, "sequences are not packed to the plan's seq_len")
    if t["optimizer_in_backward"] and accum != 1:  # the recipes raise otherwise
        fail(where, "optimizer_in_bwd with gradient accumulation")
    if config["enable_activation_offloading"] and not config["enable_activation_checkpointing"]:
        fail(where, "activation offloading without checkpointing (the recipes raise)")
    return component, recipe


def check_finetune_runs():
    """torchtune's own measured runs export to the recipe and builder they were run with."""
    import re
    import tempfile
    with open(os.path.join(SOURCE, "tests/data/finetune-dev.json")) as f:
        cases = json.load(f)
    for case in cases["cases"] if isinstance(cases, dict) else cases:
        where = "finetune-dev " + case["id"]
        with tempfile.TemporaryDirectory() as tmp:
            scenario = os.path.join(tmp, "scenario.json")
            with open(scenario, "w") as f:
                json.dump(case["scenario"], f)
            out = subprocess.run([CLI, "export", scenario, "--target", "torchtune", "--out",
                                  os.path.join(tmp, "job")], capture_output=True, text=True)
            if out.returncode != 0:
                fail(where, "torchtune refuses a run torchtune made: " + out.stderr.strip())
                continue
            config = parse_file(os.path.join(tmp, "job/torchtune.yaml"))[0]
            words = dry_run(os.path.join(tmp, "job/run_torchtune.sh"))
            got = check_torchtune(where, config, words, resolved(scenario))
        checked["finetune_runs"] += 1
        # The config the run was built from, named in its notes ("From github:pytorch/torchtune
        # recipes/configs/llama2/7B_qlora_single_device.yaml @ fef3ed10d", "enable_activation_
        # checkpointing True in llama3_1/70B_lora.yaml"): the first one for the run's model size
        # (another size's config can be cited as evidence), where v0.6.1 still registers it.
        size = re.search(r"-([0-9.]+b)_", case["id"]).group(1)
        named = next((m for m in re.finditer(r"\b(llama[0-9_]*/([0-9.]+B)_[0-9A-Za-z_.]+?\.yaml)",
                                             case.get("notes", "")) if m.group(2).lower() == size), None)
        path = "recipes/configs/" + named.group(1) if named else None
        if got and path in TORCHTUNE_RECIPE_OF:
            ref = next(c for c, p in zip(TORCHTUNE_CONFIGS[TORCHTUNE_RECIPE_OF[path]],
                                         TORCHTUNE["recipes"][TORCHTUNE_RECIPE_OF[path]]["configs"]) if p == path)
            component, recipe = got
            checked["finetune_configs"] += 1
            if (recipe, component) != (TORCHTUNE_RECIPE_OF[path], ref["model"]["_component_"].rsplit(".", 1)[1]):
                fail(where, f"exported {recipe} {component}; the run used {path}: "
                            f"{TORCHTUNE_RECIPE_OF[path]} {ref['model']['_component_']}")


def hidden_dim(dim, multiple_of, multiplier):
    """torchtitan v0.2.2 FeedForward / llama4 MoE hidden size (models/llama3/model/model.py)."""
    h = int(2 * (4 * dim) / 3)
    if multiplier is not None:
        h = int(multiplier * h)
    return multiple_of * ((h + multiple_of - 1) // multiple_of)


def check_custom_flavor(where, toml, python, model):
    """The custom_import module: its registry, flavor and dimensions against the plan's model."""
    import ast
    if toml.get("experimental", {}).get("custom_import") != "trainscape_flavor":
        fail(where, "a custom flavor module without [experimental] custom_import")
    name, flavor = toml["model"]["name"], toml["model"]["flavor"]
    call, target = None, None
    for node in ast.walk(ast.parse(python)):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            target = ast.unparse(node.targets[0])
            call = node.value
    if target != f"{name}_args['{flavor}']" or not isinstance(call, ast.Call):
        fail(where, f"the module registers {target}, not {name}_args['{flavor}']")
        return
    kw = {k.arg: k.value for k in call.keywords}
    num = lambda k, d=None: ast.literal_eval(kw[k]) if k in kw else d
    ffn = hidden_dim(num("dim"), num("multiple_of", 256), num("ffn_dim_multiplier"))
    moe = model.get("moe")
    want = (model["hidden"], model["layers"], model["heads"], model["kv_heads"], model["vocab"],
            moe["expert_ffn_hidden"] if moe else model["ffn_hidden"])
    got = (num("dim"), num("n_layers"), num("n_heads"), num("n_kv_heads"), num("vocab_size"), ffn)
    if want != got:
        fail(where, f"custom flavor (dim, layers, heads, kv, vocab, ffn) {got} != the plan's {want}")
    if moe:
        args = {k.arg: ast.literal_eval(k.value) for k in kw["moe_args"].keywords}
        if (args["num_experts"], args["top_k"], args["num_shared_experts"]) != (
                moe["experts"], moe["top_k"], moe["shared_experts"]):
            fail(where, "custom flavor MoEArgs differ from the plan's experts")


def get(doc, dotted):
    for key in dotted.split("."):
        if not isinstance(doc, dict) or key not in doc:
            return None
        doc = doc[key]
    return doc


def check_k8s(where, files, plan):
    (train_job,) = files["trainjob.yaml"]
    (job,) = files["pytorchjob-legacy.yaml"]
    for doc, kind in ((train_job, "TrainJob"), (job, "PyTorchJob")):
        spec = KUBEFLOW[kind]
        if doc.get("kind") != kind or doc.get("apiVersion") != spec["apiVersion"]:
            fail(where, f"{kind}: wrong kind or apiVersion")
        for field in spec["required"]:
            if get(doc, field) in (None, "", []):
                fail(where, f"{kind}: required field {field} missing")
    trainer = train_job["spec"]["trainer"]
    world = trainer["numNodes"] * trainer["numProcPerNode"]
    program = megatron_checks
    if trainer["command"][-1].endswith("run_recipe.py"):  # a LoRA plan runs Megatron-Bridge
        program = bridge_checks
    program(where + " TrainJob", trainer["command"] + trainer["args"], plan, world)
    replicas = job["spec"]["pytorchReplicaSpecs"]
    if not isinstance(job["spec"]["nprocPerNode"], str):
        fail(where, "PyTorchJob spec.nprocPerNode must be a string")
    nodes = sum(r["replicas"] for r in replicas.values())
    for role, r in replicas.items():
        names = [c["name"] for c in r["template"]["spec"]["containers"]]
        if "pytorch" not in names:
            fail(where, f"PyTorchJob {role}: no container named pytorch")
        c = r["template"]["spec"]["containers"][0]
        program(where + " PyTorchJob " + role, c["command"] + c["args"], plan,
                nodes * int(job["spec"]["nprocPerNode"]))


def main():
    scenarios = sorted(os.listdir(GOLDEN))
    for name in scenarios:
        if scenario_file(name) is None:
            fail(name, "golden folder without a scenario")
            continue
        plan = resolved(scenario_file(name))
        for target in sorted(os.listdir(os.path.join(GOLDEN, name))):
            folder = os.path.join(GOLDEN, name, target)
            entries = set(os.listdir(folder))
            if entries <= {"REFUSED.txt", "ADAPTATION-REFUSED.txt"}:
                checked["refused"] += 1
                continue
            adapted = os.path.join(folder, "adapted-scenario.json")
            if "REFUSED.txt" in entries and not os.path.exists(adapted):
                fail(f"{name}/{target}", "refused as it is, but no adapted-scenario.json")
                continue
            try:
                if os.path.exists(adapted):
                    checked["adapted"] += 1
                check_target(name, target, folder, resolved(adapted) if os.path.exists(adapted) else plan)
            except (KeyError, ValueError, StopIteration, SyntaxError, tomllib.TOMLDecodeError,
                    yaml.YAMLError) as e:
                fail(f"{name}/{target}", f"cannot read: {type(e).__name__}: {e}")
    check_finetune_runs()
    print(f"check_export: {len(scenarios)} scenarios, {checked['files']} files, "
          f"{checked['megatron_flags']} Megatron-LM flags, {checked['deepspeed_keys']} DeepSpeed keys, "
          f"{checked['torchtune_keys']} torchtune keys, {checked['plans']} plans checked; "
          f"{checked['adapted']} exports adapted, {checked['refused']} refused even adapted; "
          f"{checked['finetune_runs']} finetune-dev runs exported to torchtune, "
          f"{checked['finetune_configs']} of them with the recipe and builder of their config")
    for e in errors:
        print("FAIL", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
