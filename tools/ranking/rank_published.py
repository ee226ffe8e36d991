#!/usr/bin/env python3
"""Does the model rank plans as experts do? (issue 12, item 7)

For every published run in tests/data/published-dev.json whose plan its authors tuned
(Megatron-Bridge and NeMo performance tables, Narayanan et al. 2021), search the same model,
cluster and batch with `trainscape-cli search --rank-current` and report where the published
plan ranks among the plans that fit (full estimates) and how much faster the predicted best is.
Offload is left out of the space (no published run offloads; offloaded plans are slower).
With --degrees, the features the authors' framework fixed are pinned to the published plan's
(sequence parallelism, ZeRO, recompute, overlap, hybrid sharding): the search then chooses
tp, pp, vpp, cp, ep, etp, micro-batch and schedule, the degrees the authors tuned.

Usage: tools/ranking/rank_published.py [BUILD_BIN_DIR] [--out results.json] [--threads N]
       [--degrees]
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TUNED = ("Megatron-Bridge", "NeMo", "Narayanan")


def feature_pins(p):
    """The published plan's features as --pin values (the scenario format's defaults)."""
    flag = lambda v: "true" if v else "false"
    o = p.get("overlap") or {}
    pins = [f"sequence_parallel={flag(p.get('sequence_parallel', False))}",
            f"zero={p.get('zero', 0)}",
            f"recompute={p.get('recompute', 'none')}",
            f"recompute_layers={p.get('recompute_layers') or 0}",
            f"overlap.tp={flag(o.get('tp', False))}", f"overlap.dp={flag(o.get('dp', False))}",
            f"overlap.pp={flag(o.get('pp', False))}", f"overlap.ep={flag(o.get('ep', False))}"]
    if p.get("dp_shard"):
        pins.append(f"dp_shard={p['dp_shard']}")
    else:
        pins.append("dp_shard=0")
    return ",".join(pins)


def main():
    args = sys.argv[1:]
    out_path = None
    threads = "0"
    if "--out" in args:
        i = args.index("--out")
        out_path = args[i + 1]
        del args[i:i + 2]
    if "--threads" in args:
        i = args.index("--threads")
        threads = args[i + 1]
        del args[i:i + 2]
    degrees = "--degrees" in args
    if degrees:
        args.remove("--degrees")
    bin_dir = args[0] if args else os.path.join(ROOT, "build", "bin")
    cli = os.path.join(bin_dir, "trainscape-cli")
    cases = json.load(open(os.path.join(ROOT, "tests", "data", "published-dev.json")))
    rows = []
    for case in cases:
        if not case["source"].startswith(TUNED):
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(case["scenario"], f)
            path = f.name
        cmd = [cli, "search", path, "--json", "--top", "1", "--rank-current", "--threads",
               threads, "--pin",
               "offload.optimizer=none,offload.params=none,offload.activations=none"]
        if degrees:
            cmd += ["--pin", feature_pins(case["scenario"].get("parallelism", {}))]
        run = subprocess.run(cmd, capture_output=True, text=True)
        os.unlink(path)
        if run.returncode != 0:
            rows.append({"id": case["id"], "error": run.stderr.strip()[-300:]})
            print(f"{case['id']}: error {run.stderr.strip()[-200:]}", flush=True)
            continue
        r = json.loads(run.stdout)
        cur = r.get("current_plan")
        row = {"id": case["id"], "source": case["source"], "plans": r["plans_in_space"],
               "fitting": r["plans_fitting"], "seconds": r["seconds"]}
        if cur and r["plans"]:
            best = r["plans"][0]["estimate"]["time"]["step_s"]
            row.update({"rank": cur["rank"], "uncertain": cur["uncertain_plans"],
                        "percentile": cur["rank"] / max(1, cur["of"]),
                        "published_step_s": cur["step_s"], "best_step_s": best,
                        "best_faster": 1 - best / cur["step_s"], "published_fits": cur["fits"]})
        rows.append(row)
        if "rank" in row:
            print(f"{row['id']}: rank {row['rank']} of {row['fitting']} "
                  f"(top {100 * row['percentile']:.2f}%), best {100 * row['best_faster']:.1f}% "
                  f"faster, {row['seconds']:.1f} s", flush=True)
        else:
            print(f"{row['id']}: no rank (published plan outside the space or nothing fits)",
                  flush=True)
    ranked = [r for r in rows if "rank" in r]
    top5 = [r for r in ranked if r["percentile"] <= 0.05]
    within10 = [r for r in ranked if r["best_faster"] <= 0.10]
    both = [r for r in ranked if r["percentile"] <= 0.05 and r["best_faster"] <= 0.10]
    print(f"\n{len(ranked)} ranked of {len(rows)} cases: top 5% {len(top5)}, within 10% of the "
          f"best {len(within10)}, both {len(both)}")
    if out_path:
        json.dump(rows, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main()
