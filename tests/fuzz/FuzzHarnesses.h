// Every fuzz harness, by kind (tests/fuzz/fuzz_<kind>.cpp): included with TS_FUZZ_HARNESS
// defined, by ReplayMain.cpp. No include guard on purpose.
TS_FUZZ_HARNESS(scenario)
TS_FUZZ_HARNESS(cluster_graph)
TS_FUZZ_HARNESS(gemm_csv)
TS_FUZZ_HARNESS(carbon_csv)
TS_FUZZ_HARNESS(nccl_log)
TS_FUZZ_HARNESS(catalog)
TS_FUZZ_HARNESS(calibration_profile)
TS_FUZZ_HARNESS(hf_config)
TS_FUZZ_HARNESS(import_megatron)
TS_FUZZ_HARNESS(import_deepspeed)
TS_FUZZ_HARNESS(import_torchtitan)
TS_FUZZ_HARNESS(library_bundle)
