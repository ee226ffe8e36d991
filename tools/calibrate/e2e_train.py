#!/usr/bin/env python3
"""End-to-end check: train small Llama-style models for a few steps on one GPU.

Each model is built from a config (RMSNorm, rotary embeddings, grouped-query attention
through scaled_dot_product_attention, SwiGLU MLP) with random weights; nothing is downloaded.
Every run trains on random tokens with AdamW under bf16 autocast (fp32 parameters, gradients
and optimizer states), with activation recompute off ("none") or on for every layer
("full", torch.utils.checkpoint). It records the median step time of the timed steps and the
peak of torch.cuda.max_memory_allocated over them.

Writes one measured-run record per run, in the case format of shared/validation/README.md
(a complete scenario v1, "measured" with step_s and peak_memory_gib), so that the runs can
be compared with Trainscape's estimate (tools/calibrate/compare_runs.py) and added to the
validation data. --print-scenarios writes the records without running anything (no torch).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

# Public model shapes, small enough for one GPU with fp32 Adam states.
MODELS = {
    # A GPT-2-small-sized Llama (as in many from-scratch Llama reproductions).
    "llama-160m": dict(layers=12, hidden=768, ffn_hidden=2048, heads=12, kv_heads=4,
                       head_dim=64, vocab=32000, tied_embeddings=False),
    # Llama 3.2 1B and 3B shapes (meta-llama/Llama-3.2-1B / -3B config.json; tied embeddings).
    "llama-1b": dict(layers=16, hidden=2048, ffn_hidden=8192, heads=32, kv_heads=8,
                     head_dim=64, vocab=128256, tied_embeddings=True),
    "llama-3b": dict(layers=28, hidden=3072, ffn_hidden=8192, heads=24, kv_heads=8,
                     head_dim=128, vocab=128256, tied_embeddings=True),
}

# (model, seq_len, micro_batch, recompute), most informative first: the budget may stop early.
RUNS = [
    ("llama-1b", 4096, 1, "none"),
    ("llama-1b", 4096, 2, "full"),
    ("llama-160m", 2048, 4, "none"),
    ("llama-3b", 4096, 1, "none"),
    ("llama-3b", 4096, 2, "full"),
    ("llama-1b", 8192, 1, "none"),
    ("llama-1b", 8192, 1, "full"),
    ("llama-160m", 8192, 1, "none"),
    ("llama-160m", 4096, 2, "full"),
    ("llama-1b", 2048, 4, "none"),
    ("llama-3b", 2048, 1, "none"),
    ("llama-3b", 8192, 1, "full"),
    ("llama-160m", 4096, 8, "none"),
]


def scenario(model_name: str, seq: int, mb: int, recompute: str, gpu_id: str | None,
             device_name: str) -> dict:
    cfg = MODELS[model_name]
    cluster = {"num_gpus": 1, "gpus_per_node": 1}
    preset = common.cluster_preset(gpu_id)
    if preset:
        cluster = {"preset": preset, "gpu": gpu_id, **cluster}
    elif gpu_id:
        cluster = {"gpu": gpu_id, **cluster}
    else:
        raise SystemExit(f"no catalog GPU id for {device_name!r}: give --gpu")
    return {
        "format": common.SCENARIO_FORMAT,
        "name": f"{model_name}, seq {seq}, micro-batch {mb}, recompute {recompute}, 1x {device_name}",
        "model": {"layers": cfg["layers"], "hidden": cfg["hidden"], "ffn_hidden": cfg["ffn_hidden"],
                  "heads": cfg["heads"], "kv_heads": cfg["kv_heads"], "head_dim": cfg["head_dim"],
                  "vocab": cfg["vocab"], "mlp": "swiglu",
                  "tied_embeddings": cfg["tied_embeddings"], "mla": None, "moe": None},
        "cluster": cluster,
        "training": {"seq_len": seq, "global_batch": mb, "micro_batch": mb, "precision": "bf16",
                     "optimizer": "adam"},
        "parallelism": {"tp": 1, "pp": 1, "cp": 1, "ep": 1, "etp": None, "dp": 1, "vpp": 1,
                        "pipeline_layers": None, "sequence_parallel": False, "zero": 0,
                        "recompute": recompute, "recompute_layers": None, "schedule": "1f1b",
                        "offload": {"optimizer": "none", "params": "none", "activations": "none"},
                        "overlap": {"tp": False, "dp": False, "pp": False}},
        "calibration": None,
    }


def record(run, gpu_id, device_name, measured=None, how="") -> dict:
    model_name, seq, mb, recompute = run
    slug = (device_name.replace("NVIDIA ", "").replace(" ", "-").lower() or "gpu")
    return {
        "id": f"calibrate_{slug}_{model_name}_s{seq}_mb{mb}_{recompute}",
        "source": f"tools/calibrate e2e_train.py ({device_name})",
        "tier": "exact",
        "assumed": [],
        "scenario": scenario(model_name, seq, mb, recompute, gpu_id, device_name),
        "measured": measured or {"step_s": None, "step_s_derivation": "not run",
                                 "peak_memory_gib": None, "tokens_per_s_per_gpu": None,
                                 "mfu": None},
        "notes": ("Measured by tools/calibrate/e2e_train.py on one GPU: random weights and "
                  "tokens, one micro-batch per optimizer step (global batch = micro-batch), "
                  "PyTorch eager, bf16 autocast with fp32 parameters, fp32 gradients and fused "
                  "AdamW (16 bytes of model state per parameter, against Megatron's 18 with a "
                  "separate bf16 copy), flash attention through scaled_dot_product_attention, "
                  "cross-entropy on fp32 logits, recompute 'full' = torch.utils.checkpoint around "
                  "every transformer layer. peak_memory_gib is torch.cuda.max_memory_allocated "
                  "(tensors only: no CUDA context, no allocator slack). " + how),
        "warnings": [],
    }


# ---------------------------------------------------------------------------- the model

def build_model(torch, cfg, seq, device="cuda"):
    from torch.utils import checkpoint as activation_checkpoint  # noqa: PLC0415

    nn = torch.nn
    F = torch.nn.functional

    class RMSNorm(nn.Module):
        def __init__(self, dim, eps=1e-5):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(dim))
            self.eps = eps

        def forward(self, x):
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).type_as(x) * self.weight

    hd, heads, kv = cfg["head_dim"], cfg["heads"], cfg["kv_heads"]
    inv = 1.0 / (500000.0 ** (torch.arange(0, hd, 2, device=device).float() / hd))
    angles = torch.outer(torch.arange(seq, device=device).float(), inv)
    cos, sin = angles.cos()[None, None], angles.sin()[None, None]

    def rope(x):  # x: [b, h, s, d], rotate pairs (first half, second half)
        x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
        c, s = cos.to(x.dtype), sin.to(x.dtype)
        return torch.cat((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1)

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.wqkv = nn.Linear(cfg["hidden"], (heads + 2 * kv) * hd, bias=False)
            self.wo = nn.Linear(heads * hd, cfg["hidden"], bias=False)

        def forward(self, x):
            b, s, _ = x.shape
            q, k, v = self.wqkv(x).split([heads * hd, kv * hd, kv * hd], dim=-1)
            q = rope(q.view(b, s, heads, hd).transpose(1, 2))
            k = rope(k.view(b, s, kv, hd).transpose(1, 2))
            v = v.view(b, s, kv, hd).transpose(1, 2)
            if kv != heads:
                k = k.repeat_interleave(heads // kv, dim=1)
                v = v.repeat_interleave(heads // kv, dim=1)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.wo(o.transpose(1, 2).reshape(b, s, heads * hd))

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.w13 = nn.Linear(cfg["hidden"], 2 * cfg["ffn_hidden"], bias=False)
            self.w2 = nn.Linear(cfg["ffn_hidden"], cfg["hidden"], bias=False)

        def forward(self, x):
            gate, up = self.w13(x).chunk(2, dim=-1)
            return self.w2(F.silu(gate) * up)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.attn = RMSNorm(cfg["hidden"]), Attention()
            self.norm2, self.mlp = RMSNorm(cfg["hidden"]), MLP()

        def forward(self, x):
            x = x + self.attn(self.norm1(x))
            return x + self.mlp(self.norm2(x))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
            self.blocks = nn.ModuleList(Block() for _ in range(cfg["layers"]))
            self.norm = RMSNorm(cfg["hidden"])
            self.head = nn.Linear(cfg["hidden"], cfg["vocab"], bias=False)
            if cfg["tied_embeddings"]:
                self.head.weight = self.embed.weight
            self.recompute = False

        def forward(self, tokens):
            x = self.embed(tokens)
            for block in self.blocks:
                if self.recompute:
                    x = activation_checkpoint.checkpoint(block, x, use_reentrant=False)
                else:
                    x = block(x)
            return self.head(self.norm(x))

    with torch.device(device):  # built on the GPU: no slow CPU initialisation of 3B weights
        model = Model()
    for p in model.parameters():  # small random weights: a stable loss for a few steps
        if p.dim() > 1:
            torch.nn.init.normal_(p, std=0.02)
    return model


def train(torch, run, warmup, steps, device="cuda"):
    model_name, seq, mb, recompute = run
    cfg = MODELS[model_name]
    F = torch.nn.functional
    model = build_model(torch, cfg, seq, device)
    model.recompute = recompute == "full"
    params = sum(p.numel() for p in model.parameters())
    try:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    except (RuntimeError, TypeError):
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    gen = torch.Generator(device=device).manual_seed(0)

    def step():
        tokens = torch.randint(0, cfg["vocab"], (mb, seq + 1), device=device, generator=gen)
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device, dtype=torch.bfloat16):
            logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.float().view(-1, cfg["vocab"]), tokens[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        return loss

    for _ in range(warmup):
        loss = step()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    times = []
    for _ in range(steps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        loss = step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    peak = torch.cuda.max_memory_allocated()
    reserved = torch.cuda.max_memory_reserved()
    final_loss = float(loss)
    del model, opt
    torch.cuda.empty_cache()
    return times, peak, reserved, params, final_loss


def run_all(args) -> int:
    torch = common.import_torch()
    env = common.environment(torch)
    gpu_id = args.gpu or common.catalog_gpu_id(env["device_name"])
    budget = common.Budget(args.budget_s)
    records = []
    torch.backends.cuda.matmul.allow_tf32 = True
    for run in RUNS:
        if budget.spent():
            common.log("budget spent: the remaining runs are left out")
            break
        common.log(f"run {run}")
        try:
            times, peak, reserved, params, loss = train(torch, run, args.warmup, args.steps)
        except torch.OutOfMemoryError:
            common.log(f"out of memory: {run} skipped")
            torch.cuda.empty_cache()
            continue
        step_s = statistics.median(times)
        _, seq, mb, _ = run
        if not math.isfinite(loss):
            common.log(f"loss is {loss}: run discarded")
            continue
        measured = {
            "step_s": round(step_s, 6),
            "step_s_derivation": (f"median of {len(times)} optimizer steps timed with CUDA "
                                  f"events after {args.warmup} warm-up steps; all times (s): "
                                  + ", ".join(f"{t:.4f}" for t in times)),
            "peak_memory_gib": round(peak / 2**30, 3),
            "tokens_per_s_per_gpu": round(mb * seq / step_s, 1),
            "mfu": None,
        }
        how = (f"{params / 1e6:.1f}M parameters; max_memory_reserved {reserved / 2**30:.2f} GiB; "
               f"final loss {loss:.3f}; torch {env['torch']}, CUDA {env['cuda']}, driver "
               f"{env.get('driver', '?')}, host {env['host']}, {env['date_utc']}.")
        records.append(record(run, gpu_id, env["device_name"], measured, how))
        common.log(f"  step {step_s * 1e3:.1f} ms, peak {peak / 2**30:.2f} GiB")
        common.write_json(args.json, records)  # after every run: a timeout keeps what ran
    common.write_json(args.json, records)
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", default="e2e-runs.json", help="output: the measured-run records")
    p.add_argument("--budget-s", type=float, default=170.0, help="wall-clock budget (default 170)")
    p.add_argument("--warmup", type=int, default=3, help="untimed steps first (default 3)")
    p.add_argument("--steps", type=int, default=6, help="timed steps (default 6)")
    p.add_argument("--gpu", help="catalog GPU id (default: from the device name)")
    p.add_argument("--print-scenarios", metavar="DEVICE_NAME",
                   help="write the records for DEVICE_NAME (e.g. 'NVIDIA H200') without running")
    args = p.parse_args()
    if args.print_scenarios:
        gpu_id = args.gpu or common.catalog_gpu_id(args.print_scenarios)
        common.write_json(args.json, [record(r, gpu_id, args.print_scenarios) for r in RUNS])
        return 0
    return run_all(args)


if __name__ == "__main__":
    sys.exit(main())
