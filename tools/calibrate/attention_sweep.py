#!/usr/bin/env python3
"""Attention sweep: torch.nn.functional.scaled_dot_product_attention (flash) on one GPU.

For sequence lengths 1k-32k, head dims 64 and 128, causal and not, it times the forward
and the forward + backward of BF16 attention with the FlashAttention backend (the default
backend is used, and named, where flash is unavailable). The batch x heads product is
chosen so that each call holds about 64k tokens x 32 heads, like a training micro-batch.

Throughput is counted as the FlashAttention papers count it (and Trainscape's
AttentionPoint): forward 4 b h s^2 d FLOPs, halved when causal; backward 2.5x the forward.
Writes the profile's "attention" list and the timed rows as JSON. Stops when --budget-s is spent.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

SEQ_LENS = [1024, 2048, 4096, 8192, 16384, 32768]
HEAD_DIMS = [128, 64]
HEADS = 32
TOKENS_PER_CALL = 65536


def plan():
    out = []
    for head_dim in HEAD_DIMS:
        for causal in (True, False):
            for seq in SEQ_LENS:
                batch = max(1, TOKENS_PER_CALL // seq)
                out.append((seq, head_dim, causal, batch))
    return out


def forward_flops(batch, heads, seq, head_dim, causal):
    return 4.0 * batch * heads * seq * seq * head_dim * (0.5 if causal else 1.0)


def run(args) -> int:
    torch = common.import_torch()
    import torch.nn.functional as F  # noqa: PLC0415

    budget = common.Budget(args.budget_s)
    env = common.environment(torch)
    backend_name = "default"
    context = None
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: PLC0415

        def context():
            return sdpa_kernel(SDPBackend.FLASH_ATTENTION)

        backend_name = "flash"
    except ImportError:
        pass
    common.log(f"attention sweep on {env['device_name']}, backend {backend_name}, "
               f"budget {args.budget_s:.0f} s")
    rows = []
    busy = common.BusySpan()  # first shape's timed calls to the last shape's
    for seq, head_dim, causal, batch in plan():
        if budget.spent():
            common.log("budget spent: the remaining shapes are left out")
            break
        q, k, v = (torch.randn(batch, HEADS, seq, head_dim, device="cuda", dtype=torch.bfloat16,
                               requires_grad=True) for _ in range(3))
        grad = torch.randn(batch, HEADS, seq, head_dim, device="cuda", dtype=torch.bfloat16)

        def forward():
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        def forward_backward():
            # autograd.grad rather than backward(): no accumulation into .grad to time.
            torch.autograd.grad(forward(), (q, k, v), grad)

        try:
            if context is not None:
                with context():
                    fwd = common.time_cuda(torch, forward, warmup=2, iters=10, busy=busy)
                    both = common.time_cuda(torch, forward_backward, warmup=2, iters=10,
                                            busy=busy)
            else:
                fwd = common.time_cuda(torch, forward, warmup=2, iters=10, busy=busy)
                both = common.time_cuda(torch, forward_backward, warmup=2, iters=10,
                                        busy=busy)
        except RuntimeError as e:  # no flash kernel for this shape
            common.log(f"seq {seq} d {head_dim} causal {causal}: skipped ({str(e)[:80]})")
            continue
        bwd = max(both - fwd, 1e-9)
        flops = forward_flops(batch, HEADS, seq, head_dim, causal)
        rows.append({"seq_len": seq, "head_dim": head_dim, "causal": causal, "batch": batch,
                     "heads": HEADS, "forward_us": fwd * 1e6, "backward_us": bwd * 1e6,
                     "forward_tflops": flops / fwd / 1e12,
                     "backward_tflops": 2.5 * flops / bwd / 1e12})
        del q, k, v, grad
        torch.cuda.empty_cache()
    common.log(f"{len(rows)} attention shapes timed")
    common.write_json(args.json, {
        "environment": env,
        "how": (f"tools/calibrate/attention_sweep.py: scaled_dot_product_attention, backend "
                f"{backend_name}, bf16, {HEADS} heads, ~{TOKENS_PER_CALL} tokens per call; "
                f"backward = (forward + backward) - forward; torch {env['torch']}"),
        "attention": [{"seq_len": r["seq_len"], "head_dim": r["head_dim"], "causal": r["causal"],
                       "forward_tflops": round(r["forward_tflops"], 2),
                       "backward_tflops": round(r["backward_tflops"], 2)} for r in rows],
        "rows": rows,  # with batch, heads and the times in microseconds
        "busy": busy.as_json(),
    })
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", default="attention.json")
    p.add_argument("--budget-s", type=float, default=90.0, help="wall-clock budget (default 90)")
    return run(p.parse_args())


if __name__ == "__main__":
    sys.exit(main())
