#!/usr/bin/env python3
"""Matmul sweep over the shapes that transformer layers produce, on one GPU.

For each linear layer of a few Llama/GPT shapes (QKV, attention output, fused gate+up,
down; the output layer) sharded by tensor parallelism 1-8, and for micro-batches of 4k-16k
tokens, it times the three GEMMs of training: forward (M = tokens, K = in, N = out), input
gradient (M = tokens, K = out, N = in) and weight gradient (M = in, N = out, K = tokens).
Square shapes from 256 to 16384 fill in the grid for interpolation.

Writes a CSV (m,n,k,dtype,time_us,tflops,label; `trainscape-cli calibrate import-gemm` reads
it) and the profile's "matmul" list as JSON. Stops adding shapes when --budget-s is spent.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

# (name, hidden, ffn_hidden, heads, kv_heads, head_dim, vocab): public model configs.
MODELS = [
    ("llama3-8b", 4096, 14336, 32, 8, 128, 128256),
    ("llama3-70b", 8192, 28672, 64, 8, 128, 128256),
    ("llama3.2-1b", 2048, 8192, 32, 8, 64, 128256),
    ("llama2-13b", 5120, 13824, 40, 40, 128, 32000),
    ("gpt3-175b", 12288, 49152, 96, 96, 128, 51200),
]
TOKENS = [8192, 4096, 16384]
TP = [1, 8, 2, 4]


def layer_linears(hidden, ffn, heads, kv_heads, head_dim, vocab, tp):
    """(label, in_features, out_features) of one layer's linears on one TP rank."""
    q_out = (heads + 2 * kv_heads) * head_dim // tp
    return [
        ("qkv", hidden, q_out),
        ("proj", heads * head_dim // tp, hidden),
        ("gate_up", hidden, 2 * ffn // tp),
        ("down", ffn // tp, hidden),
        ("lm_head", hidden, vocab // tp),
    ]


def shapes(fp8_subset: bool = False):
    """Ordered, de-duplicated (m, n, k, label): the common cases first."""
    seen, out = set(), []

    def add(m, n, k, label):
        key = (m, n, k)
        if key not in seen and min(m, n, k) > 0:
            seen.add(key)
            out.append((m, n, k, label))

    squares = [1024, 2048, 4096, 8192, 16384] if fp8_subset else [256, 512, 1024, 2048, 4096,
                                                                   6144, 8192, 12288, 16384]
    for s in squares:
        add(s, s, s, "square")
    models = MODELS[:2] if fp8_subset else MODELS
    for tokens in (TOKENS[:1] if fp8_subset else TOKENS):
        for tp in ([1, 8] if fp8_subset else TP):
            for name, hidden, ffn, heads, kv, hd, vocab in models:
                for label, fin, fout in layer_linears(hidden, ffn, heads, kv, hd, vocab, tp):
                    tag = f"{name}/tp{tp}/{tokens}tok/{label}"
                    add(tokens, fout, fin, tag + "/fwd")
                    add(tokens, fin, fout, tag + "/dgrad")
                    add(fin, fout, tokens, tag + "/wgrad")
    return out


def run(args) -> int:
    torch = common.import_torch()
    budget = common.Budget(args.budget_s)
    env = common.environment(torch)
    common.log(f"matmul sweep on {env['device_name']}, budget {args.budget_s:.0f} s")
    rows = []
    busy = common.BusySpan()  # first shape's timed calls to the last shape's

    def measure(m, n, k, dtype_name, label, make):
        fn = make(m, n, k)
        if fn is None:
            return
        # One call to size the repetitions: ~ 0.1 s of timed work per shape, 3 to 20 calls.
        once = common.time_cuda(torch, fn, warmup=1, iters=1)
        iters = max(3, min(20, int(0.1 / max(once, 1e-6))))
        sec = common.time_cuda(torch, fn, warmup=2, iters=iters, flush_l2=True, busy=busy)
        tflops = 2.0 * m * n * k / sec / 1e12
        rows.append({"m": m, "n": n, "k": k, "dtype": dtype_name, "time_us": sec * 1e6,
                     "tflops": tflops, "label": label})

    def make_bf16(m, n, k):
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        return lambda: torch.matmul(a, b)

    def make_fp8(m, n, k):
        if m % 16 or n % 16 or k % 16:
            return None
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn).t()  # column-major
        one = torch.ones((), device="cuda", dtype=torch.float32)
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)

    plan = [(m, n, k, "bf16", label, make_bf16) for m, n, k, label in shapes()]
    if args.fp8 and torch.cuda.get_device_capability(0) >= (8, 9):
        try:
            make_fp8(64, 64, 64)()
            plan += [(m, n, k, "fp8", label, make_fp8) for m, n, k, label in shapes(True)]
        except (RuntimeError, AttributeError, TypeError) as e:
            common.log(f"fp8 skipped: torch._scaled_mm failed ({e})")
    skipped = 0
    for i, (m, n, k, dtype_name, label, make) in enumerate(plan):
        if budget.spent():
            skipped = len(plan) - i
            break
        try:
            measure(m, n, k, dtype_name, label, make)
        except torch.OutOfMemoryError:
            common.log(f"out of memory at {m}x{n}x{k} {dtype_name}: skipped")
        torch.cuda.empty_cache()
    common.log(f"{len(rows)} shapes timed" + (f", {skipped} left out (budget spent)" if skipped else ""))

    with open(args.csv, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["m", "n", "k", "dtype", "time_us", "tflops", "label"])
        w.writeheader()
        for r in rows:
            w.writerow({**r, "time_us": f"{r['time_us']:.3f}", "tflops": f"{r['tflops']:.2f}"})
    common.write_json(args.json, {
        "environment": env,
        "how": (f"tools/calibrate/matmul_sweep.py: torch.matmul (bf16) and torch._scaled_mm "
                f"(fp8 e4m3, bf16 out) on random inputs, median of CUDA-event timings with L2 "
                f"flushed between calls; torch {env['torch']}, CUDA {env['cuda']}"),
        "skipped_for_budget": skipped,
        "matmul": [{"m": r["m"], "n": r["n"], "k": r["k"], "dtype": r["dtype"],
                    "tflops": round(r["tflops"], 2)} for r in rows],
        "busy": busy.as_json(),
    })
    best = max((r for r in rows if r["dtype"] == "bf16"), key=lambda r: r["tflops"], default=None)
    if best:
        common.log(f"best bf16: {best['tflops']:.1f} TFLOP/s at {best['m']}x{best['n']}x{best['k']}")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--csv", default="matmul.csv", help="CSV output (default matmul.csv)")
    p.add_argument("--json", default="matmul.json", help="JSON fragment output (default matmul.json)")
    p.add_argument("--budget-s", type=float, default=150.0, help="wall-clock budget (default 150)")
    p.add_argument("--no-fp8", dest="fp8", action="store_false", help="skip the FP8 subset")
    p.add_argument("--list-shapes", action="store_true", help="print the planned shapes and exit")
    args = p.parse_args()
    if args.list_shapes:
        for m, n, k, label in shapes():
            print(f"{m}\t{n}\t{k}\t{label}")
        print(f"# {len(shapes())} bf16 shapes, {len(shapes(True))} fp8 shapes", file=sys.stderr)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
