#!/usr/bin/python3
"""The JSON Schema of scenario format v1 (resources/schema/scenario.schema.json) accepts every
bundled example and every published validation scenario, and refuses typical mistakes.
Usage: check_schema.py SOURCE_DIR"""
import copy
import glob
import json
import os
import sys

import jsonschema

root = sys.argv[1]
schema = json.load(open(os.path.join(root, "resources/schema/scenario.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failures = 0
good = {os.path.basename(p): json.load(open(p))
        for p in glob.glob(os.path.join(root, "resources/examples/*.json"))}
for data in ("published-dev.json", "finetune-dev.json"):
    for case in json.load(open(os.path.join(root, "tests/data", data))):
        good[case["id"]] = case["scenario"]
for name, doc in sorted(good.items()):
    errors = list(validator.iter_errors(doc))
    if errors:
        failures += 1
        print(f"FAIL accepts {name}: {errors[0].json_path}: {errors[0].message}")

base = good["llama3-8b-8xh100.json"]
def mutated(edit):
    doc = copy.deepcopy(base)
    edit(doc)
    return doc

# DeepSeek-V3's routed experts (model.moe), for the group-limited routing keys.
MOE = {"experts": 256, "top_k": 8, "expert_ffn_hidden": 2048, "shared_experts": 1,
       "first_dense_layers": 3, "capacity_factor": None}

# The optional keys of hybrid sharding, CP communication, EP overlap and host figures.
def with_issue5_keys(d):
    d.setdefault("parallelism", {}).update(dp_shard=None, cp_comm="a2a", overlap={"ep": True})
    d["cluster"]["host"] = {"pcie_gb_s": 55, "memory_gib": 2048, "memory_gb_s": 600,
                            "nvme_read_gb_s": 50, "nvme_write_gb_s": 25, "nvme_gib": 30.72}
extra = {"issue-5 keys": mutated(with_issue5_keys),
         "dp_shard 2": mutated(lambda d: d.setdefault("parallelism", {}).update(dp_shard=2)),
         "zb-v": mutated(lambda d: d.setdefault("parallelism", {}).update(
             pp=2, vpp=2, schedule="zero-bubble", pipeline_layers=None)),
         "fp8 blockwise": mutated(
             lambda d: d["training"].update(precision="fp8", fp8_recipe="blockwise")),
         "moe groups and fp8 dispatch": mutated(
             lambda d: (d["model"].update(moe=dict(MOE, groups=8, groups_per_token=4)),
                        d.setdefault("parallelism", {}).update(moe_dispatch_fp8=True))),
         "qlora on one 4090": mutated(
             lambda d: (d["cluster"].update(preset="workstation-1x", num_gpus=1),
                        d["training"].update(optimizer="adam8bit", optimizer_in_backward=False,
                                             compile=True, master_weights=False),
                        d.update(finetune={"method": "qlora", "lora_rank": 16,
                                           "lora_alpha": 32,
                                           "lora_targets": ["q_proj", "v_proj", "lm_head"],
                                           "base_weights": "nf4", "double_quant": True}))),
         "no bf16 gpu object": mutated(
             lambda d: d["cluster"].update(gpu={"name": "T4", "memory_gib": 16, "hbm_gb_s": 320,
                                                "bf16_tflops": 0, "fp16_tflops": 65,
                                                "fp8_tflops": 0, "fp32_tflops": 8.1,
                                                "tdp_w": 70})),
         "moe groups null": mutated(
             lambda d: d["model"].update(moe=dict(MOE, groups=None, groups_per_token=None)))}
for name, doc in sorted(extra.items()):
    errors = list(validator.iter_errors(doc))
    if errors:
        failures += 1
        print(f"FAIL accepts {name}: {errors[0].json_path}: {errors[0].message}")
good.update(extra)
bad = {
    "unknown top-level key": mutated(lambda d: d.update(modle={})),
    "unknown training key": mutated(lambda d: d["training"].update(sequence_length=1)),
    "tp is a string": mutated(lambda d: d.setdefault("parallelism", {}).update(tp="8")),
    "tp is zero": mutated(lambda d: d.setdefault("parallelism", {}).update(tp=0)),
    "format is wrong": mutated(lambda d: d.update(format="trainscape.scenario/2")),
    "num_gpus missing": mutated(lambda d: d["cluster"].pop("num_gpus")),
    "seq_len missing": mutated(lambda d: d["training"].pop("seq_len")),
    "precision unknown": mutated(lambda d: d["training"].update(precision="bf17")),
    "dp_shard is zero": mutated(lambda d: d.setdefault("parallelism", {}).update(dp_shard=0)),
    "dp_shard is a string": mutated(
        lambda d: d.setdefault("parallelism", {}).update(dp_shard="2")),
    "cp_comm unknown": mutated(lambda d: d.setdefault("parallelism", {}).update(cp_comm="ring")),
    "overlap.ep is a string": mutated(
        lambda d: d.setdefault("parallelism", {}).update(overlap={"ep": "yes"})),
    "unknown host key": mutated(lambda d: d["cluster"].update(host={"pcie_gbs": 55})),
    "host figure zero": mutated(lambda d: d["cluster"].update(host={"nvme_gib": 0})),
    "fp8_recipe unknown": mutated(
        lambda d: d["training"].update(precision="fp8", fp8_recipe="current")),
    "fp8_recipe mxfp8": mutated(
        lambda d: d["training"].update(precision="fp8", fp8_recipe="mxfp8")),
    "fp8_recipe with bf16": mutated(
        lambda d: d["training"].update(precision="bf16", fp8_recipe="blockwise")),
    "moe groups without groups_per_token": mutated(
        lambda d: d["model"].update(moe=dict(MOE, groups=8))),
    "moe groups_per_token without groups": mutated(
        lambda d: d["model"].update(moe=dict(MOE, groups=None, groups_per_token=4))),
    "moe groups zero": mutated(
        lambda d: d["model"].update(moe=dict(MOE, groups=0, groups_per_token=1))),
    "moe groups is a string": mutated(
        lambda d: d["model"].update(moe=dict(MOE, groups="8", groups_per_token=4))),
    "moe_dispatch_fp8 is a string": mutated(
        lambda d: d.setdefault("parallelism", {}).update(moe_dispatch_fp8="yes")),
    "finetune without method": mutated(lambda d: d.update(finetune={"lora_rank": 8})),
    "finetune method unknown": mutated(lambda d: d.update(finetune={"method": "dora"})),
    "lora_rank zero": mutated(lambda d: d.update(finetune={"method": "lora", "lora_rank": 0})),
    "lora target unknown": mutated(
        lambda d: d.update(finetune={"method": "lora", "lora_targets": ["query"]})),
    "lora targets empty": mutated(
        lambda d: d.update(finetune={"method": "lora", "lora_targets": []})),
    "base_weights unknown": mutated(
        lambda d: d.update(finetune={"method": "qlora", "base_weights": "int4"})),
    "optimizer unknown": mutated(lambda d: d["training"].update(optimizer="adam4bit")),
    "compile is a string": mutated(lambda d: d["training"].update(compile="yes")),
    "fp8_recipe without precision": mutated(
        lambda d: (d["training"].pop("precision", None),
                   d["training"].update(fp8_recipe="tensorwise"))),
}
for name, doc in bad.items():
    if validator.is_valid(doc):
        failures += 1
        print(f"FAIL refuses {name}")

print(f"schema: {len(good)} valid documents accepted, {len(bad)} invalid refused, "
      f"{failures} failures")
sys.exit(1 if failures else 0)
