#!/usr/bin/env python3
"""Predicted against measured: Trainscape's estimate of each measured run, before and after
selecting a calibration profile.

  compare_runs.py --runs e2e-runs.json --profile profile.json [--cli build/bin/trainscape-cli]

For every record it writes the scenario twice (calibration null, and the profile's id), runs
`trainscape-cli --calibration-dir DIR estimate FILE --json`, and prints a Markdown table of
step time and peak memory: measured, predicted with the defaults, predicted with the profile,
and the relative errors. Runs on the machine where Trainscape is built; needs no torch.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def estimate(cli: str, calibration_dir: str, scenario_path: str) -> dict | None:
    out = subprocess.run([cli, "--calibration-dir", calibration_dir, "estimate", scenario_path,
                          "--json"], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        print(f"warning: {scenario_path}: {out.stderr.strip()}", file=sys.stderr)
        return None
    return json.loads(out.stdout)


def error(predicted, measured) -> str:
    if predicted is None or not measured:
        return "-"
    return f"{100.0 * (predicted - measured) / measured:+.1f}%"


def fmt(value, scale=1.0, digits=3) -> str:
    return "-" if value is None else f"{value * scale:.{digits}f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--runs", required=True, help="measured-run records (e2e_train.py output)")
    p.add_argument("--profile", required=True, help="the calibration profile to select")
    p.add_argument("--cli", default=os.path.join(here, "..", "..", "build", "bin", "trainscape-cli"))
    p.add_argument("--markdown", help="also write the table to this file")
    args = p.parse_args()
    if not os.path.exists(args.cli):
        print(f"error: {args.cli} not found: build trainscape-cli or pass --cli", file=sys.stderr)
        return 1
    records = common.read_json(args.runs)
    profile = common.read_json(args.profile)
    lines = ["| run | step measured (s) | default | error | profile | error | "
             "peak measured (GiB) | predicted | error |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        cal_dir = os.path.join(tmp, "profiles")
        os.mkdir(cal_dir)
        shutil.copy(args.profile, os.path.join(cal_dir, "profile.json"))
        for rec in records:
            measured = rec.get("measured", {})
            results = []
            for calibration in (None, profile["id"]):
                sc = dict(rec["scenario"], calibration=calibration)
                path = os.path.join(tmp, "scenario.json")
                common.write_json(path, sc)
                est = estimate(args.cli, cal_dir, path)
                results.append(est)
            step = [e["time"]["step_s"] if e else None for e in results]
            peak = results[0]["memory"]["peak_bytes"] / 2**30 if results[0] else None
            lines.append(
                f"| {rec['id']} | {fmt(measured.get('step_s'))} | {fmt(step[0])} | "
                f"{error(step[0], measured.get('step_s'))} | {fmt(step[1])} | "
                f"{error(step[1], measured.get('step_s'))} | {fmt(measured.get('peak_memory_gib'), 1, 2)} | "
                f"{fmt(peak, 1, 2)} | {error(peak, measured.get('peak_memory_gib'))} |")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
