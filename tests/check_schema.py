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
for case in json.load(open(os.path.join(root, "tests/data/published-dev.json"))):
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

# The optional keys of hybrid sharding, CP communication, EP overlap and host figures.
def with_issue5_keys(d):
    d.setdefault("parallelism", {}).update(dp_shard=None, cp_comm="a2a", overlap={"ep": True})
    d["cluster"]["host"] = {"pcie_gb_s": 55, "memory_gib": 2048, "memory_gb_s": 600,
                            "nvme_read_gb_s": 50, "nvme_write_gb_s": 25, "nvme_gib": 30.72}
extra = {"issue-5 keys": mutated(with_issue5_keys),
         "dp_shard 2": mutated(lambda d: d.setdefault("parallelism", {}).update(dp_shard=2))}
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
}
for name, doc in bad.items():
    if validator.is_valid(doc):
        failures += 1
        print(f"FAIL refuses {name}")

print(f"schema: {len(good)} valid documents accepted, {len(bad)} invalid refused, "
      f"{failures} failures")
sys.exit(1 if failures else 0)
