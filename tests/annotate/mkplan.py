#!/usr/bin/env python3
"""mkplan.py - writes an edit plan (docs/plan-schema.md) for a .cu file from a
short spec, so the plans the failure tests apply stay in step with their
input files (sizes, hashes, offsets, line:col are computed, not typed).

    mkplan.py SPEC.json > PLAN.json

A spec names each range by its line and its text on that line (the n-th
occurrence with "nth"; "to": another such spec for the end of a range over
several lines); everything else is copied into the plan as is.
"""
import json
import os
import sys


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def pos(text, off):
    line = text.count(b"\n", 0, off) + 1
    col = off - (text.rfind(b"\n", 0, off) + 1) + 1
    return {"offset": off, "line": line, "col": col}


def find(text, spec):
    """Range of spec['text'] on line spec['line'] (its nth occurrence)."""
    if "offset" in spec:  # a raw range, possibly wrong on purpose
        b, n = spec["offset"], spec.get("len", len(spec["text"]))
        return {"begin": {"offset": b, "line": spec["line"], "col": 1},
                "end": {"offset": b + n, "line": spec["line"], "col": 1 + n}}
    lines = text.split(b"\n")
    start = sum(len(l) + 1 for l in lines[: spec["line"] - 1])
    line = lines[spec["line"] - 1]
    needle = spec["text"].encode()
    at = -1
    for _ in range(spec.get("nth", 1)):
        at = line.find(needle, at + 1)
        if at < 0:
            sys.exit("mkplan: '%s' not on line %d" % (spec["text"], spec["line"]))
    b = start + at
    r = {"begin": pos(text, b), "end": pos(text, b + len(needle))}
    if "to" in spec:  # a range over several lines: up to the end of "to"
        r["end"] = find(text, spec["to"])["end"]
    return r


def expand(text, obj):
    """Replaces every {"line":..,"text":..} range spec by a real range."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if isinstance(v, dict) and "line" in v and "text" in v and k in (
                    "range", "region", "index_decl", "grid", "loop_body"):
                out[k] = find(text, v)
            elif k == "launches":
                out[k] = [find(text, x) for x in v]
            else:
                out[k] = expand(text, v)
        if "range" in out and "text" not in out and ("with" in out or "site" in out):
            out["text"] = obj["range"]["text"]  # a use or an edit
        return out
    if isinstance(obj, list):
        return [expand(text, x) for x in obj]
    return obj


def main():
    spec = json.load(open(sys.argv[1]))
    src = os.path.join(os.path.dirname(sys.argv[1]), spec["file"])
    text = open(src, "rb").read()
    plan = {
        "ktc_plan": 1,
        "file": {"path": spec.get("path", spec["file"]), "size": len(text),
                 "hash": "fnv1a64:%016x" % fnv1a64(text)},
        "planner": "test",
    }
    for k in ("kernels", "params", "refactors", "pragmas", "needs", "rejected"):
        if k in spec:
            plan[k] = expand(text, spec[k])
    for k in plan.get("kernels", []):
        k.setdefault("launches", [])
    json.dump(plan, sys.stdout, indent=2)
    sys.stdout.write("\n")


main()
