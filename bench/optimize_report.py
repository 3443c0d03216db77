#!/usr/bin/env python3
"""optimize_report.py OUT - the table of bench/optimize.sh's results.

For each sample: per shape, the original's time (round 0's default
configuration, whose PTX is the original's), `ktc optimize`'s tuned time,
the hand template's tuned time, and the ratios; then the geometric mean of
optimize against hand over every sample and shape, and the issue's goals.
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


def main(out):
    dev = open(os.path.join(out, "device.txt")).read().strip() \
        if os.path.exists(os.path.join(out, "device.txt")) else "?"
    print(f"device: {dev}\n")
    print("| sample | shape | original µs | optimize µs | hand µs | "
          "optimize / hand | speed-up over the original | kept |")
    print("|---|---|---|---|---|---|---|---|")
    ratios, worst_vs_orig, per_sample = [], [], {}
    for path in sorted(glob.glob(os.path.join(out, "*.optimize.json"))):
        name = os.path.basename(path)[:-len(".optimize.json")]
        r = load(path)
        if not r:
            print(f"| {name} | - | - | failed: see {name}.optimize.log | "
                  "| | | |")
            continue
        kept = r["rounds"][r["kept_round"]]
        refs = [x["refactor"] for x in r["rounds"]
                if x.get("kept") and x.get("refactor")]
        for s, shape in enumerate(r["shapes"]):
            orig = r["original_ms"][s] * 1e3
            opt = kept["best_ms"][s] * 1e3
            h = load(os.path.join(out, f"{name}.hand-{s}.json"))
            hand = h["best"]["time_ms"] * 1e3 if h and "best" in h else 0
            ratio = opt / hand if hand else float("nan")
            if hand:
                ratios.append(ratio)
                per_sample.setdefault(name, []).append(ratio)
            worst_vs_orig.append((orig / opt if opt else 0, name, shape))
            print(f"| {name} | {shape} | {orig:.2f} | {opt:.2f} | "
                  f"{hand:.2f} | {ratio:.2f} | {orig / opt:.2f}x | "
                  f"{', '.join(refs) or '(round 0)'} |")
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"\ngeometric mean of optimize / hand over {len(ratios)} "
              f"shapes: {g:.3f} (goal: at most 1.10)")
        for n, v in per_sample.items():
            gm = math.exp(sum(math.log(x) for x in v) / len(v))
            print(f"- {n}: {gm:.3f}")
    if worst_vs_orig:
        w = min(worst_vs_orig)
        print(f"\nslowest against the original: {w[1]} at {w[2]}, "
              f"{w[0]:.3f}x (goal: never below 1)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
