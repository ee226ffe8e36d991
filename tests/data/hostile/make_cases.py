#!/usr/bin/env python3
"""Writes cases.json, the hostile-input suite of tst_hostile_inputs (issue 19).

Each case: the files to create ("patch": a scenario as an RFC 7386 merge patch over BASE;
"text": literal; "hex": bytes in hex; "pieces": [[text, times], ...] concatenated; "keys": N, a scenario object with
N unknown keys; "copy": a file of the source tree, with an optional "replace": [from, to]), the trainscape-cli command, and the expected exit code and a
fragment of its message (a JSON path or file:line). Regenerate with
  python3 tests/data/hostile/make_cases.py > tests/data/hostile/cases.json
"""
import json

BASE = {"format": "trainscape.scenario/1",
        "model": {"preset": "llama3-8b"},
        "cluster": {"preset": "dgx-h100", "num_gpus": 8},
        "training": {"seq_len": 8192, "global_batch": 128},
        "parallelism": {"tp": 8}}
cases = []


def case(name, category, files, args, exit, message):
    cases.append({"name": name, "category": category, "files": files, "args": args,
                  "exit": exit, "message": message})


def scenario(name, category, patch, exit, message, command="estimate", extra=None):
    files = {"s.json": {"patch": patch}}
    files.update(extra or {})
    case(name, category, files, [command, "s.json"], exit, message)


def text(name, category, content, exit, message, command="validate"):
    spec = content if isinstance(content, dict) else {"text": content}
    case(name, category, {"s.json": spec}, [command, "s.json"], exit, message)


def graph(radix=4, gpus=4, link_gb_s=50, unreachable=False):
    nodes = [{"id": "g%d" % i, "kind": "gpu"} for i in range(gpus)]
    nodes += [{"id": "n%d" % i, "kind": "nic", "gpus": ["g%d" % i]} for i in range(gpus)]
    nodes += [{"id": "leaf0", "kind": "switch", "radix": radix}]
    links = [{"from": "g%d" % i, "to": "n%d" % i, "class": "scale-up", "gb_s": 450}
             for i in range(gpus)]
    links += [{"from": "n%d" % i, "to": "leaf0", "class": "scale-out", "gb_s": link_gb_s}
              for i in range(gpus - (1 if unreachable else 0))]
    return {"nodes": nodes, "links": links}


GRAPH_CLUSTER = {"preset": None, "gpu": "h100-sxm-80gb", "num_gpus": 4, "gpus_per_node": 1,
                 "scale_up": {"domain_gpus": 1, "bandwidth_gb_s": 450},
                 "scale_out": {"topology": "graph", "nic_gbit_s": 400, "nics_per_node": 1}}

# --- crashes found (issue 19) -------------------------------------------------------------
case("gemm tflops column, no time_us, empty cell", "crash",
     {"g.csv": {"text": "m,n,k,dtype,tflops\n1024,1024,1024,bf16,\n"}},
     ["calibrate", "import-gemm", "g.csv"], 2, "g.csv:2")
for sched in ["gpipe", "breadth-first"]:
    scenario("%s with 2^32 micro-batches" % sched, "crash",
             {"training": {"global_batch": 2 ** 32},
              "parallelism": {"tp": 1, "pp": 8, "schedule": sched}},
             2, "/training/global_batch")

# --- unbounded time and memory ------------------------------------------------------------
for sched, pp, vpp in [("1f1b", 8192, 1), ("zero-bubble", 8192, 1), ("zero-bubble", 1024, 2),
                       ("interleaved", 4096, 2), ("gpipe", 8192, 1)]:
    scenario("%s at pp %d" % (sched, pp), "unbounded",
             {"model": {"preset": None, "layers": pp * vpp, "hidden": 1024, "ffn_hidden": 4096,
                        "heads": 8, "vocab": 32000, "mlp": "swiglu"},
              "cluster": {"num_gpus": pp}, "training": {"global_batch": 8192},
              "parallelism": {"tp": 1, "pp": pp, "vpp": vpp, "schedule": sched}},
             2, "/parallelism/pp")
scenario("pp 128 x vpp 16 chunks", "unbounded",
         {"model": {"preset": None, "layers": 2048, "hidden": 1024, "ffn_hidden": 4096,
                    "heads": 8, "vocab": 32000, "mlp": "swiglu"},
          "cluster": {"num_gpus": 128}, "training": {"global_batch": 1280},
          "parallelism": {"tp": 1, "pp": 128, "vpp": 16, "schedule": "interleaved"}},
         2, "/parallelism/vpp")
scenario("gpipe 2^24 micro-batches", "unbounded",
         {"training": {"global_batch": 2 ** 24}, "parallelism": {"tp": 1, "pp": 8,
                                                                 "schedule": "gpipe"}},
         2, "at most 10000000")
for sched in ["gpipe", "breadth-first", "1f1b", "zero-bubble"]:
    scenario("%s with 10^7 micro-batches (bounded)" % sched, "bounded",
             {"training": {"global_batch": 10 ** 7 // 8 * 8},
              "parallelism": {"tp": 1, "pp": 8, "schedule": sched}},
             0, "step:")
scenario("1f1b at pp 128 (bounded)", "bounded",
         {"model": {"preset": None, "layers": 128, "hidden": 1024, "ffn_hidden": 4096,
                    "heads": 8, "vocab": 32000, "mlp": "swiglu"},
          "cluster": {"num_gpus": 128}, "training": {"global_batch": 5119},
          "parallelism": {"tp": 1, "pp": 128}}, 0, "step:")
scenario("ZB-V at pp 128 (bounded)", "bounded",
         {"model": {"preset": None, "layers": 256, "hidden": 1024, "ffn_hidden": 4096,
                    "heads": 8, "vocab": 32000, "mlp": "swiglu"},
          "cluster": {"num_gpus": 128}, "training": {"global_batch": 5119},
          "parallelism": {"tp": 1, "pp": 128, "vpp": 2, "schedule": "zero-bubble"}},
         0, "step:")
case("100k unknown keys", "unbounded", {"s.json": {"keys": 100000}}, ["validate", "s.json"], 2,
     "more unknown keys")
case("300k unknown keys", "unbounded", {"s.json": {"keys": 300000}}, ["validate", "s.json"], 2,
     "more unknown keys")
case("15 MB unknown key", "unbounded",
     {"s.json": {"pieces": [['{"format": "trainscape.scenario/1", "', 1], ["x", 15_000_000],
                            ['": 1}', 1]]}}, ["validate", "s.json"], 2, "(15000000 bytes)")
text("long unknown key in model", "unbounded",
     json.dumps(dict(BASE, model={"preset": "llama3-8b", "y" * 5000: 1})), 2,
     "(5000 bytes)")
case("17 MB file", "unbounded", {"s.json": {"pieces": [[" ", 17 << 20], ["{}", 1]]}},
     ["validate", "s.json"], 2, "bytes")
text("nesting 100 deep", "unbounded", "[" * 100 + "]" * 100, 2, "nested deeper than 64")

# --- silent wrong acceptance --------------------------------------------------------------
for path, patch in [
        ("/cluster/scale_up/bandwidth_gb_s", {"cluster": {"scale_up": {"bandwidth_gb_s": 1e-300}}}),
        ("/cluster/scale_out/nic_gbit_s", {"cluster": {"scale_out": {"nic_gbit_s": 1e-300}}}),
        ("/cluster/scale_out/wan_gbit_s", {"cluster": {"scale_out": {"wan_gbit_s": 1e-300}}}),
        ("/cluster/host/pcie_gb_s", {"cluster": {"host": {"pcie_gb_s": 1e-300}}}),
        ("/cluster/host/memory_gb_s", {"cluster": {"host": {"memory_gb_s": 1e-300}}}),
        ("/cluster/host/nvme_read_gb_s", {"cluster": {"host": {"nvme_read_gb_s": 1e-300}}}),
        ("/cluster/scale_up/bandwidth_gb_s", {"cluster": {"scale_up": {"bandwidth_gb_s": 1e300}}}),
        ("/cluster/scale_up/bandwidth_gb_s", {"cluster": {"scale_up": {"bandwidth_gb_s": 0.001}}}),
]:
    scenario("bandwidth %s %s" % (path, json.dumps(patch)[-12:-3]), "silent", patch, 2, path)
gpu = {"name": "Hostile GPU", "memory_gib": 80, "hbm_gb_s": 3350, "bf16_tflops": 989,
       "fp8_tflops": 1979, "fp32_tflops": 67, "tdp_w": 700}
for key, value in [("hbm_gb_s", 1e-300), ("bf16_tflops", 1e-300), ("memory_gib", 1e-300),
                   ("bf16_tflops", 1e300), ("tdp_w", 1e300), ("hbm_gb_s", -1)]:
    scenario("gpu %s = %g" % (key, value), "silent",
             {"cluster": {"preset": None, "gpu": dict(gpu, **{key: value}), "gpus_per_node": 8,
                          "scale_up": {"domain_gpus": 8, "bandwidth_gb_s": 450},
                          "scale_out": {"nic_gbit_s": 400}}}, 2, "/cluster/gpu/" + key)
MOE = {"preset": "mixtral-8x7b"}
for value in [1e-300, 0, -1, 1e300]:
    scenario("capacity_factor %g" % value, "silent",
             {"model": dict(MOE, moe={"experts": 8, "top_k": 2, "expert_ffn_hidden": 14336,
                                      "capacity_factor": value})},
             2, "/model/moe/capacity_factor")
hours = "hour,gco2_kwh,usd_kwh\n" + "".join("T%d,%s,0.1\n" % (h, "1e308" if h == 5 else "300")
                                           for h in range(24))
scenario("carbon CSV 1e308 gCO2", "silent",
         {"training": {"tokens": 1e9}, "costs": {"carbon_csv": "grid.csv"}}, 2,
         "/costs/carbon_csv", extra={"grid.csv": {"text": hours}})
scenario("carbon CSV 1e308 USD", "silent",
         {"training": {"tokens": 1e9}, "costs": {"carbon_csv": "grid.csv"}}, 2,
         "line 3: usd_kwh", extra={"grid.csv": {"text": "hour,gco2_kwh,usd_kwh\nT0,300,0.1\nT1,300,1e308\n"}})
scenario("carbon CSV negative", "silent", {"costs": {"carbon_csv": "grid.csv"}}, 2,
         "line 2: gco2_kwh", extra={"grid.csv": {"text": "hour,gco2_kwh\nT0,-5\n"}})
scenario("carbon CSV NaN", "silent", {"costs": {"carbon_csv": "grid.csv"}}, 2,
         "line 2: gco2_kwh", extra={"grid.csv": {"text": "hour,gco2_kwh\nT0,nan\n"}})
scenario("grid_gco2_kwh 1e308", "silent", {"costs": {"grid_gco2_kwh": 1e308}}, 2,
         "/costs/grid_gco2_kwh")
case("calibration-dir reuses a built-in id", "silent",
     {"profiles/copy.json": {"copy": "resources/calibration/h100-sxm-dgx-published.json"}},
     ["--calibration-dir", "profiles", "calibrate", "list"], 2, "already taken")
case("calibration-dir: two files, one id", "silent",
     {"profiles/a.json": {"copy": "resources/calibration/h100-sxm-dgx-published.json",
                          "replace": ["h100-sxm-dgx-published", "lab-h100"]},
      "profiles/b.json": {"copy": "resources/calibration/h100-sxm-dgx-published.json",
                          "replace": ["h100-sxm-dgx-published", "lab-h100"]}},
     ["--calibration-dir", "profiles", "calibrate", "list"], 2, "already taken")
for where, doc, path in [
        ("top level", '{"format": "trainscape.scenario/1", "format": "trainscape.scenario/1"}',
         "/format"),
        ("parallelism", json.dumps(BASE)[:-1].replace('"parallelism": {"tp": 8}',
                                                      '"parallelism": {"tp": 8, "tp": 4}') + "}",
         "/parallelism/tp"),
        ("model", json.dumps(BASE).replace('"preset": "llama3-8b"',
                                           '"preset": "llama3-8b", "preset": "llama3-70b"'),
         "/model/preset"),
        ("array element", '{"format": "trainscape.scenario/1", "x": [{"a": 1, "a": 2}]}',
         "/x/0/a"),
        ("escaped key", '{"format": "trainscape.scenario/1", "a/b": 1, "a/b": 2}', "/a~1b"),
]:
    text("duplicate key in %s" % where, "silent", doc, 2, path)
case("duplicate key in a catalog file", "silent",
     {"cat.json": {"text": '{"format": "trainscape.catalog/1", "gpus": [], "gpus": []}'}},
     ["--catalog", "cat.json", "catalog", "list", "gpus"], 2, "/gpus")
case("duplicate key in a calibration profile", "silent",
     {"profiles/p.json": {"text": '{"format": "trainscape.calibration/1", "id": "a", "id": "b"}'}},
     ["--calibration-dir", "profiles", "calibrate", "list"], 2, "/id")
for command in ["validate", "estimate", "network"]:
    scenario("graph switch over its radix (%s)" % command, "silent",
             {"cluster": dict(GRAPH_CLUSTER, graph=graph(radix=2)),
              "training": {"global_batch": 8}, "parallelism": {"tp": 1}},
             2, "radix", command=command)
    scenario("graph GPU unreachable (%s)" % command, "silent",
             {"cluster": dict(GRAPH_CLUSTER, graph=graph(unreachable=True)),
              "training": {"global_batch": 8}, "parallelism": {"tp": 1}},
             2, "cannot reach", command=command)
scenario("graph link 1e-300 GB/s", "silent",
         {"cluster": dict(GRAPH_CLUSTER, graph=graph(link_gb_s=1e-300)),
          "training": {"global_batch": 8}, "parallelism": {"tp": 1}},
         2, "/cluster/graph/links/4/gb_s", command="validate")
scenario("valid graph (accepted)", "bounded",
         {"cluster": dict(GRAPH_CLUSTER, graph=graph()), "training": {"global_batch": 8},
          "parallelism": {"tp": 1}}, 0, "step:")
GEMM = "m,n,k,dtype,time_us,tflops\n"
for name, body, line, fragment in [
        ("absurd tflops", GEMM + "1024,1024,1024,bf16,,1e300\n", 2, "tflops"),
        ("absurd time", GEMM + "1024,1024,1024,bf16,1e-30,\n", 2, "time_us"),
        ("implied tflops", GEMM + "16384,16384,16384,bf16,0.001,\n", 2, "TFLOP/s"),
        ("duplicate column", "m,n,k,dtype,time_us,m\n1,1,1,bf16,1,1\n", 1, "twice"),
        ("duplicate time column", "m,n,k,dtype,time_us,TIME_US\n1,1,1,bf16,1,1\n", 1, "twice"),
        ("extra cells", GEMM + "1024,1024,1024,bf16,10,,7\n", 2, "extra cells"),
        ("zero m", GEMM + "0,1024,1024,bf16,10,\n", 2, "'m'"),
        ("fractional n", GEMM + "1024,1.5,1024,bf16,10,\n", 2, "'n'"),
        ("huge k", GEMM + "1024,1024,1e12,bf16,10,\n", 2, "'k'"),
        ("nan time", GEMM + "1024,1024,1024,bf16,nan,\n", 2, "time_us"),
        ("inf tflops", GEMM + "1024,1024,1024,bf16,,inf\n", 2, "tflops"),
        ("long cell", [[GEMM + "1024,1024,1024,bf16,", 1], ["9", 100000], [",\n", 1]], 2,
         "(100000 bytes)"),
        ("unknown dtype", GEMM + "1024,1024,1024,int3,10,\n", 2, "int3"),
        ("empty", "", 1, "empty CSV"),
        ("header only", GEMM, 1, "no rows"),
        ("binary", "\x00\x01\x02\xff\xfe", 1, "lacks the column"),
]:
    spec = {"pieces": body} if isinstance(body, list) else {"text": body}
    case("gemm csv: " + name, "silent", {"g.csv": spec},
         ["calibrate", "import-gemm", "g.csv"], 2, "g.csv:%d" % line if line > 1 else fragment)
    if line > 1:
        cases[-1]["message2"] = fragment

# A rate above the GPU's dense peak (989.4 TFLOP/s of BF16 on an H100 SXM) is refused, naming
# its line (issue 37: 5,000 TFLOP/s was accepted as efficiency 5.05).
case("gemm csv: above the GPU's peak", "silent",
     {"g.csv": {"text": "m,n,k,dtype,tflops\n1024,1024,1024,bf16,600\n8192,8192,8192,bf16,5000\n"}},
     ["calibrate", "import-gemm", "g.csv", "--gpu", "h100-sxm-80gb"], 2, "g.csv:3")
cases[-1]["message2"] = "dense peak"

# --- scenario syntax and encoding ---------------------------------------------------------
for name, content, fragment in [
        ("empty file", "", "empty"), ("whitespace", "  \n\t ", "empty"),
        ("not JSON", "hello", "not valid JSON at line 1"),
        ("truncated", '{"format": "trainscape.scenario/1", "model": {', "not valid JSON"),
        ("trailing garbage", json.dumps(BASE) + " x", "not valid JSON"),
        ("top-level array", "[1, 2]", "expected an object"),
        ("top-level string", '"x"', "expected an object"),
        ("invalid UTF-8", {"hex": "7b22666f726d6174223a2022ff227d"}, "not valid UTF-8"),
        ("NaN literal", '{"format": "trainscape.scenario/1", "x": NaN}', "not valid JSON"),
        ("comment", '// hi\n{"format": "trainscape.scenario/1"}', "not valid JSON at line 1"),
        ("wrong format", '{"format": "trainscape.scenario/2"}', "/format"),
        ("no format", '{"model": {}}', "/format"),
        ("format number", '{"format": 1}', "/format"),
        ("1e999", json.dumps(BASE).replace('"tp": 8', '"tp": 1e999'), "number overflow"),
        ("control char", '{"format": "trainscape.scenario/1\x01"}', "not valid JSON"),
]:
    text("text: " + name, "syntax", content, 2, fragment)

# --- scenario ranges and consistency (every refusal names its path) ------------------------
for path, patch in [
        ("/cluster/num_gpus", {"cluster": {"num_gpus": 0}}),
        ("/cluster/num_gpus", {"cluster": {"num_gpus": -8}}),
        ("/cluster/num_gpus", {"cluster": {"num_gpus": 2000000}}),
        ("/cluster/num_gpus", {"cluster": {"num_gpus": 8.5}}),
        ("/cluster/num_gpus", {"cluster": {"num_gpus": "8"}}),
        ("/cluster/num_gpus", {"cluster": {"num_gpus": None}}),
        ("/cluster/gpu", {"cluster": {"gpu": "h900"}}),
        ("/cluster/preset", {"cluster": {"preset": "dgx-z100"}}),
        ("/model/preset", {"model": {"preset": "llama9"}}),
        ("/model/layers", {"model": {"layers": 0}}),
        ("/model/layers", {"model": {"layers": 100000}}),
        ("/model/hidden", {"model": {"hidden": 1e300}}),
        ("/model/heads", {"model": {"heads": -1}}),
        ("/model/vocab", {"model": {"vocab": 0}}),
        ("/model/mlp", {"model": {"mlp": "relu"}}),
        ("/training/seq_len", {"training": {"seq_len": 0}}),
        ("/training/seq_len", {"training": {"seq_len": 2 ** 40}}),
        ("/training/global_batch", {"training": {"global_batch": 0}}),
        ("/training/global_batch", {"training": {"global_batch": 2 ** 40}}),
        ("/training/global_batch", {"training": {"global_batch": 127}, "parallelism": {"tp": 4}}),
        ("/training/micro_batch", {"training": {"micro_batch": 0}}),
        ("/training/precision", {"training": {"precision": "fp7"}}),
        ("/training/tokens", {"training": {"tokens": 1e300}}),
        ("/training/tokens", {"training": {"tokens": -1}}),
        ("/parallelism/tp", {"parallelism": {"tp": 0}}),
        ("/parallelism/tp", {"parallelism": {"tp": 3}}),
        ("/parallelism", {"parallelism": {"tp": 16}}),
        ("/parallelism/pp", {"parallelism": {"pp": 129}}),
        ("/parallelism/vpp", {"parallelism": {"vpp": 2000}}),
        ("/parallelism/vpp", {"parallelism": {"vpp": 2}}),
        ("/parallelism/dp", {"parallelism": {"dp": 3}}),
        ("/parallelism/zero", {"parallelism": {"zero": 4}}),
        ("/parallelism/schedule", {"parallelism": {"schedule": "2f2b"}}),
        ("/parallelism/recompute", {"parallelism": {"recompute": "some"}}),
        ("/parallelism/overlap/tp", {"parallelism": {"overlap": {"tp": "yes"}}}),
        ("/parallelism/speed", {"parallelism": {"speed": 1}}),
        ("/costs/pue", {"costs": {"pue": 0.5}}),
        ("/costs/gpu_hour_usd", {"costs": {"gpu_hour_usd": -1}}),
        ("/costs/gpu_hour_usd", {"costs": {"gpu_hour_usd": 1e300}}),
        ("/costs/carbon_csv", {"costs": {"carbon_csv": "missing.csv"}}),
        ("/calibration", {"calibration": "nope"}),
        ("/calibration", {"calibration": 7}),
        ("/cluster/scale_out/oversubscription", {"cluster": {"scale_out": {"oversubscription": 0.5}}}),
        ("/cluster/scale_out/switch_radix", {"cluster": {"scale_out": {"switch_radix": 1}}}),
        ("/cluster/scale_out/tiers", {"cluster": {"scale_out": {"tiers": 99}}}),
        ("/cluster/scale_up/latency_us", {"cluster": {"scale_up": {"latency_us": -1}}}),
        ("/cluster/scale_up/latency_us", {"cluster": {"scale_up": {"latency_us": 1e300}}}),
        ("/cluster/gpus_per_node", {"cluster": {"gpus_per_node": 100000}}),
]:
    scenario("range %s = %s" % (path, json.dumps(patch)[-20:]), "limit", patch, 2, path,
             command="validate")
scenario("carbon CSV is a folder", "limit", {"costs": {"carbon_csv": "."}}, 2, "/costs/carbon_csv",
         command="validate")
scenario("carbon CSV bad header", "limit", {"costs": {"carbon_csv": "g.csv"}}, 2,
         "gco2_kwh", command="validate", extra={"g.csv": {"text": "hour,co2\nT0,1\n"}})
scenario("carbon CSV short row", "limit", {"costs": {"carbon_csv": "g.csv"}}, 2,
         "line 3", command="validate", extra={"g.csv": {"text": "hour,gco2_kwh\nT0,1\nT1\n"}})
scenario("carbon CSV empty", "limit", {"costs": {"carbon_csv": "g.csv"}}, 2,
         "/costs/carbon_csv", command="validate", extra={"g.csv": {"text": ""}})

# Issue 37: control characters of a name are printed escaped (an ESC sequence would recolour or
# clear the user's terminal).
scenario("name with terminal escapes", "silent", {"name": "a\x1b[31mRED\x07"}, 0,
         "a\\x1b[31mRED\\x07", command="validate")
cases[-1]["absent"] = "\x1b"

# --- nccl-tests logs ----------------------------------------------------------------------
NCCL = "tests/fixtures/nccl/all_reduce_perf_2node_h100.txt"
# A one-node table whose times fall as the size grows: nothing to fit a bandwidth on.
NCCL_FLAT = """# Collective test starting: all_reduce_perf
# nThread 1 nGpus 1 minBytes 1048576 maxBytes 4194304 step: 2(factor) warmup iters: 5 iters: 20
#  Rank  0 Group  0 Pid  1 on node-a device  0 [0000:18:00] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  2 on node-a device  1 [0000:2a:00] NVIDIA H100 80GB HBM3
#
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
     1048576        262144     float     sum      -1    90.00   11.65   11.65       0    90.00   11.65   11.65       0
     2097152        524288     float     sum      -1    60.00   34.95   34.95       0    60.00   34.95   34.95       0
     4194304       1048576     float     sum      -1    30.00  139.81  139.81       0    30.00  139.81  139.81       0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 62.14
"""
case("nccl log: the fixture (accepted)", "bounded", {"n.txt": {"copy": NCCL}},
     ["calibrate", "import-nccl", "n.txt"], 0, "all_reduce")
for name, edit, fragment in [
        ("busbw 1e300", ["    0.00    0.00       0    45.41", "    0.00    1e300       0    45.41"], "busbw"),
        ("negative time", ["    45.00    0.00", "   -45.00    0.00"], "time"),
        ("time 1e300", ["    45.00    0.00", "    1e300    0.00"], "time"),
        ("size 1e30", ["           8             2", "        1e30             2"], "size"),
        ("wrong results", ["sum      -1    45.00    0.00    0.00       0", "sum      -1    45.00    0.00    0.00       3"], "wrong"),
]:
    case("nccl log: " + name, "silent", {"n.txt": {"copy": NCCL, "replace": edit}},
         ["calibrate", "import-nccl", "n.txt"], 2, fragment)
# Issue 37: a rank past any world size is refused (it was read with atoi), and a table the fit
# refuses is named by its lines.
case("nccl log: rank 2^40", "silent",
     {"n.txt": {"copy": NCCL, "replace": ["#  Rank 15 Group", "#  Rank 1099511627776 Group"]}},
     ["calibrate", "import-nccl", "n.txt"], 2, "n.txt:21")
cases[-1]["message2"] = "expected 0 to"
case("nccl log: times that do not grow", "silent",
     {"n.txt": {"text": NCCL_FLAT}}, ["calibrate", "import-nccl", "n.txt"], 2, "n.txt:8")
cases[-1]["message2"] = "lines 8-10"
for name, content, fragment in [
        ("empty", "", "empty log"), ("binary", "\x00\xff\x10garbage\n", "n.txt:"),
        ("one long line", [["#", 1], ["a", 1000000]], "n.txt:"),
        ("foreign program", "# Collective test starting: ib_write_bw\n", "n.txt:"),
]:
    spec = {"pieces": content} if isinstance(content, list) else {"text": content}
    case("nccl log: " + name, "syntax", {"n.txt": spec},
         ["calibrate", "import-nccl", "n.txt"], 2, fragment)
case("nccl log: foreign fixture", "syntax",
     {"n.txt": {"copy": "tests/fixtures/nccl/foreign_ib_write_bw.txt"}},
     ["calibrate", "import-nccl", "n.txt"], 2, "n.txt:")

# --- catalogs -----------------------------------------------------------------------------
for name, content, fragment in [
        ("not JSON", "{", "not valid JSON"),
        ("wrong format", '{"format": "x"}', "/format"),
        ("gpu bf16 1e300", json.dumps({"format": "trainscape.catalog/1", "gpus": [dict(gpu, id="x", bf16_tflops=1e300)]}), "/gpus/0/bf16_tflops"),
        ("gpu unknown key", json.dumps({"format": "trainscape.catalog/1", "gpus": [dict(gpu, id="x", speed=1)]}), "/gpus/0/speed"),
        ("gpus not array", '{"format": "trainscape.catalog/1", "gpus": 7}', "/gpus"),
        ("huge", [['{"format": "trainscape.catalog/1", "gpus": [', 1], ["{},", 199999],
                  ["{}]}", 1]], "/gpus/0"),
]:
    spec = {"pieces": content} if isinstance(content, list) else {"text": content}
    case("catalog: " + name, "syntax", {"cat.json": spec},
         ["--catalog", "cat.json", "catalog", "list", "gpus"], 2, fragment)
case("catalog: missing file", "syntax", {}, ["--catalog", "none.json", "catalog", "list", "gpus"],
     2, "none.json")

# --- calibration profiles -----------------------------------------------------------------
for name, content, fragment in [
        ("not JSON", "[", "not valid JSON"),
        ("wrong format", '{"format": "trainscape.calibration/9", "id": "x"}', "/format"),
        ("unknown key", '{"format": "trainscape.calibration/1", "id": "x", "bogus": 1}', "/bogus"),
]:
    case("profile: " + name, "syntax", {"profiles/p.json": {"text": content}},
         ["--calibration-dir", "profiles", "calibrate", "list"], 2, fragment)
case("profile: folder missing", "syntax", {}, ["--calibration-dir", "nowhere", "calibrate", "list"],
     2, "nowhere")

# --- command lines and files --------------------------------------------------------------
for name, args, fragment in [
        ("no command", [], "subcommand is required"),
        ("unknown command", ["frobnicate"], "frobnicate"),
        ("estimate no file", ["estimate"], "FILE"),
        ("estimate two files", ["estimate", "a.json", "b.json"], "FILE"),
        ("estimate missing file", ["estimate", "missing.json"], "missing.json"),
        ("estimate a folder", ["estimate", "."], "folder"),
        ("import-gemm missing", ["calibrate", "import-gemm", "nope.csv"], "nope.csv"),
        ("import-gemm write into a folder", ["calibrate", "import-gemm", "g.csv", "--write", "."], "folder"),
]:
    case("cli: " + name, "syntax",
         {"g.csv": {"text": "m,n,k,dtype,time_us\n1024,1024,1024,bf16,10\n"}}, args, 2, fragment)

# --- heterogeneous clusters (issue 32): cluster.pools and parallelism.pipelines -------------
def pools(pool_list, pipelines):
    return {"cluster": {"preset": None, "num_gpus": None, "pools": pool_list},
            "parallelism": {"tp": None, "pipelines": pipelines}}


H100 = {"id": "h100", "gpu": "h100-sxm-80gb", "num_gpus": 8}
for name, patch, fragment in [
    ("pools: empty list", pools([], [{"stages": [{"pool": "h100", "tp": 8}]}]), "/cluster/pools"),
    ("pools: unknown GPU", pools([dict(H100, gpu="h900")], [{"stages": [{"pool": "h100", "tp": 8}]}]),
     "/cluster/pools/0/gpu"),
    ("pools: a million replicas", pools([H100], [{"count": 1000000, "stages": [{"pool": "h100", "tp": 8}]}]),
     "/parallelism/pipelines/0/stages/0/pool"),
    ("pools: 128 stages of 10^6 x 10^6 GPUs", pools([H100], [{"count": 1000000, "stages": [{"pool": "h100", "tp": 1000000}] * 128}] * 4),
     "/parallelism/pipelines/0/stages/0/pool"),
    ("pools: 200 stages", pools([H100], [{"stages": [{"pool": "h100", "tp": 1}] * 200}]),
     "/parallelism/pipelines/0/stages"),
    ("pools: 5000 pipeline entries", pools([H100], [{"stages": [{"pool": "h100", "tp": 1}]}] * 5000),
     "/parallelism/pipelines"),
    ("pools: no pipelines", pools([H100], None), "/parallelism/pipelines"),
    ("pools: pool link of 0", dict(pools([H100], [{"stages": [{"pool": "h100", "tp": 8}]}]),
                                   cluster={"preset": None, "num_gpus": None, "pools": [H100],
                                            "pool_link_gbit_s": 0}), "/cluster/pool_link_gbit_s"),
]:
    scenario(name, "bounded", patch, 2, fragment)

print(json.dumps({"base": BASE, "cases": cases}, indent=1))
