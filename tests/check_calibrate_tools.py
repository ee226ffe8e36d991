#!/usr/bin/env python3
"""CI check of tools/calibrate without a GPU or PyTorch: every script compiles and answers
--help; the end-to-end runs' scenarios are valid for trainscape-cli; a profile assembled by
make_profile.py (from made-up sweep outputs, in a temporary folder) loads in trainscape-cli,
without and with measured power; power_sampler.py samples a fake nvidia-smi (and a fake
pynvml); make_profile.py averages made-up power samples per phase; compare_runs.py runs.
Usage: check_calibrate_tools.py SOURCE_DIR TRAINSCAPE_CLI
"""

import json
import os
import py_compile
import re
import signal
import subprocess
import sys
import tempfile
import time

# A stand-in for nvidia-smi: with -lms it streams one "[N/A]" and then 123.4 W every 0.05 s.
FAKE_NVIDIA_SMI = """#!/usr/bin/env bash
case " $* " in
*" -lms "*) echo "[N/A]"; while :; do echo "123.4"; sleep 0.05; done ;;
*) echo "fake nvidia-smi"; exit 0 ;;
esac
"""

# A stand-in for pynvml (nvidia-ml-py): 250.5 W in milliwatts, one failed reading.
FAKE_PYNVML = """class NVMLError(Exception):
    pass
_calls = 0
def nvmlInit():
    pass
def nvmlShutdown():
    pass
def nvmlDeviceGetHandleByIndex(index):
    return index
def nvmlDeviceGetPowerUsage(handle):
    global _calls
    _calls += 1
    if _calls == 3:
        raise NVMLError("Not Supported")
    return 250500
"""

# Made-up phases (seconds from 0) and the watts written into each one's window.
POWER_T0 = 1_700_000_000.0  # unix time of 0
POWER_PHASES = [("idle", 0, 5, 70.0), ("memory_bound", 5, 10, 420.0),
                ("compute_bound", 10, 20, 650.0), ("training", 20, 30, 540.0)]
# matmul.json's GPU-busy span (seconds from 0) within compute_bound, and its watts there:
# make_profile.py must average compute_bound over it alone. hbm.json's span is not valid
# (end before start) and attention.json's holds a single sample: both keep phases.csv.
MATMUL_BUSY = (12.0, 17.0, 700.0)
HBM_BUSY = (9.0, 6.0)
ATTENTION_BUSY = (29.92, 29.98)


def run_sampler(tools: str, tmp: str, env: dict, name: str) -> tuple[list[str], list[str]]:
    """Runs power_sampler.py for ~1.2 s, stops it with SIGTERM; (failures, its CSV lines)."""
    out = os.path.join(tmp, name)
    proc = subprocess.Popen([sys.executable, os.path.join(tools, "power_sampler.py"), "--out",
                             out, "--interval-ms", "50"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    # Its header is written once its signal handlers are in place: wait for that first.
    deadline = time.monotonic() + 20
    while not os.path.exists(out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.2)
    proc.send_signal(signal.SIGTERM)
    try:
        stdout, stderr = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        return [f"power_sampler.py ({name}) did not stop on SIGTERM"], []
    if proc.returncode != 0:
        return [f"power_sampler.py ({name}) exited {proc.returncode}: {stderr.strip()}"], []
    lines = open(out, encoding="utf-8").read().splitlines()
    failures = [] if re.search(r"(?<!\d)1 readings", stdout) else [
        f"power_sampler.py ({name}) did not count the one bad reading: {stdout.strip()}"]
    return failures, lines


def check_sample_lines(lines: list[str], watts: str, name: str) -> list[str]:
    """The header, at least 5 samples, each with that many watts and increasing times."""
    if not lines or lines[0] != "unix_time_s,watts":
        return [f"power_sampler.py ({name}): header {lines[:1]}"]
    rows = [line.split(",") for line in lines[1:]]
    if len(rows) < 5:
        return [f"power_sampler.py ({name}): {len(rows)} samples in 1.2 s, expected >= 5"]
    if any(len(r) != 2 or r[1] != watts for r in rows):
        return [f"power_sampler.py ({name}): rows other than TIME,{watts}: {rows[:3]}"]
    times = [float(r[0]) for r in rows]
    if times != sorted(times) or abs(times[0] - time.time()) > 60:
        return [f"power_sampler.py ({name}): time stamps are not increasing unix seconds"]
    return []


def check_power_sampler(tools: str, tmp: str) -> list[str]:
    """power_sampler.py against a fake nvidia-smi, a fake pynvml, and neither."""
    bin_dir = os.path.join(tmp, "fake-bin")
    os.makedirs(bin_dir)
    smi = os.path.join(bin_dir, "nvidia-smi")
    with open(smi, "w", encoding="utf-8") as f:
        f.write(FAKE_NVIDIA_SMI)
    os.chmod(smi, 0o755)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
               TRAINSCAPE_POWER_NO_NVML="1")
    failures, lines = run_sampler(tools, tmp, env, "power-smi.csv")
    failures += check_sample_lines(lines, "123.4", "nvidia-smi") if lines else []

    py_dir = os.path.join(tmp, "fake-py")
    os.makedirs(py_dir)
    with open(os.path.join(py_dir, "pynvml.py"), "w", encoding="utf-8") as f:
        f.write(FAKE_PYNVML)
    env = dict(os.environ, PYTHONPATH=py_dir, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    env.pop("TRAINSCAPE_POWER_NO_NVML", None)
    more, lines = run_sampler(tools, tmp, env, "power-nvml.csv")
    failures += more + (check_sample_lines(lines, "250.5", "NVML") if lines else [])

    # Neither source: the header only, one line on stderr, status 0.
    env = dict(os.environ, PATH=os.path.join(tmp, "empty-bin"), TRAINSCAPE_POWER_NO_NVML="1")
    out = os.path.join(tmp, "power-none.csv")
    done = subprocess.run([sys.executable, os.path.join(tools, "power_sampler.py"), "--out", out],
                          env=env, capture_output=True, text=True, timeout=30, check=False)
    if (done.returncode != 0 or not done.stderr.strip()
            or open(out, encoding="utf-8").read() != "unix_time_s,watts\n"):
        failures.append(f"power_sampler.py without a source: status {done.returncode}, "
                        f"stderr {done.stderr.strip()!r}")
    return failures


def write_power_files(tmp: str) -> tuple[str, str]:
    """Made-up power.csv and phases.csv (with a 'bogus' phase and a too short one).

    A sample every 0.1 s at 0.05, 0.15, ... 29.95 s (never on a phase boundary); the first
    0.5 s of each phase has 900 W, which make_profile.py must leave out as the ramp, and
    matmul.json's GPU-busy span (MATMUL_BUSY) has its own watts.
    """
    t0 = POWER_T0
    busy_start, busy_end, busy_watts = MATMUL_BUSY
    power = os.path.join(tmp, "power.csv")
    with open(power, "w", encoding="utf-8") as f:
        f.write("unix_time_s,watts\n")
        for i in range(300):
            t = i / 10 + 0.05
            start, watts = next((start, w) for _, start, end, w in POWER_PHASES
                                if start < t < end)
            if busy_start < t < busy_end:
                watts = busy_watts
            f.write(f"{t0 + t:.6f},{900.0 if t < start + 0.5 else watts:.1f}\n")
        f.write("not,a-sample\n")
    phases = os.path.join(tmp, "phases.csv")
    with open(phases, "w", encoding="utf-8") as f:
        f.write("phase,start_s,end_s\n")
        for name, start, end, _ in POWER_PHASES:
            f.write(f"{name},{t0 + start:.9f},{t0 + end:.9f}\n")
        f.write(f"bogus,{t0:.9f},{t0 + 30:.9f}\n")
        f.write(f"attention,{t0 + 29.9:.9f},{t0 + 30:.9f}\n")  # within its ramp: no samples
    return power, phases


def check_profile_power(profile_path: str, stderr: str) -> list[str]:
    """The profile's power.phases hold each window's watts, without 'bogus' or 'attention';
    compute_bound those of matmul.json's GPU-busy span, and "how" says so."""
    power = json.load(open(profile_path, encoding="utf-8")).get("power")
    if not isinstance(power, dict) or not isinstance(power.get("how"), str):
        return [f"make_profile.py --power: power is {power!r}"]
    phases = power.get("phases", {})
    failures = []
    if sorted(phases) != sorted(name for name, *_ in POWER_PHASES):
        failures.append(f"make_profile.py --power: phases {sorted(phases)}")
    for name, start, end, watts in POWER_PHASES:
        got = phases.get(name, {})
        # Samples at start + 0.55 .. end - 0.05, every 0.1 s.
        expected = round((end - start - 0.5) * 10)
        if name == "compute_bound":  # the busy span: busy_start + 0.05 .. busy_end - 0.05
            start, end, watts = MATMUL_BUSY
            expected = round((end - start) * 10)
        if got != {"watts": watts, "max_watts": watts, "samples": expected}:
            failures.append(f"make_profile.py --power: {name} is {got}, expected {watts} W "
                            f"over {expected} samples")
    if "bogus" not in stderr:
        failures.append("make_profile.py --power: the 'bogus' phase was not reported")
    if ("compute_bound averaged over the GPU-busy span" not in power["how"]
            or "memory_bound" in power["how"]):
        failures.append(f"make_profile.py --power: how does not name compute_bound alone as "
                        f"averaged over its GPU-busy span: {power['how']!r}")
    return failures


def check_cli_loads(cli: str, profiles: str, profile_id: str, what: str) -> list[str]:
    """trainscape-cli lists the profile folder's profile."""
    out = subprocess.run([cli, "--calibration-dir", profiles, "calibrate", "list", "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0 or profile_id not in out.stdout:
        return [f"make_profile output {what} does not load: {out.stderr.strip()}"]
    return []


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

        def busy(start, end):
            return {"start_s": POWER_T0 + start, "end_s": POWER_T0 + end}

        fragments = {
            "hbm.json": {"environment": env, "how": "ci", "hbm": {"achieved_gb_s": 4000.0},
                         "kernel_overhead_us": 2.0, "busy": busy(*HBM_BUSY)},
            "matmul.json": {"environment": env, "how": "ci", "matmul": [
                {"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16", "tflops": 700.0}],
                "busy": busy(*MATMUL_BUSY[:2])},
            "attention.json": {"environment": env, "how": "ci", "attention": [
                {"seq_len": 4096, "head_dim": 128, "causal": True, "forward_tflops": 400.0,
                 "backward_tflops": 300.0}], "busy": busy(*ATTENTION_BUSY)},
        }
        inputs = []
        for name, data in fragments.items():
            inputs.append(os.path.join(tmp, name))
            json.dump(data, open(inputs[-1], "w", encoding="utf-8"))
        profiles = os.path.join(tmp, "profiles")
        profile = os.path.join(profiles, "profile.json")
        subprocess.run([sys.executable, os.path.join(tools, "make_profile.py"), "--out", profile,
                        "--id", "ci-h200"] + inputs, check=True)
        if json.load(open(profile, encoding="utf-8")).get("power", "absent") is not None:
            failures.append("make_profile.py without --power: power is not null")
        failures += check_cli_loads(cli, profiles, "ci-h200", "without power")

        failures += check_power_sampler(tools, tmp)
        power, phases = write_power_files(tmp)
        power_profiles = os.path.join(tmp, "power-profiles")
        power_profile = os.path.join(power_profiles, "profile.json")
        out = subprocess.run([sys.executable, os.path.join(tools, "make_profile.py"), "--out",
                              power_profile, "--id", "ci-h200-power", "--power", power,
                              "--phases", phases] + inputs,
                             capture_output=True, text=True, check=False)
        if out.returncode != 0 or "4 power phases" not in out.stdout:
            failures.append(f"make_profile.py --power: {out.stdout.strip()} {out.stderr.strip()}")
        else:
            failures += check_profile_power(power_profile, out.stderr)
            failures += check_cli_loads(cli, power_profiles, "ci-h200-power", "with power")
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
