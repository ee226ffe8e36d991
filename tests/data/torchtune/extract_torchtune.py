#!/usr/bin/env python3
"""Rebuilds the torchtune reference data in this folder from pytorch/torchtune at a tag.

Usage: extract_torchtune.py TORCHTUNE_GIT   (the git directory of a clone with its tags)

Writes, for the four recipes the torchtune exporter targets:
  v0.6.1/recipes/configs/<family>/<name>.yaml  the Llama configs each recipe registers in
      torchtune/_recipe_registry.py, copied verbatim (the reference configs the exported keys
      are checked against, tests/check_export.py);
  torchtune-v0.6.1.json  per recipe: its registered Llama configs, the top-level keys its
      source reads by attribute (cfg.x: required, OmegaConf raises when one is missing) and by
      cfg.get("x") (optional); and the model builders of torchtune/models/<family>/__init__.py.
"""
import ast
import json
import os
import subprocess
import sys

TAG = "v0.6.1"
RECIPES = ["lora_finetune_single_device", "lora_finetune_distributed",
           "full_finetune_single_device", "full_finetune_distributed"]
FAMILIES = ["llama2", "llama3", "llama3_1", "llama3_2", "llama3_3"]
# torchtune/training/__init__.py at the tag re-exports PROFILER_KEY = "profiler"
# (torchtune/training/_profiler.py).
NAMED_KEYS = {"PROFILER_KEY": "profiler"}
HERE = os.path.dirname(os.path.abspath(__file__))


def show(git, path):
    return subprocess.run(["git", "--git-dir", git, "show", f"{TAG}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def registry(git):
    """{recipe: [config file paths]} from the Recipe(...) calls of _recipe_registry.py."""
    out = {}
    for node in ast.walk(ast.parse(show(git, "torchtune/_recipe_registry.py"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Recipe":
            kw = {k.arg: k.value for k in node.keywords}
            name = kw["name"].value
            configs = [c for c in kw["configs"].elts]
            out[name] = [{k.arg: k.value.value for k in c.keywords}["file_path"] for c in configs]
    return out


def recipe_keys(source):
    """Keys read from the `cfg` argument of the recipe's methods: by attribute and by get()."""
    required, optional = set(), set()
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef) or "cfg" not in [a.arg for a in fn.args.args]:
            continue
        for node in ast.walk(fn):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "cfg" and node.attr != "get"):
                required.add(node.attr)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "cfg"
                    and node.func.attr == "get" and node.args):
                arg = node.args[0]
                optional.add(arg.value if isinstance(arg, ast.Constant) else NAMED_KEYS[arg.id])
    return sorted(required), sorted(optional - required)


def builders(git, family):
    tree = ast.parse(show(git, f"torchtune/models/{family}/__init__.py"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "__all__":
            return [f"torchtune.models.{family}.{e.value}" for e in node.value.elts
                    if e.value[0].islower()]
    return []


def main():
    git = sys.argv[1]
    commit = subprocess.run(["git", "--git-dir", git, "rev-parse", f"{TAG}^{{commit}}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    reg = registry(git)
    data = {"repository": "pytorch/torchtune", "tag": TAG, "commit": commit,
            "generated_by": "tests/data/torchtune/extract_torchtune.py", "recipes": {},
            "builders": sorted({b for f in FAMILIES for b in builders(git, f)})}
    for recipe in RECIPES:
        configs = sorted(p for p in reg[recipe] if p.split("/")[0] in FAMILIES)
        for path in configs:
            target = os.path.join(HERE, TAG, "recipes/configs", path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as f:
                f.write(show(git, "recipes/configs/" + path))
        required, optional = recipe_keys(show(git, f"recipes/{recipe}.py"))
        data["recipes"][recipe] = {"source": f"recipes/{recipe}.py",
                                   "configs": ["recipes/configs/" + p for p in configs],
                                   "required_keys": required, "optional_keys": optional}
    with open(os.path.join(HERE, f"torchtune-{TAG}.json"), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
