#!/usr/bin/env python3
"""Assemble a calibration profile (trainscape.calibration/1) from the sweeps' JSON outputs.

  make_profile.py --out profile.json hbm.json matmul.json attention.json
                  [--power power.csv --phases phases.csv]

Each input is what hbm_bandwidth.py, matmul_sweep.py or attention_sweep.py wrote; missing or
unreadable inputs are reported and left out (a profile may cover only part of the GPU).
With --power (power_sampler.py's samples, unix_time_s,watts) and --phases (run_all.sh's step
spans, phase,start_s,end_s) the profile's "power" object holds the mean and highest board
power of each phase (idle, memory_bound, compute_bound, communicating, attention, training),
leaving out each step's first 0.5 s; a phase with fewer than 3 samples is left out, and
"power" is null when no phase remains or the files are not given or not readable.
memory_bound, compute_bound and attention are averaged over the GPU-busy span that
hbm_bandwidth.py, matmul_sweep.py and attention_sweep.py write as "busy" (from the first
timed launch to the last synchronize, no ramp left out) where it is valid, lies within the
step and holds 3 or more samples; otherwise over the step as above.
Collective figures come from nccl-tests logs instead: `trainscape-cli calibrate import-nccl
LOG... --write profile.json` adds them to this same file. Needs no torch.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import statistics
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


# The phases a profile's "power" object may hold (the C++ reader accepts these names only).
POWER_PHASES = ("idle", "memory_bound", "compute_bound", "communicating", "attention", "training")
RAMP_S = 0.5  # each phase's first half second is left out: the step's ramp
MIN_SAMPLES = 3  # a phase with fewer samples is left out
# Phases averaged over their sweep's GPU-busy span ("busy": {"start_s", "end_s"}, unix
# seconds) rather than the whole step: (phase, the key that marks that sweep's output).
BUSY_PHASES = (("memory_bound", "hbm"), ("compute_bound", "matmul"), ("attention", "attention"))


def read_power_csv(path: str) -> list[tuple[float, float]]:
    """(unix time, watts) samples from power_sampler.py's CSV, sorted by time.

    Raises OSError or ValueError when the file is missing or is not that CSV; rows that do
    not parse are skipped.
    """
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    if not rows or [c.strip() for c in rows[0]] != ["unix_time_s", "watts"]:
        raise ValueError("the first line is not the header unix_time_s,watts")
    samples = []
    for row in rows[1:]:
        try:
            samples.append((float(row[0]), float(row[1])))
        except (IndexError, ValueError):
            continue
    return sorted(samples)


def read_phases_csv(path: str) -> list[tuple[str, float, float]]:
    """(phase, start, end) rows of run_all.sh's phases.csv with a known phase name.

    Unknown names and rows that do not parse are reported on stderr and skipped. Raises
    OSError or ValueError when the file is missing or its header is not phase,start_s,end_s.
    """
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    if not rows or [c.strip() for c in rows[0]] != ["phase", "start_s", "end_s"]:
        raise ValueError("the first line is not the header phase,start_s,end_s")
    phases = []
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        name = row[0].strip()
        if name not in POWER_PHASES:
            print(f"warning: {path}:{line}: unknown phase {name!r} skipped (known: "
                  f"{', '.join(POWER_PHASES)})", file=sys.stderr)
            continue
        try:
            start, end = float(row[1]), float(row[2])
        except (IndexError, ValueError):
            print(f"warning: {path}:{line}: phase {name!r} without two times skipped",
                  file=sys.stderr)
            continue
        phases.append((name, start, end))
    return phases


def sampling_hz(samples: list[tuple[float, float]]) -> float | None:
    """Samples per second from the median gap between samples (None with fewer than 2)."""
    gaps = [b[0] - a[0] for a, b in zip(samples, samples[1:])]
    gap = statistics.median(gaps) if gaps else 0.0
    return 1.0 / gap if gap > 0 else None


def busy_spans(fragments: list[dict]) -> dict[str, tuple[float, float]]:
    """{phase: (start, end)} from the sweeps' "busy" spans where they are valid (end > start).

    The sweep of a phase is the first fragment holding its key (BUSY_PHASES) with a valid span.
    """
    spans = {}
    for phase, key in BUSY_PHASES:
        for fragment in fragments:
            if not isinstance(fragment, dict) or key not in fragment:
                continue
            busy = fragment.get("busy")
            try:
                start, end = float(busy["start_s"]), float(busy["end_s"])
            except (TypeError, KeyError, ValueError):
                continue
            if math.isfinite(start) and math.isfinite(end) and end > start:
                spans[phase] = (start, end)
                break
    return spans


def phase_power(samples: list[tuple[float, float]], phases: list[tuple[str, float, float]],
                busy: dict[str, tuple[float, float]] | None = None) -> tuple[dict, list[str]]:
    """({phase: {watts, max_watts, samples}}, [phases averaged over their GPU-busy span]).

    A phase with a span in busy that lies within one of its rows and holds MIN_SAMPLES or more
    samples is averaged over start <= t <= end of that span; any other phase over
    start + RAMP_S <= t <= end of its rows (rows with the same phase name pool their samples).
    Phases with fewer than MIN_SAMPLES samples are left out (and said so on stdout).
    """
    watts_by_phase: dict[str, list[float]] = {}
    rows_by_phase: dict[str, list[tuple[float, float]]] = {}
    for name, start, end in phases:
        rows_by_phase.setdefault(name, []).append((start, end))
        watts_by_phase.setdefault(name, []).extend(
            w for t, w in samples if start + RAMP_S <= t <= end)
    used_busy = []
    for name, (start, end) in (busy or {}).items():
        rows = rows_by_phase.get(name)
        if not rows:
            continue  # no step in phases.csv: the phase stays out
        if not any(row_start <= start and end <= row_end for row_start, row_end in rows):
            print(f"power: phase {name}: its GPU-busy span is not within its step in the "
                  f"phases file; the step is used")
            continue
        watts = [w for t, w in samples if start <= t <= end]
        if len(watts) < MIN_SAMPLES:
            print(f"power: phase {name}: {len(watts)} samples in its {end - start:.2f} s GPU-busy "
                  f"span (fewer than {MIN_SAMPLES}); the step is used")
            continue
        watts_by_phase[name] = watts
        used_busy.append(name)
    result = {}
    for name in POWER_PHASES:
        watts = watts_by_phase.get(name)
        if watts is None:
            continue
        if len(watts) < MIN_SAMPLES:
            print(f"power: phase {name} left out: {len(watts)} samples (fewer than "
                  f"{MIN_SAMPLES})")
            continue
        result[name] = {"watts": round(statistics.fmean(watts), 1),
                        "max_watts": round(max(watts), 1), "samples": len(watts)}
    return result, [name for name in POWER_PHASES if name in used_busy and name in result]


def power_section(power_path: str | None, phases_path: str | None,
                  busy: dict[str, tuple[float, float]] | None = None) -> dict | None:
    """The profile's "power" object, or None (and why, on stdout) when there is none.

    busy: the sweeps' GPU-busy spans by phase (busy_spans()).
    """
    if not power_path or not phases_path:
        print("power: null (make_profile.py needs both --power and --phases)")
        return None
    try:
        samples = read_power_csv(power_path)
        phases = read_phases_csv(phases_path)
    except (OSError, ValueError) as e:
        print(f"power: null ({e})")
        return None
    by_phase, used_busy = phase_power(samples, phases, busy)
    if not by_phase:
        print(f"power: null (no phase has {MIN_SAMPLES} or more of the {len(samples)} samples "
              f"in {power_path})")
        return None
    hz = sampling_hz(samples)
    rate = f"{hz:.0f} Hz" if hz and hz >= 2 else (f"{hz:.2f} Hz" if hz else "an unknown rate")
    if used_busy:
        spans = (f"{', '.join(used_busy)} averaged over the GPU-busy span of its sweep's timed "
                 f"work, first timed launch to last synchronize; the other phases over the step, "
                 f"its first {RAMP_S} s left out")
    else:
        spans = f"each step's first {RAMP_S} s left out"
    return {
        "how": (f"board power from nvidia-smi power.draw or NVML nvmlDeviceGetPowerUsage, "
                f"sampled at {rate} by tools/calibrate/power_sampler.py during the "
                f"tools/calibrate/run_all.sh steps ({spans})"),
        "phases": by_phase,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", help="JSON outputs of the sweeps")
    p.add_argument("--out", required=True, help="profile file to write")
    p.add_argument("--id", help="profile id (default GPU-measured-DATE)")
    p.add_argument("--gpu", help="catalog GPU id (default: from the device name)")
    p.add_argument("--where", help="where it was measured (default: host and device facts)")
    p.add_argument("--power", help="power_sampler.py's CSV (unix_time_s,watts)")
    p.add_argument("--phases", help="run_all.sh's phases.csv (phase,start_s,end_s)")
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
    profile["power"] = power_section(args.power, args.phases, busy_spans(fragments))
    common.write_json(args.out, profile)
    power_phases = len(profile["power"]["phases"]) if profile["power"] else 0
    print(f"wrote {args.out}: profile {profile['id']!r}, {len(profile['matmul'])} matmul and "
          f"{len(profile['attention'])} attention points, hbm "
          f"{profile['hbm']['achieved_gb_s'] if profile['hbm'] else 'none'}, "
          f"{power_phases} power phases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
