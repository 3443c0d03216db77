#!/usr/bin/env python3
"""optimize_report.py [--earlier TABLE.md] OUT... - the table of
bench/optimize.sh's results.

For each sample (in any of the OUT folders): per shape, the original's time
(round 0's default configuration, whose PTX is the original's), `ktc
optimize`'s tuned time, the hand template's tuned time, and the ratios;
then the geometric mean of optimize against hand over every sample and
shape, and the issue's goals. With --earlier, the rows of an earlier run's
table (this script's output) stand for the samples the OUT folders do not
hold, marked "(earlier)": a sample re-run alone joins the others' results.
"""
import glob
import json
import math
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def gmean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))


def earlier_rows(path):
    """The sample rows of an earlier table: (name, shape, orig, opt, hand,
    kept)."""
    rows = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        sys.exit(f"optimize_report.py: cannot read '{path}': {e.strerror}")
    for line in lines:
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) != 8 or c[0] in ("sample", "---") or c[1] == "-":
            continue
        try:
            rows.append((c[0], c[1], float(c[2]), float(c[3]),
                         float(c[4]), c[7]))
        except ValueError:
            continue
    return rows


def main(outs, earlier=None):
    devs = sorted({open(os.path.join(o, "device.txt")).read().strip()
                   for o in outs if os.path.exists(os.path.join(o, "device.txt"))})
    print(f"device: {', '.join(devs) or '?'}\n")
    print("| sample | shape | original µs | optimize µs | hand µs | "
          "optimize / hand | speed-up over the original | kept |")
    print("|---|---|---|---|---|---|---|---|")
    ratios, vs_orig, per_sample = [], [], {}

    def add(row):
        name, shape, orig, opt, hand, kept = row
        ratio = opt / hand if hand and opt else float("nan")
        if hand and opt:
            ratios.append(ratio)
            per_sample.setdefault(name, []).append(ratio)
        if opt:
            vs_orig.append((orig / opt, name, shape))
        print(f"| {name} | {shape} | {orig:.2f} | {opt:.2f} | {hand:.2f} | "
              f"{ratio:.2f} | {orig / opt if opt else 0:.2f}x | {kept} |")
    logs = sorted(p for o in outs
                  for p in glob.glob(os.path.join(o, "*.optimize.log")))
    for log in logs:
        out = os.path.dirname(log)
        name = os.path.basename(log)[:-len(".optimize.log")]
        r = load(os.path.join(out, f"{name}.work", "summary.json"))
        if not r or not r["rounds"] or "best_ms" not in r["rounds"][0]:
            print(f"| {name} | - | - | - | - | - | round 0 not tuned: "
                  f"see {name}.optimize.log | |")
            continue
        kept = r["rounds"][r["kept_round"]]
        refs = [x["refactor"] for x in r["rounds"]
                if x.get("kept") and x.get("refactor")]
        for s, shape in enumerate(r["shapes"]):
            # the original as timed in the same run as the best (the
            # kept round's default configuration), else round 0's time
            d = r.get("original_same_run_ms") or kept.get("default_ms") or []
            orig = (d[s] if s < len(d) and d[s] else r["original_ms"][s]) * 1e3
            opt = kept["best_ms"][s] * 1e3
            h = load(os.path.join(out, f"{name}.hand-{s}.json"))
            hand = h["best"]["time_ms"] * 1e3 if h and "best" in h else 0
            add((name, shape, orig, opt, hand,
                 ', '.join(refs) or '(round 0)'))
    have = {os.path.basename(p)[:-len(".optimize.log")] for p in logs}
    for name, shape, orig, opt, hand, kept in (
            earlier_rows(earlier) if earlier else []):
        if name not in have:
            add((name, shape, orig, opt, hand, f"{kept} (earlier)"))
    if ratios:
        print(f"\ngeometric mean of optimize / hand over {len(ratios)} "
              f"shapes: {gmean(ratios):.3f} (the issue's goal: at most "
              "1.10)")
        for n, v in per_sample.items():
            print(f"- {n}: {gmean(v):.3f}")
    if vs_orig:
        w = min(vs_orig)
        print(f"\nslowest against the original: {w[1]} at {w[2]}, "
              f"{w[0]:.3f}x (the issue's goal: never below 1)")


if __name__ == "__main__":
    args = sys.argv[1:]
    prev = None
    if args[:1] == ["--earlier"] and len(args) >= 2:
        prev, args = args[1], args[2:]
    main(args or ["."], prev)
