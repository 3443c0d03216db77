"""peers_tpl.py - what bench/peers_kt.py (Kernel Tuner) and bench/peers_time.py
(the neutral harness) read of a ktc template, so that both run exactly the
space ktc runs.

The space comes from `ktc space --json --list` (parameters, defaults,
problem values, constraints, every valid configuration), the launch and the
arguments from the template's `#pragma kt launch` and `#pragma kt arg`
lines. Only the forms a plain 1-D template uses are read (a grid of
div_ceil(N, P) or N blocks, a block of one parameter or a number; buffers
with a count expression over problem variables; int scalars); anything else
is an error naming the line, not a guess.
"""
import json
import re

import numpy as np

# ktc's default tolerances per element type (docs/cuda-backend.md)
TOLERANCE = {"f64": (1e-10, 1e-12), "f32": (1e-4, 1e-5), "f16": (1e-2, 1e-3),
             "bf16": (2e-2, 1e-2)}
NUMPY_BITS = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
              "bf16": np.uint16, "i32": np.int32, "u32": np.uint32,
              "i64": np.int64, "u8": np.uint8, "i8": np.int8}


class Template:
    """One kernel of a template: its space (from ktc space), launch, args."""

    def __init__(self, path, space_json):
        with open(space_json) as f:
            space = json.load(f)
        if len(space["kernels"]) != 1:
            raise ValueError("%s: one kernel expected, found %d"
                             % (path, len(space["kernels"])))
        k = space["kernels"][0]
        self.path = path
        self.kernel = k["kernel"]
        self.params = {p["name"]: p["values"] for p in k["parameters"]}
        self.default = {p["name"]: p["default"] for p in k["parameters"]}
        self.problem = dict(k["problem"])
        self.constraints = list(k["constraints"])
        self.configs = [parse_key(c) for c in k["configurations"]]
        if len(self.configs) != k["count"]:
            raise ValueError("ktc space listed %d of %d configurations"
                             % (len(self.configs), k["count"]))
        with open(path) as f:
            self.source = f.read()
        self.pragmas = pragma_lines(self.source)
        self.grid, self.block = self._launch()
        self.args = self._args()
        self.rtol, self.atol = self._verify()

    def names(self):
        return list(self.params)

    def key(self, config):
        return ",".join("%s=%d" % (n, config[n]) for n in self.params)

    def _launch(self):
        lines = [(n, t) for n, t in self.pragmas if t.startswith("launch ")]
        if len(lines) != 1:
            raise ValueError("%s: one '#pragma kt launch' line expected" % self.path)
        n, text = lines[0]
        m = re.fullmatch(r"launch\s+grid\((.*)\)\s+block\((\w+)\)", text)
        if not m:
            raise ValueError("%s:%d: a launch of grid(EXPR) block(NAME) expected" % (self.path, n))
        grid, block = m.group(1).strip(), m.group(2)
        g = re.fullmatch(r"div_ceil\((\w+),\s*(\w+)\)", grid)
        if g and g.group(1) in self.problem and g.group(2) in self.params:
            grid = (g.group(1), g.group(2))
        elif grid in self.problem:
            grid = (grid, None)
        else:
            raise ValueError("%s:%d: grid '%s' is neither N nor div_ceil(N, PARAM)" % (self.path, n, grid))
        if block not in self.params:
            raise ValueError("%s:%d: block '%s' is not a parameter" % (self.path, n, block))
        return grid, block

    def launch(self, config):
        """(grid x, block x) of a configuration."""
        size = self.problem[self.grid[0]]
        div = config[self.grid[1]] if self.grid[1] else 1
        return (size + div - 1) // div, config[self.block]

    def _args(self):
        out = []
        for n, text in self.pragmas:
            if not text.startswith("arg "):
                continue
            m = re.fullmatch(r"arg\s+(\w+)\s+(\w+)\[(.*)\]\s+(in|out|inout)"
                             r"(?:\s+init\(random\(([-\d.e]+),\s*([-\d.e]+)\)\))?", text)
            s = re.fullmatch(r"arg\s+(\w+)\s+int\s*=\s*(.*)", text)
            if m:
                count = eval_expr(m.group(3), self.problem, "%s:%d" % (self.path, n))
                lo, hi = (float(m.group(5)), float(m.group(6))) if m.group(5) else (-1.0, 1.0)
                if m.group(2) not in NUMPY_BITS:
                    raise ValueError("%s:%d: type %s not handled" % (self.path, n, m.group(2)))
                out.append({"name": m.group(1), "type": m.group(2), "count": count,
                            "dir": m.group(4), "lo": lo, "hi": hi})
            elif s:
                value = eval_expr(s.group(2), self.problem, "%s:%d" % (self.path, n))
                out.append({"name": s.group(1), "type": "int", "value": value})
            else:
                raise ValueError("%s:%d: argument form not handled: %s" % (self.path, n, text))
        return out

    def _verify(self):
        outs = [a for a in self.args if a.get("dir") in ("out", "inout")]
        rtol, atol = TOLERANCE.get(outs[0]["type"], (0.0, 0.0)) if outs else (0.0, 0.0)
        for n, text in self.pragmas:
            if text.startswith("verify "):
                r = re.search(r"rtol\(([^)]*)\)", text)
                a = re.search(r"atol\(([^)]*)\)", text)
                rtol = float(r.group(1)) if r else rtol
                atol = float(a.group(1)) if a else atol
        return rtol, atol

    def python_constraints(self):
        """The constraints as Python over the parameters, problem values put in."""
        out = []
        for c in self.constraints:
            e = c.replace("&&", " and ").replace("||", " or ")
            e = re.sub(r"!(?!=)", " not ", e)
            for p, v in self.problem.items():
                e = re.sub(r"\b%s\b" % re.escape(p), str(v), e)
            out.append(e)
        return out

    def inputs(self, seed):
        """Host arrays of the arguments: inputs uniform in their range (bf16
        as its bits), outputs zero, scalars as numpy int32."""
        rng = np.random.default_rng(seed)
        arrays = []
        for a in self.args:
            if a["type"] == "int":
                arrays.append(np.int32(a["value"]))
            elif a["dir"] == "out":
                arrays.append(np.zeros(a["count"], dtype=NUMPY_BITS[a["type"]]))
            else:
                x = rng.uniform(a["lo"], a["hi"], a["count"]).astype(np.float32)
                arrays.append(f32_to_bf16(x) if a["type"] == "bf16"
                              else x.astype(NUMPY_BITS[a["type"]]))
        return arrays


def pragma_lines(source):
    """(line number, text after '#pragma kt') of each directive, continuations joined."""
    out = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"\s*#\s*pragma\s+kt\s+(.*)", lines[i])
        start = i + 1
        if m:
            text = m.group(1)
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i]
            text = re.sub(r"//.*$", "", text)
            text = re.sub(r"/\*.*?\*/", " ", text).strip()
            out.append((start, re.sub(r"\s+", " ", text)))
        i += 1
    return out


def parse_key(key):
    return {k: int(v) for k, v in (kv.split("=") for kv in key.split(","))}


def eval_expr(expr, names, where):
    if not re.fullmatch(r"[\w\s*+\-/()%]+", expr):
        raise ValueError("%s: expression '%s' not handled" % (where, expr))
    return int(eval(expr.replace("/", "//"), {"__builtins__": {}}, dict(names)))


def f32_to_bf16(x):
    """float32 -> bf16 bits, rounding to nearest even (NaN kept a NaN)."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), r)


def bf16_to_f32(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)
