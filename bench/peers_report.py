#!/usr/bin/env python3
"""peers_report.py RESULTS REPORT - writes docs/peers.md and its plots
(RESULTS/*.png) from what bench/peers.sh measured in RESULTS; no number of
the report is typed by hand, and a goal that was missed is said to be.

RESULTS holds device.txt; space.json (`ktc space`); per tuning run of part 1
NAME.run.json (the command's wall clock and exit status) with a ktc T4 file
(NAME.t4.json, NAME.summary.json) or a Kernel Tuner cache (NAME.cache.json,
NAME.meta.json); space-times.json (the neutral harness over the space);
sglang/*.t4.json and kernels.json (part 2). Missing files make missing
rows, said so, not a failure: a report of a cut run still says what ran.
"""
import datetime
import json
import math
import os
import sys

RUNS = [("ktc", "brute_force", "ktc-brute_force.t4.json"),
        ("ktc", "bayes", "ktc-bayes.t4.json"),
        ("Kernel Tuner", "brute_force", "kt-brute_force.cache.json"),
        ("Kernel Tuner", "bayes_opt", "kt-bayes_opt.cache.json")]
KERNEL_NAMES = {"silu_and_mul": "silu_and_mul",
                "fused_add_rmsnorm": "fused_add_rmsnorm",
                "merge_attn_states": "merge_state_v2 (merge_attn_states)",
                "per_token_group_quant_fp8": "per_token_group_quant_8bit (fp8)"}
WITHIN = 1.05  # "within 5% of the best"


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def epoch(stamp):
    """ISO 8601 (ktc's '...Z', Kernel Tuner's '... +00:00') -> seconds."""
    s = stamp.replace("Z", "+00:00")
    return datetime.datetime.fromisoformat(s).timestamp()


def key_of(config):
    return ",".join("%s=%d" % (k, v) for k, v in config.items())


def t4_time_ms(r):
    for m in r.get("measurements", []):
        if m.get("name") == "time":
            scale = {"s": 1e3, "us": 1e-3}.get(m.get("unit"), 1.0)
            return m["value"] * scale
    rt = sorted(r.get("times", {}).get("runtimes", []))
    return rt[len(rt) // 2] if rt else None


def read_kt_cache(path):
    """Kernel Tuner's cache file, closed the way Kernel Tuner closes one
    (util.correct_open_cache): a run stopped from outside leaves it open."""
    with open(path) as f:
        s = f.read().strip()
    if s and s[-3:] not in ("}\n}", "}}}"):
        if s.endswith(","):
            s = s[:-1]
        try:
            return json.loads(s + "}\n}")
        except ValueError:  # a last line cut short by the stop: drop it
            s = s[:s.rindex("\n")].rstrip().rstrip(",")
        s += "}\n}"
    return json.loads(s)


def load_run(path):
    """One tuning run: its entries in visiting order, best, wall clock."""
    if path.endswith(".t4.json"):
        base, tool = path[:-len(".t4.json")], "ktc"
    elif path.endswith(".cache.json"):
        base, tool = path[:-len(".cache.json")], "kernel_tuner"
    else:
        raise ValueError("'%s' is neither a T4 file nor a Kernel Tuner cache" % path)
    info = load_json(base + ".run.json") or {}
    run = {"tool": tool, "path": path, "entries": [], "rc": info.get("rc"),
           "limit": info.get("limit"), "busy_s": 0.0, "compile_s": 0.0, "verify_s": 0.0}
    if tool == "ktc":
        d = load_json(path)
        if d is None:
            return None
        run["summary"] = load_json(base + ".summary.json") or {}
        run["strategy"] = d.get("metadata", {}).get("strategy")
        for r in d.get("results", []):
            ok = r.get("invalidity", "correct") == "correct"
            t = r.get("times", {})
            run["busy_s"] += (t.get("benchmark", 0) + t.get("validation", 0)) / 1e3
            run["compile_s"] += t.get("compilation", 0) / 1e3
            run["verify_s"] += t.get("validation", 0) / 1e3
            run["entries"].append({"key": key_of(r["configuration"]), "ok": ok,
                                   "ms": t4_time_ms(r) if ok else None,
                                   "t": epoch(r["timestamp"])})
    else:
        try:
            d = read_kt_cache(path)
        except (OSError, ValueError):
            return None
        run["meta"] = load_json(base + ".meta.json") or {}
        run["strategy"] = run["meta"].get("strategy")
        for e in d.get("cache", {}).values():
            names = d.get("tune_params_keys", [])
            ok = isinstance(e.get("time"), (int, float))
            run["busy_s"] += (e.get("benchmark_time") or 0) / 1e3
            run["compile_s"] += (e.get("compile_time") or 0) / 1e3
            run["verify_s"] += (e.get("verification_time") or 0) / 1e3
            run["entries"].append({"key": key_of({n: e[n] for n in names}), "ok": ok,
                                   "ms": e["time"] if ok else None, "t": epoch(e["timestamp"])})
    ents = run["entries"]
    run["t0"] = info.get("t0", ents[0]["t"] if ents else None)
    run["t1"] = info.get("t1", ents[-1]["t"] if ents else None)
    run["wall"] = run["t1"] - run["t0"] if ents or info else None
    good = [e for e in ents if e["ok"]]
    run["best"] = min(good, key=lambda e: e["ms"]) if good else None
    return run


def trace(run, land):
    """Per visited configuration: (count, seconds since the command began,
    the run's best so far by its own measure, that configuration's neutral
    time in us)."""
    out, best = [], None
    for i, e in enumerate(run["entries"]):
        if e["ok"] and (best is None or e["ms"] < best["ms"]):
            best = e
        if best is not None:
            out.append((i + 1, e["t"] - run["t0"], best["key"], land.get(best["key"])))
    return out


def reach(tr, target):
    for n, s, key, us in tr:
        if us is not None and us <= target:
            return n, s
    return None


def fmt(x, digits=3):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, int):
        return str(x)
    return "%.*g" % (digits, x)


def part1(res, w, goals, plots):
    space = load_json(os.path.join(res, "space.json"))
    times = load_json(os.path.join(res, "space-times.json")) or {}
    land = {k: v["us"] for k, v in times.get("landscape", {}).items()
            if v.get("status") == "correct"}
    opt_key = min(land, key=land.get) if land else None
    runs = []
    for tool, strategy, name in RUNS:
        r = load_run(os.path.join(res, name)) if os.path.exists(os.path.join(res, name)) else None
        runs.append((tool, strategy, name, r))
    k = space["kernels"][0] if space else {}
    w.append("## 1. Tuning: Kernel Tuner and ktc on one template\n")
    w.append("The template: `tests/cuda/silu_mul.kt.cu` (`%s`, %s configurations: %s) at %s. "
             % (k.get("kernel", "?"), k.get("count", "?"),
                ", ".join("%s in %s" % (p["name"], p["values"]) for p in k.get("parameters", [])),
                " ".join("%s=%s" % kv for kv in k.get("problem", {}).items())))
    w.append("Both tools tune that very file: Kernel Tuner gets it as its kernel source (each "
             "parameter is a macro with an `#ifndef` default, so Kernel Tuner's `#define`s set "
             "it), the same parameter values, the constraints as restriction strings, the same "
             "launch (grid `div_ceil(T, ROWS)`, block `BLOCK`) and the same input ranges "
             "(`bench/peers_kt.py`; its space was checked equal to ktc's, configuration by "
             "configuration).\n")
    w.append("- **Checks on in both.** ktc: its own checks (the default configuration is the "
             "reference; every configuration at the tuned size with two seeds and at one other "
             "size). Kernel Tuner: `answer=` (the default configuration's output, from "
             "`run_kernel`) with `verify=` comparing as float32 with ktc's bf16 tolerance "
             "(rtol 0.02, atol 0.01).")
    w.append("- **Timed from the user's side**: the wall clock of the command, from before its "
             "process starts to after it ends, compilation, input generation and reference "
             "included (`RUN.run.json`). Configurations per minute = configurations visited "
             "over that wall clock.")
    w.append("- **Fresh caches**: each run has its own empty compile cache (ktc's cubin "
             "cache, CuPy's kernel cache) and no tuning cache, so no run reuses another's "
             "work.")
    w.append("- **The neutral harness** (`bench/peers_time.py space`: NVRTC through "
             "cuda-python with the same options for every configuration, %s, CUDA events "
             "around each launch after a write of twice the L2, %s, median of %s runs) times every "
             "configuration of the space once, and the final best of each run again, %s runs "
             "each in alternating rounds. **Within 5%% of the best** is the first moment a run's "
             "own best so far (by its own measure) is, by the neutral harness, within 5%% of "
             "the fastest configuration of the space.\n"
             % (" ".join(times.get("nvrtc_options", [])[:1]) or "-",
                "the write behind a GPU spin as in part 2 (%s µs between events around its "
                "launch)" % fmt(times["spin_us"])
                if times.get("spin_us") else "no GPU spin before it",
                times.get("reps", "-"), times.get("best_reps", "-")))
    if land:
        w.append("Fastest configuration by the neutral harness: `%s`, %s µs (%d of %d "
                 "configurations correct; compiled in %s s, timed in %s s).\n"
                 % (opt_key, fmt(land[opt_key]), len(land), len(times.get("landscape", {})),
                    fmt(times.get("compile_s")), fmt(times.get("time_s"))))
    else:
        w.append("**The neutral harness did not run**, so there is no 5% mark and no re-timing "
                 "(see `space-times.log`).\n")
    w.append("| tool | strategy | stopped | configurations visited (correct) | wall s | "
             "configurations per minute | GPU busy | compile s | checks s | "
             "within 5%: configurations, s | best configuration | its time, own measure µs | "
             "re-timed, neutral µs |")
    w.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rates, series = {}, []
    for tool, strategy, name, r in runs:
        if r is None:
            meta = load_json(os.path.join(res, name.replace(".cache.json", ".meta.json"))) or {}
            why = meta.get("outcome") or "no `%s`" % name
            w.append("| %s | %s | did not run (%s) |  |  |  |  |  |  |  |  |  |  |"
                     % (tool, strategy, why.replace("|", "/")[:300]))
            continue
        n = len(r["entries"])
        cpm = 60.0 * n / r["wall"] if r["wall"] else None
        rates[(tool, strategy)] = cpm
        stop = stopped(r)
        tr = trace(r, land)
        series.append((tool, strategy, tr))
        hit = reach(tr, WITHIN * land[opt_key]) if land else None
        nb = (times.get("best") or {}).get(name.split(".")[0], {})
        busy = r["busy_s"] / r["wall"] if r["wall"] and tool == "ktc" else None
        if tool == "ktc" and busy is not None:
            goals.append(("ktc's GPU busy at least half its wall time (%s)" % strategy,
                          "%.0f%% (validation + benchmark %s s of %s s)"
                          % (100 * busy, fmt(r["busy_s"]), fmt(r["wall"])), busy >= 0.5))
        w.append("| %s | %s | %s | %d (%d) | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            tool, strategy, stop, n, sum(e["ok"] for e in r["entries"]), fmt(r["wall"]),
            fmt(cpm), "%.0f%%" % (100 * busy) if busy is not None else "-",
            fmt(r["compile_s"]), fmt(r["verify_s"]),
            "%d, %s" % (hit[0], fmt(hit[1])) if hit else ("not reached" if land else "-"),
            "`%s`" % r["best"]["key"] if r["best"] else "-",
            fmt(r["best"]["ms"] * 1e3) if r["best"] else "-", fmt(nb.get("us"))))
    w.append("")
    for strategy_pair in (("brute_force", "brute_force"), ("bayes", "bayes_opt")):
        a, b = rates.get(("ktc", strategy_pair[0])), rates.get(("Kernel Tuner", strategy_pair[1]))
        if a and b:
            goals.append(("ktc at least 10x Kernel Tuner's configurations per minute, checks on "
                          "(%s / %s)" % strategy_pair, "%.1fx (%s against %s a minute)"
                          % (a / b, fmt(a), fmt(b)), a / b >= 10))
        else:
            goals.append(("ktc at least 10x Kernel Tuner's configurations per minute, checks on "
                          "(%s / %s)" % strategy_pair, "not measured (a run is missing)", False))
    for tool, strategy, name, r in runs:
        if r and r["tool"] == "kernel_tuner":
            m = r.get("meta", {})
            w.append("- Kernel Tuner %s, backend %s, %s: %s." % (
                m.get("version", "?"), m.get("lang", "?"), strategy,
                m.get("outcome", "stopped by bench/peers.sh at its limit (%s s); its cache "
                      "file holds what it finished" % r.get("limit"))))
            # the most favourable reading: tune_kernel's own time, without the
            # process start, imports, inputs and reference
            t_in = m.get("t_reference")
            t_out = m.get("t_tuned") or (r["entries"][-1]["t"] if r["entries"] else None)
            if t_in and t_out and t_out > t_in and r["entries"]:
                w.append("  Inside `tune_kernel` alone it took %s s: %s configurations a minute "
                         "(the process started %s s before the call)." % (
                             fmt(t_out - t_in), fmt(60 * len(r["entries"]) / (t_out - t_in)),
                             fmt(t_in - r["t0"])))
    w.append("")
    if series and land:
        plots.append(("convergence", lambda path: plot_convergence(path, series, land, opt_key)))
        w.append("![convergence: best time so far against configurations and seconds]"
                 "(results/peers/convergence.png)\n")
        w.append("Each curve is the neutral time of the configuration the run held best (by "
                 "its own measure) after each visited configuration; the dashed line is 5% "
                 "above the fastest configuration of the space.\n")


def stopped(r):
    if r["tool"] == "kernel_tuner":
        outcome = r.get("meta", {}).get("outcome")
        if r.get("rc") == 124 or outcome is None:
            return "limit (%s s)" % r.get("limit")
        return "end" if outcome == "finished" else "error"
    s = r.get("summary", {}).get("stop")
    return s or ("exit %s" % r.get("rc"))


def plot_convergence(path, series, land, opt_key):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for tool, strategy, tr in series:
        pts = [(n, s, us) for n, s, k, us in tr if us is not None]
        if not pts:
            continue
        style = "-" if tool == "ktc" else "--"
        label = "%s %s" % (tool, strategy)
        axes[0].step([p[0] for p in pts], [p[2] for p in pts], style, where="post", label=label)
        axes[1].step([p[1] for p in pts], [p[2] for p in pts], style, where="post", label=label)
    for ax, xl in zip(axes, ("configurations visited", "seconds since the command started")):
        ax.axhline(WITHIN * land[opt_key], color="grey", linestyle=":", linewidth=1,
                   label="5% above the fastest")
        ax.set_xlabel(xl)
        ax.set_ylabel("best so far, neutral time (µs)")
        ax.set_xscale("log")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("silu_mul (T=4096, D=14336): tuning convergence")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def part2(res, w, goals, plots):
    k = load_json(os.path.join(res, "kernels.json"))
    w.append("## 2. SGLang's kernels and ktc's tuned samples\n")
    if not k:
        w.append("**Not measured**: no `kernels.json` (see `sgl-build.log`, `kernels.log`).\n")
        goals.append(("SGLang table", "not measured", False))
        return
    bw, empty = k["copy_bw"], k.get("empty_us")
    w.append("- **SGLang**: its kernel files at the commit below, built with nvcc for this GPU "
             "(`bench/peers_sgl.cu`: the device code of each file as it is, up to its torch "
             "entry point, which is restated as a C function: the same grid, block, template "
             "arguments and launch attributes). fused_add_rmsnorm is sgl-kernel's build of "
             "FlashInfer's kernel at the commit sgl-kernel pins (SGLang's Python calls the "
             "FlashInfer package's own build instead where one is installed), with PDL on, as "
             "SGLang's Python asks on Hopper; per_token_group_quant_8bit is v2, the kernel "
             "SGLang's Python calls for group size 128 (v1 beside it), with row-major "
             "float scales [T, D / 128].")
    w.append("- **ktc**: the samples' templates (`samples/cuda/`), tuned per token count T by "
             "`ktc tune --backend cuda -s bayes` (budget and limit in the command above), the "
             "best written out by `ktc apply` and built with nvcc with the same flags, "
             "launched by the template's own host function (`bench/peers_ktc.cu`).")
    w.append("- **One harness** (`bench/peers_time.py kernels`, torch for data, ctypes for the "
             "calls): the same inputs for both, bf16 (group size 128, fp8 e4m3, eps 1e-6 for "
             "the norm, 1e-10 for the quantisation); each output compared with a float64 "
             "reference at ktc's tolerances (bf16 rtol 0.02 atol 0.01, fp8 rtol 0.125 atol "
             "1/64, f32 rtol 1e-4 atol 1e-5): **outputs** is the share of elements within "
             "them, the lowest over a kernel's outputs. Each launch after a write of twice "
             "the L2, CUDA events around the launch alone, median of %d runs in %d "
             "alternating rounds." % (k.get("reps", 0), k.get("rounds", 5)))
    w.append(spin_text(k))
    w.append("- **copy BW**: bytes the kernel must move over its time, as a share of the "
             "measured copy bandwidth (%s GB/s: a 512 MiB device-to-device copy, bytes read "
             "plus written). **Floor**: the larger of an empty kernel launched the same way "
             "(%s µs) and a copy of the kernel's bytes at that bandwidth; "
             "SGLang's time over the floor bounds any speed-up.\n"
             % (fmt(bw / 1e9, 4), fmt(empty)))
    skipped = []
    sk = os.path.join(res, "sglang", "skipped.txt")
    if os.path.exists(sk):
        skipped = open(sk).read().split()
    rows = k["rows"]
    misses, tally, odd, owns = [], [], [], {}
    for sample in KERNEL_NAMES:
        rs = [r for r in rows if r["sample"] == sample]
        if not rs:
            continue
        p = rs[0]["problem"]
        w.append("### %s (%s)\n" % (KERNEL_NAMES[sample],
                                    " ".join("%s=%d" % kv for kv in sorted(p.items()))))
        names = [n for n in ("sglang", "sglang v1") if any(n in r["impls"] for r in rs)]
        shown = [n.replace("sglang", "SGLang") for n in names]
        head = "| T | " + " | ".join("%s µs" % n for n in shown) + \
            " | ktc µs | ktc's own µs | speed-up | " + \
            " | ".join("%s copy BW" % n for n in shown) + " | ktc copy BW | floor µs | outputs: " + \
            ", ".join(shown) + ", ktc | host µs a call: " + ", ".join(shown) + \
            ", ktc | ktc configuration | goal |"
        w.append(head)
        w.append("|" + "---|" * (head.count("|") - 1))
        for r in sorted(rs, key=lambda r: r["T"]):
            im = r["impls"]
            us = {n: im[n]["us"] if n in im and isinstance(im[n].get("us"), float) else None
                  for n in names + ["ktc"]}
            floor = max(empty or 0, r["bytes"] / bw * 1e6)
            sp = us["sglang"] / us["ktc"] if us.get("sglang") and us.get("ktc") else None
            goal, why = goal_of(sample, r["T"], sp, us.get("sglang"), floor,
                                "%s-T%d" % (sample, r["T"]) in skipped, r.get("error"))
            if goal[1] is False:
                prof = profile_note(res, "%s-T%d" % (sample, r["T"]), r["bytes"])
                misses.append((sample, r["T"], goal[0], why + (prof and "; " + prof)))
            tally.append((sample, r["T"], sp))
            match = ", ".join(pct(min(im[n]["match"].values())) if n in im and im[n].get("match")
                              else "-" for n in names + ["ktc"])
            own = own_time(res, "%s-T%d" % (sample, r["T"]))
            if own and us.get("ktc") and not 0.5 < us["ktc"] / own < 2:
                odd.append((sample, r["T"], us["ktc"], own, r.get("ktc_key") or "-"))
            if own:
                owns[(sample, r["T"])] = own
            host = ", ".join(fmt(im[n].get("host_us"), 2) if n in im else "-"
                             for n in names + ["ktc"])
            w.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | `%s` | %s |" % (
                r["T"], " | ".join(fmt(us[n]) for n in names), fmt(us["ktc"]), fmt(own),
                fmt(sp) + "x" if sp else "-",
                " | ".join(bwpct(r["bytes"], us[n], bw) for n in names),
                bwpct(r["bytes"], us["ktc"], bw), fmt(floor), match, host,
                r.get("ktc_key") or "-", goal_text(goal)))
        w.append("")
    summarise_goals(tally, goals)
    plots.append(("time-vs-shape", lambda path: plot_shapes(path, rows, bw, empty)))
    plots.append(("speedup-vs-shape", lambda path: plot_speedups(path, tally)))
    w.append("![time against token count, per kernel](results/peers/time-vs-shape.png)\n")
    w.append("![ktc's speed-up over SGLang against token count](results/peers/speedup-vs-shape.png)\n")
    if skipped:
        w.append("Not tuned within the run's time (TOTAL), so only SGLang's time is shown: %s.\n"
                 % ", ".join(skipped))
    own_vs_harness(w, odd)
    without_spin(w, k, rows, owns)
    if misses:
        w.append("### Goals missed, and why\n")
        for sample, T, what, why in misses:
            w.append("- %s, T=%d (%s): %s" % (KERNEL_NAMES[sample], T, what, why))
        w.append("")


def spin_text(k):
    """The method's words on the GPU spin and the host's time, from kernels.json."""
    if not k.get("spin_cycles"):
        return ("- **No GPU spin** before the launches: where the host takes longer per launch "
                "than the L2 write takes on the GPU (%s µs), the GPU waits for it between the "
                "events, and that wait is counted. **host µs a call**: the host's time of one "
                "call (Python, ctypes, the C function and its launch), median."
                % fmt(k.get("flush_us")))
    return ("- **A GPU spin before each launch**: the harness queues a spin of %d cycles "
            "(`torch.cuda._sleep`, sized for 100 µs at the clock of the run's start; between "
            "two events around its launch %s µs as the run starts, %s µs as it ends, the "
            "host's launch of it included) before the L2 write, which takes %s µs on the "
            "GPU. While they run, the host queues "
            "the start event, its call and the end event, so the GPU does not wait for the host "
            "between the events (unless the host takes longer than the spin and the write "
            "together) and they time the kernel alone, not the host's call. "
            "**host µs a call**: the host's time of one call (Python, ctypes, the C function "
            "and its launch; `time.perf_counter` around it), median: it shows a slow host path "
            "that the spin keeps out of the GPU time. The two events with nothing between "
            "them measure %s µs."
            % (k["spin_cycles"], fmt(k.get("spin_us")), fmt(k.get("spin_us_end")),
               fmt(k.get("flush_us")), fmt(k.get("events_us"))))


def own_vs_harness(w, odd):
    w.append("**ktc's own µs** is the time ktc's tuning measured for the same configuration "
             "(its worker: L2 flushed, CUDA events, median of its timed runs). Where it and the "
             "harness's disagree by more than 2x, the harness's number is not to be trusted "
             "until the difference is explained:\n")
    for sample, T, h, own, key in odd:
        w.append("- %s, T=%d, `%s`: the harness %s µs, ktc's tuning %s µs: **not explained**"
                 % (KERNEL_NAMES[sample], T, key, fmt(h), fmt(own)))
    if not odd:
        w.append("- none disagree by more than 2x.")
    w.append("")


def without_spin(w, k, rows, owns):
    """Each launch timed again without the spin, as this harness once did:
    what the spin changes, the times it changes by more than 1.2x, and
    whether the host's time of those calls accounts for it."""
    pts = [(r, n, im) for r in rows for n, im in r["impls"].items()
           if isinstance(im.get("us"), float) and isinstance((im.get("nospin") or {}).get("us"),
                                                             float)]
    if not pts:
        return
    mid = lambda xs: sorted(xs)[len(xs) // 2]
    diff = sorted(im["nospin"]["us"] - im["us"] for r, n, im in pts)
    host = mid([im["nospin"]["host_us"] for r, n, im in pts])
    ev, empty = k.get("events_nospin") or {}, k.get("empty_nospin") or {}
    w.append("**Without the spin.** Every launch is timed a second time in the same rounds "
             "without the spin (`nospin` in `kernels.json`), as this harness timed before the "
             "spin was added. There the GPU waits for the host between the events whenever the "
             "host, from the L2 write's launch to the end of its call, takes longer than the "
             "write on the GPU (%s µs); the host's whole iteration (those, the end event and "
             "the loop: %s µs, median) bounds that time from above. In this run, the time "
             "without the spin minus the time with it: median %s µs, from %s to %s, over %d "
             "times. The empty kernel measures %s µs with the spin, %s without; the two "
             "events with nothing between them %s and %s.%s"
             % (fmt(k.get("flush_us")), fmt(mid([im["nospin"]["iter_us"] for r, n, im in pts])),
                fmt(diff[len(diff) // 2], 2), fmt(diff[0], 2), fmt(diff[-1], 3), len(diff),
                fmt(k.get("empty_us")), fmt(empty.get("us")), fmt(k.get("events_us")),
                fmt(ev.get("us")),
                " So for short kernels the spin itself adds to what is measured (why a spin "
                "before the L2 write lengthens a short kernel after it was not found)."
                if diff[len(diff) // 2] < 0 and (empty.get("us") or 0) < (k.get("empty_us") or 0)
                else ""))
    odd = [(r, im) for r, n, im in pts if n == "ktc" and (r["sample"], r["T"]) in owns and
           not 0.5 < im["nospin"]["us"] / owns[(r["sample"], r["T"])] < 2]
    w.append("Without the spin, %s of ktc's times disagree with ktc's own by more than 2x%s. "
             "(The spin was added after a run of this harness without it in which some of "
             "silu_and_mul's times at small T did; this file's git history has that run, "
             "which kept no host times.)\n"
             % (len(odd) or "none", "" if not odd else ": " + ", ".join(
                 "%s at T=%d (%s µs against %s)" % (KERNEL_NAMES[r["sample"]], r["T"],
                                                    fmt(im["nospin"]["us"]),
                                                    fmt(owns[(r["sample"], r["T"])]))
                 for r, im in odd)))
    far = [(r, n, im) for r, n, im in pts if im["nospin"]["us"] / im["us"] > 1.2]
    if not far:
        w.append("No time without the spin is more than 1.2x its time with it.\n")
        return
    w.append("Times more than 1.2x longer without the spin; the host's time of a call is "
             "%s µs over all times without the spin (median):\n" % fmt(host))
    w.append("| kernel | T | implementation | µs with the spin | µs without | host µs a call "
             "(with, without) | host µs an iteration (without) | the host's call |")
    w.append("|---|---|---|---|---|---|---|---|")
    slow = 0
    for r, n, im in far:
        ns = im["nospin"]
        late = ns["host_us"] > 1.5 * host
        slow += late
        w.append("| %s | %d | %s | %s | %s | %s, %s | %s | %s |" % (
            KERNEL_NAMES[r["sample"]], r["T"], n.replace("sglang", "SGLang"), fmt(im["us"]),
            fmt(ns["us"]), fmt(im.get("host_us")), fmt(ns["host_us"]), fmt(ns["iter_us"]),
            "over 1.5x the median" if late else "near the median"))
    w.append("\nWhere the host's call took over 1.5x its median (%d of %d), the host was slow "
             "and, without the spin, the GPU waited for it between the events; the spin keeps "
             "that wait out of the time, which the host µs a call still shows. %s\n"
             % (slow, len(far), "" if slow == len(far) else
                "Where it did not, the host's call does not account for the difference: "
                "**not explained**."))


def summarise_goals(tally, goals):
    """Issue 16's SGLang goals, one line each: never slower at any shape;
    per_token_group_quant 1.4x at T >= 4096; the others 1.2x at T = 128 to
    1024. A shape without a ktc time counts as missed."""
    def line(what, pts, need):
        if not pts:
            return
        got = [(sp, T) for s, T, sp in pts if sp is not None]
        met = sum(1 for sp, T in got if sp >= need)
        low = min(got) if got else None
        goals.append((what, "met at %d of %d shapes%s" % (
            met, len(pts), "; lowest %.2fx (T=%d)" % low if low else ""),
            met == len(pts)))

    for sample in KERNEL_NAMES:
        pts = [t for t in tally if t[0] == sample]
        line("%s: ktc never slower than SGLang" % KERNEL_NAMES[sample], pts, 1.0)
        if sample == "per_token_group_quant_fp8":
            line("%s: at least 1.4x at T >= 4096" % KERNEL_NAMES[sample],
                 [t for t in pts if t[1] >= 4096], 1.4)
        else:
            line("%s: at least 1.2x at T = 128 to 1024" % KERNEL_NAMES[sample],
                 [t for t in pts if 128 <= t[1] <= 1024], 1.2)


def plot_speedups(path, tally):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for sample in KERNEL_NAMES:
        pts = sorted((T, sp) for s, T, sp in tally if s == sample and sp is not None)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=KERNEL_NAMES[sample])
    for y, label in ((1.0, "SGLang"), (1.2, "1.2x"), (1.4, "1.4x")):
        ax.axhline(y, color="grey", linestyle=":" if y > 1 else "-", linewidth=1)
        ax.text(1, y, " " + label, fontsize=7, va="bottom", color="grey")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("tokens T")
    ax.set_ylabel("SGLang time / ktc time")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def profile_note(res, name, nbytes):
    """What `ktc tune --profile` (CUPTI) counted for ktc's best at a missed
    shape: bytes through DRAM against the minimum, occupancy, SM load."""
    p = load_json(os.path.join(res, "sglang", name + ".profile.t4.json"))
    if not p or not p.get("results") or p["results"][0].get("invalidity") != "correct":
        return ""
    m = {x["name"]: x["value"] for x in p["results"][0].get("measurements", [])}
    parts = []
    if "dram_read" in m and "dram_write" in m:
        parts.append("%.2f MB read from DRAM and %.2f MB written for a minimum of %.2f MB"
                     % (m["dram_read"] / 1e6, m["dram_write"] / 1e6, nbytes / 1e6))
    for key, label in (("registers", "registers"), ("blocks_per_sm", "blocks per SM")):
        if key in m:
            parts.append("%d %s" % (m[key], label))
    for key, label in (("achieved_occupancy", "achieved occupancy"),
                       ("sm_throughput", "SM throughput")):
        if key in m:
            parts.append("%s %.0f%%" % (label, m[key]))
    return ("ktc's best under the profiler (`ktc tune --profile`, one launch): "
            + ", ".join(parts)) if parts else ""


def pct(x):
    return "%.1f%%" % (100 * x) if x < 1 else "100%"


def bwpct(nbytes, us, bw):
    return "%.0f%%" % (100 * nbytes / (us * 1e-6) / bw) if us else "-"


def goal_of(sample, T, sp, sgl_us, floor, skipped, error):
    """(what the issue asks at this shape, met?), and why not when missed."""
    need, what = 1.0, "never slower"
    if sample == "per_token_group_quant_fp8" and T >= 4096:
        need, what = 1.4, "at least 1.4x"
    elif sample != "per_token_group_quant_fp8" and 128 <= T <= 1024:
        need, what = 1.2, "at least 1.2x"
    if sp is None:
        reason = "not tuned within the run's time" if skipped else (error or "no ktc build")
        return (what, False), reason
    if sp >= need:
        return (what, True), ""
    bound = sgl_us / floor if floor else None
    if bound is not None and bound < need:
        why = ("out of reach for any kernel: SGLang's %s µs is %.2fx the floor (%s µs), "
               "less than the %.1fx asked" % (fmt(sgl_us), bound, fmt(floor), need))
    else:
        why = ("not reached: ktc's best is %s µs, %.2fx the floor of %s µs; "
               "SGLang's leaves up to %s" % (fmt(sgl_us / sp), (sgl_us / sp) / floor, fmt(floor),
                                              fmt(bound) + "x" if bound else "-"))
    return (what, False), why


def own_time(res, name):
    """The best time (µs) of ktc's tuning run NAME, from its summary."""
    s = load_json(os.path.join(res, "sglang", name + ".summary.json")) or {}
    t = (s.get("best") or {}).get("time_ms")
    return t * 1e3 if isinstance(t, (int, float)) and t > 0 else None


def goal_text(goal):
    what, ok = goal
    return "%s: %s" % (what, "met" if ok else "**missed**")


def plot_shapes(path, rows, bw, empty):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    samples = [s for s in KERNEL_NAMES if any(r["sample"] == s for r in rows)]
    cols = 2 if len(samples) > 1 else 1
    rows_n = (len(samples) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.2 * cols, 3.8 * rows_n), squeeze=False)
    for ax, s in zip(axes.flatten(), samples):
        rs = sorted((r for r in rows if r["sample"] == s), key=lambda r: r["T"])
        for name, style in (("sglang", "o-"), ("sglang v1", "s:"), ("ktc", "^-")):
            pts = [(r["T"], r["impls"][name]["us"]) for r in rs
                   if name in r["impls"] and isinstance(r["impls"][name].get("us"), float)]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        label="SGLang" + name[6:] if name.startswith("sglang") else "ktc (tuned)")
        ax.plot([r["T"] for r in rs], [max(empty or 0, r["bytes"] / bw * 1e6) for r in rs],
                "k--", linewidth=1, label="floor")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("tokens T")
        ax.set_ylabel("µs")
        ax.set_title(KERNEL_NAMES[s], fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def header(res, w):
    dev = {}
    for line in open(os.path.join(res, "device.txt")).read().splitlines() \
            if os.path.exists(os.path.join(res, "device.txt")) else []:
        k, _, v = line.partition(": ")
        dev.setdefault(k, []).append(v)
    one = lambda k: (dev.get(k) or ["unknown"])[0]
    w.append("# ktc beside its peers: Kernel Tuner, and SGLang's own kernels\n")
    w.append("Written by `bench/peers.sh` (report: `bench/peers_report.py`) from the files in "
             "`docs/results/peers/`; no number here is typed by hand. Run again on a machine "
             "with an NVIDIA GPU (no network needed; `bench/peers_fetch.sh` prepares SGLang's "
             "sources, Kernel Tuner comes as wheels):\n")
    w.append("```\n%s\n```\n" % one("command"))
    w.append("- date: %s, commit %s" % (one("date"), one("commit")))
    w.append("- device: %s (%s); %s CPUs" % (one("gpu"), one("arch"), one("cpus")))
    w.append("- software: %s; %s; Kernel Tuner %s; torch %s; CuPy %s; nvcc %s"
             % (one("ktc"), "Python " + one("python"), one("kernel_tuner"), one("torch"),
                one("cupy"), one("nvcc")))
    for s in dev.get("sgl", []):
        w.append("- %s" % s.replace("sglang-origin", "SGLang from").replace(
            "flashinfer-origin", "FlashInfer from").replace("sglang ", "SGLang ").replace(
            "flashinfer ", "FlashInfer "))
    w.append("")


def missed(res):
    """sample-T<T> of each measured shape whose goal ktc missed (for the
    profiler runs of bench/peers.sh)."""
    k = load_json(os.path.join(res, "kernels.json")) or {}
    bw, empty = k.get("copy_bw"), k.get("empty_us")
    for r in k.get("rows", []):
        im = r["impls"]
        sgl, ktc = (im.get(n, {}).get("us") for n in ("sglang", "ktc"))
        if not (isinstance(sgl, float) and isinstance(ktc, float) and bw):
            continue
        floor = max(empty or 0, r["bytes"] / bw * 1e6)
        goal, why = goal_of(r["sample"], r["T"], sgl / ktc, sgl, floor, False, None)
        if goal[1] is False:
            print("%s-T%d" % (r["sample"], r["T"]))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--missed":
        return missed(argv[2])
    if len(argv) != 3:
        sys.stderr.write("usage: peers_report.py RESULTS REPORT | --missed RESULTS\n")
        return 2
    res, report = argv[1], argv[2]
    w, goals, plots = [], [], []
    header(res, w)
    body = []
    part1(res, body, goals, plots)
    part2(res, body, goals, plots)
    w.append("## Goals of issue 16\n")
    w.append("| goal | measured | met |")
    w.append("|---|---|---|")
    for what, measured, ok in goals:
        w.append("| %s | %s | %s |" % (what, measured, "yes" if ok else "**no**"))
    w.append("")
    w += body
    made = []
    for name, fn in plots:
        path = os.path.join(res, name + ".png")
        try:
            fn(path)
            made.append(name)
        except ImportError as e:
            w.append("(plot %s not drawn: %s)\n" % (name, e))
    w.append("## Raw results\n")
    w.append("`docs/results/peers/`: `device.txt`; `space.json` (`ktc space`); per tuning run "
             "`NAME.run.json` (wall clock, exit status) and `NAME.t4.json` + `.summary.json` "
             "(ktc) or `NAME.cache.json` + `.meta.json` (Kernel Tuner); `space-times.json` "
             "(the neutral harness); `sglang/` (ktc's tuning per kernel and T); "
             "`kernels.json` (the SGLang comparison); `processes.txt` (what ran on the "
             "machine as part 2's timing began); logs; %s.\n"
             % (", ".join("`%s.png`" % m for m in made) if made else "no plots"))
    with open(report, "w") as f:
        f.write("\n".join(w))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
