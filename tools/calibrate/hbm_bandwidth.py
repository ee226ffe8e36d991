#!/usr/bin/env python3
"""Achieved HBM bandwidth and the GPU-side cost of one small kernel, on one GPU.

Bandwidth: a device-to-device copy of a buffer far larger than L2 (default 4 GiB), and an
elementwise y = a * x + y (torch.add with alpha) on the same buffers; bytes counted are those
read plus those written. The best of the two is the profile's "hbm.achieved_gb_s" (what
streaming kernels reach); both are recorded.

Kernel overhead: 200 tiny kernels captured in a CUDA graph and replayed, so that no CPU
launch gap is timed; the time per kernel is the profile's "kernel_overhead_us".
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def run(args) -> int:
    torch = common.import_torch()
    env = common.environment(torch)
    n = (args.gib << 30) // 2  # bf16 elements
    common.log(f"HBM bandwidth on {env['device_name']}: {args.gib} GiB buffers")
    x = torch.empty(n, dtype=torch.bfloat16, device="cuda").normal_()
    y = torch.empty_like(x).normal_()
    # The GPU-busy span of the memory-bound work (copy and axpy) for make_profile.py's power;
    # the kernel-overhead replay below is not memory-bound and is left out of it.
    busy = common.BusySpan()
    # At least 2 s each (up to 1000 calls), so that the 10 Hz power sampler sees the HBM busy.
    copy_s = common.time_cuda(torch, lambda: y.copy_(x), warmup=3, iters=20, min_seconds=2.0,
                              busy=busy)
    copy_gbs = 2 * x.numel() * 2 / copy_s / 1e9
    axpy_s = common.time_cuda(torch, lambda: y.add_(x, alpha=0.5), warmup=3, iters=20,
                              min_seconds=2.0, busy=busy)
    axpy_gbs = 3 * x.numel() * 2 / axpy_s / 1e9
    del x, y
    torch.cuda.empty_cache()
    common.log(f"copy {copy_gbs:.0f} GB/s, axpy {axpy_gbs:.0f} GB/s")

    # Kernel overhead: replay a graph of tiny kernels.
    small = torch.zeros(1024, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            small.add_(1.0)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    kernels = 200
    with torch.cuda.graph(graph):
        for _ in range(kernels):
            small.add_(1.0)
    replay_s = common.time_cuda(torch, graph.replay, warmup=3, iters=20)
    overhead_us = replay_s / kernels * 1e6
    common.log(f"{overhead_us:.2f} us per tiny kernel (CUDA graph replay)")

    common.write_json(args.json, {
        "environment": env,
        "how": (f"tools/calibrate/hbm_bandwidth.py: {args.gib} GiB bf16 copy_ and add_(alpha) "
                f"(read + write bytes), median of CUDA-event timings over at least 2 s each; kernel overhead from a "
                f"CUDA graph of {kernels} 1024-element add_ kernels; torch {env['torch']}"),
        "hbm": {"achieved_gb_s": round(max(copy_gbs, axpy_gbs), 1)},
        "copy_gb_s": round(copy_gbs, 1),
        "axpy_gb_s": round(axpy_gbs, 1),
        "kernel_overhead_us": round(overhead_us, 3),
        "busy": busy.as_json(),
    })
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", default="hbm.json")
    p.add_argument("--gib", type=int, default=4, help="size of each buffer in GiB (default 4)")
    args = p.parse_args()
    if args.gib < 1:
        p.error("--gib must be at least 1 (the buffers must be far larger than L2)")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
