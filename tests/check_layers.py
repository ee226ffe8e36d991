#!/usr/bin/env python3
"""The one direction of dependency inside core/ (shared/DESIGN.md, "Layers"), where it holds:
a folder below another never includes it. topology/ (the cluster graph and collective costs)
sits below the estimate and everything that uses either; traffic/ (the heat map's routing of an
estimate on the graph) sits above both. core/ includes no Qt header anywhere.

Usage: check_layers.py PROJECT_ROOT. Prints each offending include and exits 1 if any."""
import pathlib
import re
import sys

# folder -> folders of core/ it must not include (directly).
FORBIDDEN = {
    "topology": {"estimate", "traffic", "search", "export", "import", "store", "report",
                 "energy", "accuracy"},
    "common": {"*"},
    "traffic": {"search", "export", "import", "store", "report"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')


def main(root):
    core = pathlib.Path(root) / "core"
    bad = []
    for path in sorted(core.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        folder = path.relative_to(core).parts[0]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target.startswith("Q") or target.startswith("qt"):
                bad.append(f"{path.relative_to(root)}:{number}: core/ includes Qt ({target})")
                continue
            top = target.split("/")[0] if "/" in target else None
            if top is None or top == folder or not (core / top).is_dir():
                continue
            banned = FORBIDDEN.get(folder, set())
            if "*" in banned or top in banned:
                bad.append(f"{path.relative_to(root)}:{number}: {folder}/ includes {target}, "
                           f"a layer above it")
    for b in bad:
        print(b)
    print(f"check_layers: {len(bad)} include(s) against the layers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
