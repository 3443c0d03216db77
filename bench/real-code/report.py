#!/usr/bin/env python3
"""report.py OUT PROJECT... - the tables of bench/real-code.sh's run.

Reads OUT/<project>.txt (scripts/annotate-all.sh's rows: file, result,
parameters, kernels, lines to complete, seconds) and prints, as Markdown,
one row per project and the totals: files, host-only files (no kernel
and no launch: nothing to annotate), the kernel files nvcc compiles (all
but host-only, nvcc-fails and missing-header), annotated and verified
(share of those), verified with no parameter, no kernel, failed, timeout, crash,
parameters per kernel and lines left to complete (in verified files),
seconds per file (p50, p95, max), and how many annotated files took longer
than 30 s (the cap of the earlier runs in docs/real-code.md); then the
lines left to complete by kind, from the annotated files the run kept
(OUT/kept/<project>/).
"""
import os
import sys

RESULTS = ("annotated", "verified-0", "no-kernel", "host-only", "nvcc-fails",
           "missing-header", "failed", "timeout", "crash")


def rows_of(path):
    rows = []
    for line in open(path):
        f = line.split()
        if len(f) >= 6 and f[1] in RESULTS:
            rows.append((f[0], f[1], int(f[2]), int(f[3]), int(f[4]),
                         float(f[5])))
    return rows


def pct(t, p):
    return t[min(len(t) - 1, int(p * len(t)))] if t else 0.0


def line(name, rows):
    by = {r: sum(1 for x in rows if x[1] == r) for r in RESULTS}
    n = len(rows)
    m = n - by["nvcc-fails"] - by["missing-header"] - by["host-only"]
    ann = by["annotated"]
    ok = [x for x in rows if x[1] in ("annotated", "verified-0")]
    params = sum(x[2] for x in ok)
    kernels = sum(x[3] for x in ok)
    complete = sum(x[4] for x in ok)
    t = sorted(x[5] for x in rows)
    slow = sum(1 for x in rows if x[1] == "annotated" and x[5] > 30)
    ppk = "%.2f (%d/%d)" % (params / kernels, params, kernels) if kernels \
        else "-"
    share = "%d (%.0f%%)" % (ann, 100.0 * ann / m) if m else "-"
    return ("| %s | %d | %d | %d | %s | %d | %d | %d | %d | %d | %s | %d | "
            "%.1f / %.1f / %.1f | %d |" %
            (name, n, by["host-only"], m, share, by["verified-0"],
             by["no-kernel"],
             by["failed"], by["timeout"], by["crash"], ppk, complete,
             pct(t, 0.5), pct(t, 0.95), t[-1] if t else 0.0, slow))


def kinds(out, project, rows):
    """The lines left to complete in the verified files, by kind."""
    k = {"problem": 0, "buffer": 0, "value": 0, "launch": 0, "template": 0}
    for r in rows:
        if r[1] not in ("annotated", "verified-0"):
            continue
        name = r[0].lstrip("/").replace("/", "_")
        path = os.path.join(out, "kept", project, name + ".out")
        if not os.path.exists(path):
            continue
        for l in open(path, errors="replace"):
            m = l.split("// ktc: complete and uncomment: #pragma kt ", 1)
            if len(m) != 2:
                continue
            w = m[1].split()[0] if m[1].split() else ""
            if w == "problem":
                k["problem"] += 1
            elif w == "arg":
                # a buffer's line (its length or its element type: `?[n]`)
                k["buffer" if "[" in m[1] else "value"] += 1
            elif w == "launch":
                k["launch"] += 1
            elif w == "kernel":
                k["template"] += 1
    return k


def main(out, projects):
    print("| project | files | host only | kernel files nvcc compiles | "
          "annotated+verified | "
          "verified, 0 params | no kernel | failed | timeout | crash | "
          "params/kernel (verified) | complete lines | p50 / p95 / max s | "
          "annotated > 30 s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          "---:|")
    everything = []
    by_kind = []
    for p in projects:
        path = os.path.join(out, p + ".txt")
        if not os.path.exists(path):
            continue
        rows = rows_of(path)
        everything += rows
        by_kind.append((p, kinds(out, p, rows)))
        print(line(p, rows))
    print(line("**total**", everything))
    print()
    print("Lines left to complete in the verified files, by what they ask: "
          "a problem's sizes to tune for, a buffer's length or element type, an "
          "argument's value, a launch, a kernel template's arguments.")
    print()
    print("| project | problem | buffer | value | launch | template |")
    print("|---|---:|---:|---:|---:|---:|")
    total = {}
    for p, k in by_kind + [("**total**", None)]:
        if k is None:
            k = total
        else:
            for w, v in k.items():
                total[w] = total.get(w, 0) + v
        print("| %s | %d | %d | %d | %d | %d |" %
              (p, k.get("problem", 0), k.get("buffer", 0), k.get("value", 0),
               k.get("launch", 0), k.get("template", 0)))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: report.py OUT PROJECT...")
    main(sys.argv[1], sys.argv[2:])
