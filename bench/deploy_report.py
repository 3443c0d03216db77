#!/usr/bin/env python3
"""deploy_report.py OUT [--docs docs/deploy.md] - the report of
bench/deploy.sh from what it measured in OUT: OUT/deploy-results.md (the
tables), OUT/deploy.png (time against T per sample and mode: original,
single best configuration, per-shape dispatch, copy-bandwidth floor) and,
with --docs, the measured section of docs/deploy.md (between its
deploy-results markers; the plot copied to docs/results/deploy/). Every
number comes from OUT; none is typed by hand.

The floor of a shape is the bytes the kernel must move (the template's
`objective bandwidth(...)` expression at that shape) over the device's
measured copy bandwidth (bytes read plus written per second)."""

import glob
import json
import math
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = ["silu_and_mul", "fused_add_rmsnorm", "per_token_group_quant_fp8"]
BEGIN, END = "<!-- deploy-results:begin -->", "<!-- deploy-results:end -->"
NOISE = 1.03  # slower than the original by more than this: flagged


def bytes_expr(sample):
    path = os.path.join(ROOT, "samples", "cuda", sample, sample + ".kt.cu")
    for line in open(path):
        m = re.match(r"\s*#pragma kt objective bandwidth\((.*)\)\s*(//.*)?$",
                     line)
        if m:
            # the grammar's integer division
            return m.group(1).replace("/", "//")
    return None


def load(out):
    rows, devices = {}, {}
    for path in sorted(glob.glob(os.path.join(out, "*.bench.jsonl"))):
        sample = os.path.basename(path)[:-len(".bench.jsonl")]
        for line in open(path):
            line = line.strip()
            if not line:
                continue
            j = json.loads(line)
            if "copy_gbs" in j:
                devices[sample] = j
            else:
                rows.setdefault(sample, []).append(j)
    return rows, devices


def table(sample, rows, dev, mode, expr):
    """Markdown rows for one sample and mode, and its summary."""
    by_t = {}
    for r in rows:
        if r["mode"] == mode:
            by_t.setdefault(r["problem"]["T"], {})[r["variant"]] = r
    lines = ["| T | original µs | single best µs | per-shape µs | speed-up "
             "| floor µs | of floor | per-shape configuration (why) |",
             "|---|---|---|---|---|---|---|---|"]
    small, every, slower, bad = [], [], [], []
    for t in sorted(by_t):
        v = by_t[t]
        o, s, d = v.get("original"), v.get("single"), v.get("dispatch")
        if not (o and s and d):
            continue
        problem = dict(d["problem"])
        floor = (eval(expr, {}, problem) / (dev["copy_gbs"] * 1e9) * 1e6
                 if expr else float("nan"))
        speed = o["median_ms"] / d["median_ms"]
        every.append(speed)
        if t <= 1024:
            small.append(speed)
        if d["median_ms"] > o["median_ms"] * NOISE:
            slower.append(t)
        for x in (s, d):
            if x["check"] == "DIFFERS":
                bad.append("%s at T=%d" % (x["variant"], t))
        lines.append("| %d | %.2f | %.2f | %.2f | %.2fx | %.2f | %.0f%% | "
                     "`%s` (%s) |" % (
                         t, o["median_ms"] * 1e3, s["median_ms"] * 1e3,
                         d["median_ms"] * 1e3, speed, floor,
                         100 * floor / (d["median_ms"] * 1e3),
                         d["config"], d["match"]))
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else \
        float("nan")
    summary = {"sample": sample, "mode": mode, "gmean_small": gm(small),
               "gmean_all": gm(every), "worst": min(every) if every else
               float("nan"), "slower": slower, "differs": bad}
    return lines, summary, by_t


def plot(out, data, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("deploy_report: no matplotlib: no plot")
        return False
    samples = [s for s in SAMPLES if s in data]
    fig, axes = plt.subplots(len(samples), 2, figsize=(11, 3.6 *
                                                       len(samples)),
                             squeeze=False)
    for i, s in enumerate(samples):
        for j, mode in enumerate(("cold", "graph")):
            ax = axes[i][j]
            by_t, dev, expr = data[s][mode]
            ts = sorted(t for t in by_t if len(by_t[t]) == 3)
            for variant, style in (("original", "o-"), ("single", "s--"),
                                   ("dispatch", "^-")):
                ax.plot(ts, [by_t[t][variant]["median_ms"] * 1e3
                             for t in ts], style, label=variant)
            if expr:
                ax.plot(ts, [eval(expr, {}, dict(by_t[t]["dispatch"][
                    "problem"])) / (dev["copy_gbs"] * 1e9) * 1e6
                    for t in ts], "k:", label="copy-bandwidth floor")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("T (tokens)")
            ax.set_ylabel("µs")
            ax.set_title("%s, %s" % (s, mode))
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


def report(out):
    rows, devices = load(out)
    if not rows:
        sys.exit("deploy_report: no *.bench.jsonl in %s" % out)
    text, summaries, data = [], [], {}
    device = next(iter(devices.values()))
    info = open(os.path.join(out, "device.txt")).read() if os.path.exists(
        os.path.join(out, "device.txt")) else ""
    text.append("Measured by `bench/deploy.sh` on %s (%s, driver %s), copy "
                "bandwidth %.0f GB/s, L2 %d MB." % (
                    device["device"], device["arch"], device["driver"],
                    device["copy_gbs"], device["l2_bytes"] >> 20))
    text.append("")
    text.append("```\n" + info.strip() + "\n```\n")
    for s in SAMPLES:
        if s not in rows:
            continue
        expr = bytes_expr(s)
        data[s] = {}
        for mode in ("cold", "graph"):
            lines, summary, by_t = table(s, rows[s], devices[s], mode, expr)
            data[s][mode] = (by_t, devices[s], expr)
            summaries.append(summary)
            text.append("### %s, %s\n" % (s, mode))
            text.extend(lines)
            text.append("")
    text.append("### Tuning\n")
    text.append("| sample | objective | shapes | configurations visited "
                "(evaluated) | tuning time |")
    text.append("|---|---|---|---|---|")
    for s in SAMPLES:
        for obj in ("cold", "graph"):
            path = os.path.join(out, "tune-%s-%s.json" % (s, obj))
            try:
                runs = json.load(open(path))
            except (OSError, ValueError):
                continue
            runs = runs if isinstance(runs, list) else [runs]
            text.append("| %s | %s | %d (%d ok) | %d (%d) | %.1f s |" % (
                s, obj, len(runs), sum(1 for r in runs if r.get("ok")),
                sum(r.get("visited", 0) for r in runs),
                sum(r.get("evaluated", 0) for r in runs),
                sum(r.get("elapsed_s", 0) for r in runs)))
    text.append("")
    text.append("### Summary\n")
    text.append("| sample | mode | geometric mean speed-up T ≤ 1024 | all T "
                "| worst | slower than the original by > 3 % | outputs "
                "differing |")
    text.append("|---|---|---|---|---|---|---|")
    for m in summaries:
        text.append("| %s | %s | %.3fx | %.3fx | %.3fx | %s | %s |" % (
            m["sample"], m["mode"], m["gmean_small"], m["gmean_all"],
            m["worst"], ", ".join("T=%d" % t for t in m["slower"]) or
            "none", ", ".join(m["differs"]) or "none"))
    text.append("")
    ov = os.path.join(out, "overhead.json")
    if os.path.exists(ov) and os.path.getsize(ov):
        o = json.load(open(ov))
        text.append("Launch overhead (`ktc-rt-overhead`, %d batches of %d "
                    "launches of an empty kernel): a warm runtime launch "
                    "%.3f µs, a plain cuLaunchKernel %.3f µs: %.3f µs more "
                    "(90th percentiles %.3f and %.3f µs). The first launch "
                    "at a shape: %.1f ms with an empty cache (NVRTC), %.2f "
                    "ms from the disk cache.\n" % (
                        o["batches"], o["launches"], o["rt_launch_us"],
                        o["plain_launch_us"], o["overhead_us"],
                        o["rt_p90_us"], o["plain_p90_us"],
                        o["first_call_compile_us"] / 1e3,
                        o["first_call_cached_us"] / 1e3))
    md = "\n".join(text)
    with open(os.path.join(out, "deploy-results.md"), "w") as f:
        f.write(md)
    has_plot = plot(out, data, os.path.join(out, "deploy.png"))
    return md, has_plot


def update_docs(docs, out, md, has_plot):
    text = open(docs).read()
    if BEGIN not in text or END not in text:
        sys.exit("deploy_report: %s has no %s ... %s markers" % (docs, BEGIN,
                                                                 END))
    if has_plot:
        dest = os.path.join(os.path.dirname(docs), "results", "deploy")
        os.makedirs(dest, exist_ok=True)
        shutil.copy(os.path.join(out, "deploy.png"), dest)
        md += "\n![time against T](results/deploy/deploy.png)\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(docs, "w") as f:
        f.write(head + BEGIN + "\n" + md + "\n" + END + tail)


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit("usage: deploy_report.py OUT [--docs docs/deploy.md]")
    out = args[0]
    md, has_plot = report(out)
    print(md)
    if "--docs" in args:
        update_docs(args[args.index("--docs") + 1], out, md, has_plot)


if __name__ == "__main__":
    main()
