#!/usr/bin/env python3
"""CI check of tools/calibrate without a GPU or PyTorch: every script compiles and answers
--help; the end-to-end runs' scenarios are valid for trainscape-cli; a profile assembled by
make_profile.py (from made-up sweep outputs, in a temporary folder) loads in trainscape-cli;
compare_runs.py runs. Usage: check_calibrate_tools.py SOURCE_DIR TRAINSCAPE_CLI
"""

import json
import os
import py_compile
import subprocess
import sys
import tempfile


def main() -> int:
    source, cli = sys.argv[1], sys.argv[2]
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the source tree
    tools = os.path.join(source, "tools", "calibrate")
    scripts = sorted(f for f in os.listdir(tools) if f.endswith(".py"))
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for script in scripts:
            path = os.path.join(tools, script)
            try:
                py_compile.compile(path, cfile=os.path.join(tmp, script + "c"), doraise=True)
            except py_compile.PyCompileError as e:
                failures.append(f"{script}: {e}")
                continue
            if script != "common.py":
                out = subprocess.run([sys.executable, path, "--help"], capture_output=True,
                                     text=True, check=False)
                if out.returncode != 0:
                    failures.append(f"{script} --help: {out.stderr.strip()}")
        out = subprocess.run(["bash", "-n", os.path.join(tools, "run_all.sh")],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            failures.append(f"run_all.sh: {out.stderr.strip()}")

        runs = os.path.join(tmp, "runs.json")
        subprocess.run([sys.executable, os.path.join(tools, "e2e_train.py"), "--print-scenarios",
                        "NVIDIA H200", "--json", runs], check=True)
        records = json.load(open(runs, encoding="utf-8"))
        for rec in records:
            path = os.path.join(tmp, "scenario.json")
            json.dump(rec["scenario"], open(path, "w", encoding="utf-8"))
            out = subprocess.run([cli, "validate", path], capture_output=True, text=True,
                                 check=False)
            if out.returncode != 0:
                failures.append(f"e2e scenario {rec['id']}: {out.stderr.strip()}")

        # Made-up sweep outputs (not measurements): only the file formats are under test.
        env = {"device_name": "NVIDIA H200", "host": "ci", "date_utc": "2026-01-01T00:00:00+00:00"}
        fragments = {
            "hbm.json": {"environment": env, "how": "ci", "hbm": {"achieved_gb_s": 4000.0},
                         "kernel_overhead_us": 2.0},
            "matmul.json": {"environment": env, "how": "ci", "matmul": [
                {"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16", "tflops": 700.0}]},
            "attention.json": {"environment": env, "how": "ci", "attention": [
                {"seq_len": 4096, "head_dim": 128, "causal": True, "forward_tflops": 400.0,
                 "backward_tflops": 300.0}]},
        }
        inputs = []
        for name, data in fragments.items():
            inputs.append(os.path.join(tmp, name))
            json.dump(data, open(inputs[-1], "w", encoding="utf-8"))
        profiles = os.path.join(tmp, "profiles")
        profile = os.path.join(profiles, "profile.json")
        subprocess.run([sys.executable, os.path.join(tools, "make_profile.py"), "--out", profile,
                        "--id", "ci-h200"] + inputs, check=True)
        out = subprocess.run([cli, "--calibration-dir", profiles, "calibrate", "list", "--json"],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0 or "ci-h200" not in out.stdout:
            failures.append(f"make_profile output does not load: {out.stderr.strip()}")
        out = subprocess.run([sys.executable, os.path.join(tools, "compare_runs.py"), "--runs",
                              runs, "--profile", profile, "--cli", cli],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0 or out.stdout.count("\n") < len(records) + 2:
            failures.append(f"compare_runs.py: {out.stderr.strip()}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(scripts)} scripts checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
