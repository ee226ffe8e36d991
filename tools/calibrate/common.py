"""Shared pieces of the calibration scripts: timing, device facts, and the output formats.

Everything here runs without PyTorch except the functions that time GPU work, so that
`--help` and the format code work on any machine (torch is imported lazily).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import subprocess
import sys
import time

PROFILE_FORMAT = "trainscape.calibration/1"
SCENARIO_FORMAT = "trainscape.scenario/1"

# Catalog GPU ids (resources/catalog/gpus.json) by the name the driver reports.
# Order matters: the first substring that matches wins.
_GPU_IDS = [
    ("H200", "h200-sxm-141gb"),
    ("H100 PCIe", "h100-pcie-80gb"),
    ("H100 80GB HBM3", "h100-sxm-80gb"),
    ("H100 SXM", "h100-sxm-80gb"),
    ("A100-SXM4-80GB", "a100-sxm-80gb"),
    ("A100-SXM4-40GB", "a100-sxm-40gb"),
    ("A100 80GB", "a100-sxm-80gb"),
    ("B200", "b200-sxm-180gb"),
    ("B300", "b300-sxm-288gb"),
    ("GB200", "gb200"),
    ("GB300", "gb300"),
]

# Cluster presets (resources/catalog/clusters.json) whose GPU is that catalog id; a one-GPU
# scenario uses the preset with num_gpus = 1.
_CLUSTER_PRESETS = {
    "a100-sxm-80gb": "dgx-a100",
    "h100-sxm-80gb": "dgx-h100",
    "h200-sxm-141gb": "dgx-h200",
    "b200-sxm-180gb": "dgx-b200",
    "b300-sxm-288gb": "dgx-b300",
}


def catalog_gpu_id(device_name: str) -> str | None:
    """The catalog id of a GPU from the driver's name, or None when it is not known."""
    if device_name.startswith("NVIDIA GB"):
        for needle, gpu_id in _GPU_IDS:
            if needle.startswith("GB") and needle in device_name:
                return gpu_id
    for needle, gpu_id in _GPU_IDS:
        if needle in device_name:
            return gpu_id
    return None


def cluster_preset(gpu_id: str | None) -> str | None:
    return _CLUSTER_PRESETS.get(gpu_id or "")


def import_torch():
    """Imports torch, or exits with a clear message (the scripts need a CUDA GPU)."""
    try:
        import torch  # noqa: PLC0415 (lazy on purpose: --help must work without torch)
    except ImportError:
        sys.exit("error: PyTorch is not installed; these scripts need torch with CUDA")
    if not torch.cuda.is_available():
        sys.exit("error: torch.cuda.is_available() is False; these scripts need an NVIDIA GPU")
    return torch


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def today() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")


def environment(torch) -> dict:
    """Where and how: device, driver, library versions, host (no network needed)."""
    props = torch.cuda.get_device_properties(0)
    env = {
        "device_name": props.name,
        "device_memory_bytes": int(props.total_memory),
        "sm_count": int(props.multi_processor_count),
        "compute_capability": f"{props.major}.{props.minor}",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        "python": platform.python_version(),
        "host": platform.node(),
        "kernel": platform.release(),
        "date_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version,clocks.max.sm,clocks.max.mem,power.limit",
             "--format=csv,noheader"], capture_output=True, text=True, timeout=20, check=False)
        if out.returncode == 0 and out.stdout.strip():
            driver, sm, mem, power = [s.strip() for s in out.stdout.strip().splitlines()[0].split(",")]
            env.update({"driver": driver, "max_sm_clock": sm, "max_mem_clock": mem,
                        "power_limit": power})
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
    return env


class Budget:
    """A wall-clock budget: sweeps stop adding points when it is spent (and say so)."""

    def __init__(self, seconds: float):
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def spent(self) -> bool:
        return self.left() <= 0


class BusySpan:
    """The wall-clock span (unix seconds, time.time()) in which the GPU runs a script's timed
    work: from right before the first timed launch (after its warm-up) to right after the
    last synchronize of the timed work. make_profile.py averages board power over it instead
    of over the whole step (interpreter start, import torch, CUDA context, warm-up).

    Pass one to every time_cuda call whose work it covers: the first call sets the start,
    each call moves the end.
    """

    def __init__(self):
        self.start_s: float | None = None
        self.end_s: float | None = None

    def mark_start(self) -> None:
        if self.start_s is None:
            self.start_s = time.time()

    def mark_end(self) -> None:
        if self.start_s is not None:
            self.end_s = time.time()

    def as_json(self) -> dict | None:
        """{"start_s", "end_s"}, or None when no timed work completed."""
        if self.start_s is None or self.end_s is None:
            return None
        return {"start_s": round(self.start_s, 6), "end_s": round(self.end_s, 6)}


def time_cuda(torch, fn, warmup: int = 3, iters: int = 10, min_seconds: float = 0.0,
              flush_l2: bool = False, busy: BusySpan | None = None) -> float:
    """Median seconds of fn() on the GPU, timed with CUDA events around each call.

    With flush_l2 a 256 MiB buffer is overwritten before each call, so that a kernel does
    not find its inputs in L2 (H100/H200 have 50-60 MB); the flush is outside the events.
    With busy, the timed calls (not the warm-up) are added to that span.
    """
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda") if flush_l2 else None
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    if busy is not None:
        busy.mark_start()
    times = []
    start_wall = time.monotonic()
    while len(times) < iters or (time.monotonic() - start_wall < min_seconds and len(times) < 1000):
        if flush is not None:
            flush.zero_()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    if busy is not None:
        busy.mark_end()  # right after the last timed call's end.synchronize()
    times.sort()
    return times[len(times) // 2]


def write_json(path: str, data) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def read_json(path: str):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
