#!/usr/bin/env python3
"""docs/scenario-format.md stays true to the code: every key of the JSON Schema (which
tests/check_schema.py holds to the reader) is named there by its dotted path, and every
dotted path named there is a key of the schema."""
import json
import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
schema = json.loads((root / "resources/schema/scenario.schema.json").read_text())
defs = schema.get("$defs", schema.get("definitions", {}))


def resolve(node):
    if "$ref" in node:
        return defs[node["$ref"].split("/")[-1]]
    for alt in node.get("oneOf", []) + node.get("anyOf", []):
        if "$ref" in alt or "properties" in alt:
            return resolve(alt)
    return node


def keys(node, prefix, out):
    node = resolve(node)
    for name, sub in node.get("properties", {}).items():
        path = f"{prefix}.{name}" if prefix else name
        out.add(path)
        if path not in ("cluster.graph",):  # the drawn topology's own format
            keys(sub, path, out)


schema_keys = set()
keys(schema, "", schema_keys)
doc = (root / "docs/scenario-format.md").read_text()
named = set(re.findall(r"`([a-z_]+(?:\.[a-z0-9_]+)+)`", doc))
top = {k for k in schema_keys if "." not in k}
# An object is described through its keys.
missing = sorted(
    k for k in schema_keys - top if k not in named and not any(n.startswith(k + ".") for n in named)
)
missing += sorted(k for k in top if f"`{k}`" not in doc)
unknown = sorted(k for k in named if k.split(".")[0] in top and k not in schema_keys)
if missing or unknown:
    for k in missing:
        print(f"docs/scenario-format.md does not describe the key {k}")
    for k in unknown:
        print(f"docs/scenario-format.md names {k}, which is not a scenario key")
    sys.exit(1)
print(f"docs/scenario-format.md names all {len(schema_keys)} keys of the schema")
