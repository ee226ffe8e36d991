#!/usr/bin/env python3
"""Writes tests/data/sailor-mit-dev.json: the heterogeneous runs of Sailor's simulator validation
on the MIT cluster (Titan RTX, RTX 2080 and RTX 3090 nodes; eth-easl/sailor @ cf2c8e3c,
sailor/Planner/simulations/validation/mit/*/plan_config_*.json) as pools scenarios, in the form of
../shared/validation/sailor-dev.json, whose OPT-350M cases give the model, training and
execution assumptions (the same Megatron-DeepSpeed fork and flags; fp32; unfused attention).

Usage: make_mit_cases.py SAILOR_CHECKOUT SAILOR_DEV_JSON > tests/data/sailor-mit-dev.json
(SAILOR_CHECKOUT: a git directory of eth-easl/sailor, e.g. from the tool library's fetch)."""
import json
import subprocess
import sys

COMMIT = "cf2c8e3cc53ce178fe58a4003f46b4b6b848fc33"
repo, dev = sys.argv[1], sys.argv[2]


def show(path):
    return json.loads(subprocess.check_output(["git", "-C", repo, "show", COMMIT + ":" + path]))


# Datasheet figures (dense, no sparsity). RTX 3090: NVIDIA Ampere GA102 GPU Architecture
# whitepaper (2020), Table 9: 35.6 TFLOPS FP32, 71 TFLOPS FP16 tensor with FP16 accumulate (35.6
# with FP32 accumulate, the rate mixed-precision training uses), 936 GB/s, 24 GB, 350 W, 82 SMs.
# Titan RTX and RTX 2080 Ti: NVIDIA Turing GPU Architecture whitepaper (2018), Appendix A: Titan
# RTX 16.3 TFLOPS FP32, 130.5 TFLOPS FP16 tensor (FP32 accumulate at full rate), 672 GB/s, 24 GB,
# 280 W, 72 SMs; RTX 2080 Ti (FE) 14.2 TFLOPS FP32, 56.9 TFLOPS FP16 tensor with FP32
# accumulate, 616 GB/s, 11 GB, 260 W, 68 SMs. Sailor's "RTX-2080" has 11 GiB of memory
# (basic_cluster_config.json mem_per_gpu 11811160064), which is the 2080 Ti's: modelled as one.
GPUS = {
    "RTX-3090": {"id": "rtx3090", "gpu": {"name": "NVIDIA GeForce RTX 3090 (Sailor 'RTX-3090')",
                 "memory_gib": 24, "hbm_gb_s": 936, "bf16_tflops": 35.6, "fp8_tflops": 0,
                 "fp32_tflops": 35.6, "tdp_w": 350, "fp16_tflops": 35.6, "tf32_tflops": 35.6,
                 "sm_count": 82}},
    "RTX-2080": {"id": "rtx2080", "gpu": {"name": "NVIDIA GeForce RTX 2080 Ti, 11 GB (Sailor 'RTX-2080')",
                 "memory_gib": 11, "hbm_gb_s": 616, "bf16_tflops": 0, "fp8_tflops": 0,
                 "fp32_tflops": 14.2, "tdp_w": 260, "fp16_tflops": 56.9, "sm_count": 68}},
    "Titan-RTX": {"id": "titanrtx", "gpu": {"name": "NVIDIA Titan RTX (Sailor 'Titan-RTX')",
                  "memory_gib": 24, "hbm_gb_s": 672, "bf16_tflops": 0, "fp8_tflops": 0,
                  "fp32_tflops": 16.3, "tdp_w": 280, "fp16_tflops": 130.5, "sm_count": 72}},
}

intra = show("sailor/providers/intra_node_bandwidths.json")
multi = show("sailor/providers/multizone_bandwidths_het.json")["us-central1-a"]


def scale_up(gpu, used):
    # Sailor's measured send/recv maximum for `used` GPUs of a node, over its used/2 concurrent
    # pairs (the method of sailor-dev.json), GB/s per GPU.
    if used < 2:
        return {"domain_gpus": 8, "bandwidth_gb_s": round(intra[gpu]["2"][1] / 1e9, 3)}
    return {"domain_gpus": 8, "bandwidth_gb_s": round(intra[gpu][str(used)][1] / 1e9 / (used / 2), 3)}


def nic_gbit(gpu):
    # The node's link to the other nodes of its own kind (one link per node: the same for 1 to 8
    # pairs); the RTX 3090 node reaches every node at ~0.116 GB/s.
    return round(multi[gpu]["1"]["us-central1-a"][gpu]["1"][1] / 1e9 * 8, 3)


base = [c for c in json.load(open(dev)) if "opt350m" in c["id"]][0]
cases = []
for n in ["N2/plan_config_N2_D1", "N2/plan_config_N2_D2", "N3/plan_config_N3_D1",
          "N4/plan_config_N4_D1", "N4/plan_config_N4_D2", "N4/plan_config_N4_D4",
          "N6/plan_config_N6_D2", "N6/plan_config_N6_D3", "N6/plan_config_N6_D6"]:
    path = "sailor/Planner/simulations/validation/mit/%s.json" % n
    plan = show(path)
    (pipe,) = plan["pipeline_list"]
    stages = pipe["num_stages"]
    replicas = pipe["dp"][0]
    assert all(d == replicas for d in pipe["dp"])
    # Replica r of stage s: tmp_per_stage[s][r] = [[[gpu, gpus, zone]], tp].
    entries = {}
    used = {}
    per_node = {}
    for r in range(replicas):
        key = []
        for s in range(stages):
            (gpu, count, _), tp = pipe["tmp_per_stage"][s][r][0][0], pipe["tmp_per_stage"][s][r][1]
            assert count == tp
            key.append((gpu, tp))
            used[gpu] = used.get(gpu, 0) + tp
            per_node[gpu] = max(per_node.get(gpu, 0), tp)
        entries[tuple(key)] = entries.get(tuple(key), 0) + 1
    pools = []
    for gpu in sorted(used, key=list(GPUS).index):
        pools.append({"id": GPUS[gpu]["id"], "gpu": GPUS[gpu]["gpu"], "num_gpus": used[gpu],
                      "gpus_per_node": 8, "scale_up": scale_up(gpu, per_node[gpu]),
                      "nic_gbit_s": nic_gbit(gpu), "nics_per_node": 1, "site": None})
    # Sailor's layer indices count the embedding (first) and the head (last) as layers.
    layers = [len(l) for l in pipe["layers_per_stage"]]
    layers[0] -= 1
    layers[-1] -= 1
    s = json.loads(json.dumps(base["scenario"]))
    s["name"] = "OPT-350M on the MIT cluster (%s), Sailor validation %s" % (
        " + ".join("%d x %s" % (used[g], g) for g in used), n.split("/")[1])
    s["cluster"] = {"num_gpus": sum(used.values()), "pools": pools, "pool_link_gbit_s": None}
    s["training"]["global_batch"] = plan["gbs"]
    s["training"]["micro_batch"] = plan["mbs"]
    par = s["parallelism"]
    for k in ("tp", "pp", "dp"):
        par.pop(k, None)
    par["pipelines"] = [{"count": c, "stages": [{"pool": GPUS[g]["id"], "tp": tp} for g, tp in key]}
                        for key, c in entries.items()]
    par["pipeline_layers"] = layers
    gpus = sum(used.values())
    case = {
        "id": "sailor_mit_opt350m_" + n.split("/")[1].replace("plan_config_", ""),
        "source": "Sailor (SOSP'25) simulator validation, MIT cluster of Titan RTX, RTX 2080 and "
                  "RTX 3090 nodes (eth-easl/sailor cf2c8e3c)",
        "tier": "assumed",
        "assumed": base["assumed"] + ["/cluster/pools/*/gpu (datasheets: tools/sailor/make_mit_cases.py)",
                                      "/model (OPT-350M: 26 Sailor layers, as the Clariden OPT-350M runs)"],
        "scenario": s,
        "measured": {
            "step_s": plan["real"],
            "step_s_derivation": "'real' as stored in %s @ %s (seconds)" % (path, COMMIT[:8]),
            "peak_memory_gib": round(plan["max_mem"] / 2 ** 30, 4),
            "memory_metric": "nvidia-smi",
            "peak_memory_as_published": "max_mem %d bytes" % plan["max_mem"],
            "tokens_per_s_per_gpu": round(plan["gbs"] * s["training"]["seq_len"] / (plan["real"] * gpus), 2),
            "mfu": None,
        },
        "notes": "Generated by tools/sailor/make_mit_cases.py from %s @ %s: pipeline_list (stages, "
                 "layers_per_stage, tmp_per_stage as [[[gpu, gpus, zone]], tp] per data-parallel "
                 "replica, dp), mbs, gbs, real, max_mem. Model, precision, optimizer, execution and "
                 "the plan's other keys as in sailor-dev.json's OPT-350M runs (same framework and "
                 "flags; the plan files do not name the model: 26 Sailor layers = embedding, 24 "
                 "transformer layers, head, as OPT-350M's Clariden plans). Networks: Sailor's "
                 "measured maxima (sailor/providers/intra_node_bandwidths.json over the used/2 "
                 "pairs; multizone_bandwidths_het.json per node, one link)." % (path, COMMIT[:8]),
        "warnings": ["The 'RTX-2080' nodes have 11 GiB per GPU in Sailor's cluster config: modelled as "
                     "RTX 2080 Ti; if they were 8 GB RTX 2080s, memory would not fit as measured."],
    }
    if n.endswith("N6_D2"):
        case["warnings"].append("real and max_mem equal N3_D1's to every digit (59.45533 s, "
                                "6305087488 B) in the repository: possibly a copied file.")
    cases.append(case)
print(json.dumps(cases, indent=1))
