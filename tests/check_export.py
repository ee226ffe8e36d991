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
    dimensions through torchtitan v0.2.2's hidden-size formula against the plan.
A folder with REFUSED.txt holds the export --adapt wrote: its files are checked against the
adapted scenario beside them (adapted-scenario.json), the plan the target runs.
Usage: check_export.py SOURCE_DIR TRAINSCAPE_CLI
"""
import json
import os
import subprocess
import sys
import tomllib

import yaml

SOURCE, CLI = sys.argv[1], sys.argv[2]
GOLDEN = os.path.join(SOURCE, "tests/fixtures/export/golden")
DATA = os.path.join(SOURCE, "tests/data/launchers")
errors = []
checked = {"files": 0, "megatron_flags": 0, "deepspeed_keys": 0, "plans": 0, "adapted": 0,
           "refused": 0}


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
        if ds["train_batch_size"] != micro * accum * dp:  # runtime/config.py _batch_assertion
            fail(where, "train_batch_size != micro x accumulation x DP world")
        plan_checks(where, plan, world, tp=tp, pp=pp, cp=cp, micro=micro, global_batch=ds["train_batch_size"])
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
    print(f"check_export: {len(scenarios)} scenarios, {checked['files']} files, "
          f"{checked['megatron_flags']} Megatron-LM flags, {checked['deepspeed_keys']} DeepSpeed keys, "
          f"{checked['plans']} plans checked; {checked['adapted']} exports adapted, "
          f"{checked['refused']} refused even adapted")
    for e in errors:
        print("FAIL", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
