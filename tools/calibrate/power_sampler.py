#!/usr/bin/env python3
"""Sample a GPU's board power into a CSV file until SIGTERM or SIGINT.

  power_sampler.py --out power.csv [--interval-ms 100] [--gpu 0]

run_all.sh starts it in the background before the first step and stops it (kill -TERM) before
make_profile.py, which averages the samples over each step's span (phases.csv).

Sources, in order:
  1. NVML through the `pynvml` module (package nvidia-ml-py), when it imports and initialises:
     nvmlDeviceGetPowerUsage, in milliwatts, "power usage for this GPU ... and its associated
     circuitry (e.g. memory)". Set TRAINSCAPE_POWER_NO_NVML=1 to skip it.
  2. One streaming `nvidia-smi --query-gpu=power.draw --format=csv,noheader,nounits -lms
     INTERVAL -i GPU`, whose lines are stamped with time.time() as they arrive (one nvidia-smi
     per sample would take longer than the interval). `nvidia-smi --help-query-gpu` defines
     power.draw as "The last measured power draw for the entire board, in watts". Newer
     drivers average it (and nvmlDeviceGetPowerUsage) over 1 s on Ampere and later GPUs
     other than the A100, and offer power.draw.instant (power.draw.average) besides; the
     query stays power.draw because every driver has it.
  3. Neither: one line on stderr says so, the file gets its header only, exit status 0 (the
     rest of the suite goes on without power figures).

Output: a header `unix_time_s,watts`, then one line per sample (6 decimals of seconds, 1 of
watts). Readings that do not parse ("[N/A]", "[Not Supported]") are skipped and counted. The
file is flushed about once a second, so a run that is killed keeps what it sampled.
Needs neither torch nor a GPU for --help.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import time

HEADER = "unix_time_s,watts"
FLUSH_EVERY_S = 1.0
NO_NVML_ENV = "TRAINSCAPE_POWER_NO_NVML"


class Stop:
    """Set by SIGTERM/SIGINT; the sampling loops check it between samples."""

    requested = False

    @classmethod
    def install(cls) -> None:
        def handler(signum, frame):  # noqa: ARG001 (signal handler signature)
            cls.requested = True
        signal.signal(signal.SIGTERM, handler)
        signal.signal(signal.SIGINT, handler)


class CsvSink:
    """The output file: the header, one line per sample, a flush about every second."""

    def __init__(self, path: str):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed in close())
        self.file.write(HEADER + "\n")
        self.file.flush()
        self.samples = 0
        self.skipped = 0
        self.last_flush = time.monotonic()

    def add(self, unix_time: float, watts: float) -> None:
        self.file.write(f"{unix_time:.6f},{watts:.1f}\n")
        self.samples += 1
        self.tick()

    def skip(self) -> None:
        self.skipped += 1

    def tick(self) -> None:
        """Flushes when a second has passed since the last flush."""
        if time.monotonic() - self.last_flush >= FLUSH_EVERY_S:
            self.file.flush()
            self.last_flush = time.monotonic()

    def close(self) -> None:
        self.file.flush()
        self.file.close()


def parse_watts(text: str) -> float | None:
    """Watts from one nvidia-smi reading ("123.45", "123.45 W"), or None ("[N/A]", ...)."""
    text = text.strip()
    if text.endswith("W"):
        text = text[:-1].strip()
    try:
        watts = float(text)
    except ValueError:
        return None
    return watts if watts >= 0 and watts == watts else None  # NaN and negatives do not count


def open_nvml(gpu: int):
    """(pynvml module, device handle), or None when NVML is disabled, absent or fails."""
    if os.environ.get(NO_NVML_ENV, "") not in ("", "0"):
        return None
    try:
        import pynvml  # noqa: PLC0415 (optional: nvidia-ml-py)
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(gpu)
        pynvml.nvmlDeviceGetPowerUsage(handle)  # fails here when power is not supported
    except Exception as e:  # noqa: BLE001 (pynvml.NVMLError and its many subclasses)
        print(f"power_sampler: NVML not usable ({e}); trying nvidia-smi", file=sys.stderr)
        return None
    return pynvml, handle


def sample_nvml(nvml, interval_s: float, sink: CsvSink) -> None:
    """Polls nvmlDeviceGetPowerUsage (milliwatts) every interval until Stop."""
    pynvml, handle = nvml
    next_at = time.monotonic()
    try:
        while not Stop.requested:
            try:
                milliwatts = pynvml.nvmlDeviceGetPowerUsage(handle)
                sink.add(time.time(), milliwatts / 1000.0)
            except Exception:  # noqa: BLE001 (a reading that fails is skipped and counted)
                sink.skip()
            next_at += interval_s
            time.sleep(max(0.0, next_at - time.monotonic()))
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:  # noqa: BLE001
            pass


def nvidia_smi_command(interval_ms: int, gpu: int) -> list[str] | None:
    """The streaming nvidia-smi command line, or None when nvidia-smi is not on PATH.

    Under stdbuf -oL (where it exists) so that its stdio writes each line as it is made,
    even into a pipe; the arrival time of a line is its sample time.
    """
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    command = [smi, "--query-gpu=power.draw", "--format=csv,noheader,nounits",
               "-lms", str(interval_ms), "-i", str(gpu)]
    stdbuf = shutil.which("stdbuf")
    return [stdbuf, "-oL"] + command if stdbuf else command


def sample_nvidia_smi(command: list[str], sink: CsvSink) -> list[str]:
    """Reads nvidia-smi's lines as they come until Stop; notes on what went wrong, if anything."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    fd = proc.stdout.fileno()
    pending = b""
    bursts = 0
    notes = []
    try:
        while not Stop.requested:
            ready, _, _ = select.select([fd], [], [], 0.2)
            sink.tick()
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                notes.append(f"nvidia-smi ended by itself (status {proc.wait()})")
                break
            arrived = time.time()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            bursts += len(lines) >= 3
            for line in lines:
                add_line(line.decode("utf-8", "replace"), arrived, sink)
    finally:
        stop_process(proc)
    if bursts:
        notes.append(f"{bursts} reads brought 3 or more lines at once: nvidia-smi's output "
                     f"was buffered, so those samples share one time stamp")
    return notes


def add_line(line: str, arrived: float, sink: CsvSink) -> None:
    """One nvidia-smi line: a sample, a counted skip, or nothing when it is blank."""
    if not line.strip():
        return
    watts = parse_watts(line)
    if watts is None:
        sink.skip()
    else:
        sink.add(arrived, watts)


def stop_process(proc: subprocess.Popen) -> None:
    """Terminates nvidia-smi (then kills it when it does not go within 2 s)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    proc.stdout.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="CSV file to write (unix_time_s,watts)")
    p.add_argument("--interval-ms", type=int, default=100,
                   help="sampling interval in milliseconds (default 100, i.e. 10 Hz)")
    p.add_argument("--gpu", type=int, default=0, help="GPU index (default 0)")
    args = p.parse_args()
    if args.interval_ms < 1:
        p.error("--interval-ms must be at least 1")
    Stop.install()
    sink = CsvSink(args.out)
    notes = []
    try:
        nvml = open_nvml(args.gpu)
        command = None if nvml else nvidia_smi_command(args.interval_ms, args.gpu)
        if nvml:
            source = "NVML nvmlDeviceGetPowerUsage"
            sample_nvml(nvml, args.interval_ms / 1000.0, sink)
        elif command:
            source = "nvidia-smi power.draw"
            notes = sample_nvidia_smi(command, sink)
        else:
            source = None
            print("power_sampler: neither pynvml nor nvidia-smi is available: no power "
                  f"samples, {args.out} has its header only", file=sys.stderr)
    finally:
        sink.close()
    if source:
        print(f"power_sampler: {sink.samples} samples of {source} every {args.interval_ms} ms "
              f"into {args.out}; {sink.skipped} readings failed or did not parse (skipped)")
    for note in notes:
        print(f"power_sampler: {note}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
