#!/usr/bin/env python3
"""make_fixture.py SPACE_JSON OUT - a results folder of bench/peers.sh made of
invented numbers, for testing bench/peers_report.py only (never a report).

The numbers are chosen so the report's derived values are known:
- the neutral time of configuration i (space order) is 100 + i us, so the
  fastest is the first and "within 5%" means i <= 5;
- ktc brute force visits the space in order, one configuration every 0.1 s
  of a 24 s command (600 a minute), GPU busy 60% of it;
- ktc bayes visits 60 configurations from i = 59 down to 0 over 12 s: it
  first holds one within 5% at its 55th (i = 5), 11 s in;
- Kernel Tuner brute force visits i = 239 down, 100 configurations in its
  90 s limit (66.7 a minute: ktc's 9.0x), stopped with its cache left open;
  its tune_kernel call began 5 s in and the last result came at 90 s: 85 s,
  70.6 a minute inside the call;
- Kernel Tuner bayes_opt visits i = 30 down to 0 over 60 s (31 a minute),
  its cache closed, first within 5% at its 26th (i = 5), 52 s in;
- SGLang: silu_and_mul 1.25x at T=128 and 0.99x at T=4096, merge 1.11x at
  T=128 (profiled), quantisation 1.5x at T=4096, fused_add_rmsnorm T=1 not
  tuned.
"""
import json
import os
import sys

T0 = 1795000000.0


def iso_z(t):
    import datetime
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)


def iso_kt(t):
    import datetime
    return str(datetime.datetime.fromtimestamp(t, datetime.timezone.utc))


def key(names, c):
    return ",".join("%s=%d" % (n, c[n]) for n in names)


def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)


def ktc_run(out, name, strategy, configs, order, step, wall):
    results = []
    for j, i in enumerate(order):
        ms = (100 + i) / 1e3
        results.append({"timestamp": iso_z(T0 + step * (j + 1)), "configuration": configs[i],
                        "objectives": ["time"],
                        "times": {"compilation": 30, "benchmark": 0.4 * step * 1e3,
                                  "framework": 0, "search_algorithm": 0,
                                  "validation": 0.2 * step * 1e3, "runtimes": [ms]},
                        "invalidity": "correct", "correctness": 1,
                        "measurements": [{"name": "time", "value": ms, "unit": "ms"}]})
    write(os.path.join(out, name + ".t4.json"),
          {"schema_version": "1.0.0", "results": results,
           "metadata": {"timeunit": "milliseconds", "tool": "ktc", "strategy": strategy}})
    best = min(order)
    write(os.path.join(out, name + ".summary.json"),
          {"strategy": strategy, "stop": "budget" if len(order) < len(configs) else "space exhausted",
           "visited": len(order), "best": {"key": key(list(configs[0]), configs[best]),
                                          "time_ms": (100 + best) / 1e3}})
    write(os.path.join(out, name + ".run.json"),
          {"name": name, "t0": T0, "t1": T0 + wall, "rc": 0, "limit": 0})


def kt_run(out, name, strategy, configs, order, step, wall, closed, rc, limit):
    names = list(configs[0])
    head = {"device_name": "fixture", "kernel_name": "silu_mul", "problem_size": 4096,
            "tune_params_keys": names, "tune_params": {}, "objective": "time", "cache": {}}
    text = json.dumps(head, indent="")[:-3]
    for j, i in enumerate(order):
        c = configs[i]
        e = dict(c, time=(100 + i) / 1e3, times=[(100 + i) / 1e3], compile_time=300.0,
                 verification_time=500.0, benchmark_time=5.0, strategy_time=0, framework_time=0,
                 timestamp=iso_kt(T0 + step * (j + 1)))
        text += "\n" + json.dumps({",".join(str(c[n]) for n in names): e})[1:-1] + ","
    if closed:
        text = text[:-1] + "}\n}"
    with open(os.path.join(out, name + ".cache.json"), "w") as f:
        f.write(text)
    meta = {"tool": "kernel_tuner", "strategy": strategy, "version": "1.5.0", "lang": "CUPY",
            "t_process": T0, "t_reference": T0 + 5.0}
    if closed:
        meta["outcome"] = "finished"
    write(os.path.join(out, name + ".meta.json"), meta)
    write(os.path.join(out, name + ".run.json"),
          {"name": name, "t0": T0, "t1": T0 + wall, "rc": rc, "limit": limit})


def kernels(out):
    rows = []

    def row(sample, T, p, nbytes, impls, key="BLOCK=1", host=None):
        rows.append({"sample": sample, "kernel": sample + "_kernel", "T": T, "problem": p,
                     "bytes": nbytes, "ktc_key": key,
                     "impls": {n: dict({"rc": 0, "match": {"out": 1.0}, "us": us, "runs": 100},
                                       **({"host_us": host[n]} if host else {}))
                               for n, us in impls.items()}})

    # host us a call, the table's column: "9.5, 12"
    row("silu_and_mul", 128, {"D": 14336}, 3 * 128 * 14336 * 2, {"sglang": 10.0, "ktc": 8.0},
        host={"sglang": 9.5, "ktc": 12.0})
    row("silu_and_mul", 4096, {"D": 14336}, 3 * 4096 * 14336 * 2, {"sglang": 120.0, "ktc": 121.0})
    row("merge_attn_states", 128, {"H": 32, "HD": 128}, 3 * 128 * 32 * 128 * 2 + 3 * 128 * 32 * 4,
        {"sglang": 5.0, "ktc": 4.5})
    row("per_token_group_quant_fp8", 4096, {"D": 7168}, 4096 * 7168 * 3 + 4096 * 56 * 4,
        {"sglang": 30.0, "sglang v1": 40.0, "ktc": 20.0})
    rows.append({"sample": "fused_add_rmsnorm", "kernel": "fused_add_rmsnorm_kernel", "T": 1,
                 "problem": {"D": 7168}, "bytes": 4 * 7168 * 2 + 7168 * 2, "ktc_key": None,
                 "impls": {"sglang": {"rc": 0, "match": {"in": 1.0, "residual": 1.0},
                                      "us": 4.0, "runs": 100}}})
    write(os.path.join(out, "kernels.json"),
          {"device": "fixture", "copy_bw": 3.0e12, "empty_us": 3.0, "rows": rows, "reps": 100})
    os.makedirs(os.path.join(out, "sglang"), exist_ok=True)
    with open(os.path.join(out, "sglang", "skipped.txt"), "w") as f:
        f.write("fused_add_rmsnorm-T1\n")
    # ktc's own times of its tuning: one agrees with the harness, one is
    # 3x below it (a disagreement the report must flag)
    write(os.path.join(out, "sglang", "silu_and_mul-T128.summary.json"),
          {"best": {"key": "BLOCK=1", "time_ms": 0.0081}})
    write(os.path.join(out, "sglang", "silu_and_mul-T4096.summary.json"),
          {"best": {"key": "BLOCK=1", "time_ms": 0.040}})
    m = [{"name": "time", "value": 0.0045, "unit": "ms"},
         {"name": "registers", "value": 32, "unit": ""},
         {"name": "blocks_per_sm", "value": 8, "unit": ""},
         {"name": "dram_read", "value": 2.2e6, "unit": "B"},
         {"name": "dram_write", "value": 1.0e6, "unit": "B"},
         {"name": "achieved_occupancy", "value": 87.3, "unit": "%"},
         {"name": "sm_throughput", "value": 5.9, "unit": "%"}]
    write(os.path.join(out, "sglang", "merge_attn_states-T128.profile.t4.json"),
          {"results": [{"invalidity": "correct", "measurements": m}]})


def main(argv):
    space, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    with open(space) as f:
        k = json.load(f)["kernels"][0]
    with open(os.path.join(out, "space.json"), "w") as f:
        json.dump({"kernels": [k]}, f)
    configs = [{kv.split("=")[0]: int(kv.split("=")[1]) for kv in c.split(",")}
               for c in k["configurations"]]
    names = list(configs[0])
    n = len(configs)
    ktc_run(out, "ktc-brute_force", "brute_force", configs, list(range(n)), 0.1, 24.0)
    ktc_run(out, "ktc-bayes", "bayes", configs, list(range(59, -1, -1)), 0.2, 12.0)
    kt_run(out, "kt-brute_force", "brute_force", configs, list(range(n - 1, n - 101, -1)), 0.9,
           90.0, False, 124, 90)
    kt_run(out, "kt-bayes_opt", "bayes_opt", configs, list(range(30, -1, -1)), 2.0, 62.0,
           True, 0, 120)
    land = {key(names, c): {"status": "correct", "us": 100.0 + i} for i, c in enumerate(configs)}
    write(os.path.join(out, "space-times.json"),
          {"device": "fixture", "nvrtc_options": ["--gpu-architecture=sm_90a"], "reps": 10,
           "best_reps": 100, "compile_s": 3.0, "time_s": 2.0, "landscape": land,
           "best": {"ktc-brute_force": {"key": key(names, configs[0]), "us": 100.5},
                    "kt-brute_force": {"key": key(names, configs[n - 100]), "us": 240.0}}})
    with open(os.path.join(out, "device.txt"), "w") as f:
        f.write("date: fixture\ncommit: fixture\ncommand: bench/peers.sh (fixture)\n"
                "gpu: fixture GPU\narch: sm_90a\ncpus: 16\n")
    kernels(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
