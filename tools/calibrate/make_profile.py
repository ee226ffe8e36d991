#!/usr/bin/env python3
"""Assemble a calibration profile (trainscape.calibration/1) from the sweeps' JSON outputs.

  make_profile.py --out profile.json hbm.json matmul.json attention.json

Each input is what hbm_bandwidth.py, matmul_sweep.py or attention_sweep.py wrote; missing or
unreadable inputs are reported and left out (a profile may cover only part of the GPU).
Collective figures come from nccl-tests logs instead: `trainscape-cli calibrate import-nccl
LOG... --write profile.json` adds them to this same file. Needs no torch.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def assemble(fragments: list[dict], profile_id: str | None, gpu: str | None,
             where: str | None) -> dict:
    env = next((f["environment"] for f in fragments if "environment" in f), {})
    device = env.get("device_name", "")
    gpu_id = gpu or common.catalog_gpu_id(device)
    date = (env.get("date_utc") or common.today())[:10]
    profile = {
        "format": common.PROFILE_FORMAT,
        "id": profile_id or f"{gpu_id or 'gpu'}-measured-{date}",
        "name": f"{device or 'GPU'} measured with tools/calibrate ({date})",
        "kind": "measured",
        "gpu": gpu_id,
        "device_name": device,
        "provenance": {
            "where": where or (f"host {env.get('host', '?')}: 1x {device}, {env.get('sm_count', '?')} "
                               f"SMs, {env.get('device_memory_bytes', 0) / 2**30:.0f} GiB, driver "
                               f"{env.get('driver', '?')}, power limit {env.get('power_limit', '?')}"),
            "when": env.get("date_utc", date),
            "how": "; ".join(f["how"] for f in fragments if f.get("how")),
        },
        "sources": [],
        "notes": ("Measured on one GPU by tools/calibrate/run_all.sh. Collectives are not in it: "
                  "one GPU has none to measure; add nccl-tests logs with trainscape-cli "
                  "calibrate import-nccl LOG... --write THIS_FILE."),
        "matmul": [],
        "attention": [],
        "hbm": None,
        "collectives": [],
    }
    for f in fragments:
        profile["matmul"] += f.get("matmul", [])
        profile["attention"] += f.get("attention", [])
        if f.get("hbm"):
            profile["hbm"] = f["hbm"]
        if f.get("kernel_overhead_us") is not None:
            profile["kernel_overhead_us"] = f["kernel_overhead_us"]
    return profile


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", help="JSON outputs of the sweeps")
    p.add_argument("--out", required=True, help="profile file to write")
    p.add_argument("--id", help="profile id (default GPU-measured-DATE)")
    p.add_argument("--gpu", help="catalog GPU id (default: from the device name)")
    p.add_argument("--where", help="where it was measured (default: host and device facts)")
    args = p.parse_args()
    fragments = []
    for path in args.inputs:
        try:
            fragments.append(common.read_json(path))
        except (OSError, ValueError) as e:
            print(f"warning: {path} left out: {e}", file=sys.stderr)
    if not fragments:
        print("error: no input could be read", file=sys.stderr)
        return 1
    profile = assemble(fragments, args.id, args.gpu, args.where)
    common.write_json(args.out, profile)
    print(f"wrote {args.out}: profile {profile['id']!r}, {len(profile['matmul'])} matmul and "
          f"{len(profile['attention'])} attention points, hbm "
          f"{profile['hbm']['achieved_gb_s'] if profile['hbm'] else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
