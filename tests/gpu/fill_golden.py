#!/usr/bin/env python3
"""fill_golden.py TEMPLATE OUT - a golden's annotated template with its
`ktc: complete` lines filled with test values, for `ktc check` on a GPU
(tests/gpu/golden_check.sh); prints the kernels' names, one a line.

Problem sizes get 1, 33, 1000, 100000 (a name in PROBLEMS below its own:
a row's length `d` at most 4099, so that a row fits shared memory),
scalar arguments 3, a histogram's bins 256 elements, other buffers `n`
elements (of float where the type is asked for), a kernel template's arguments those TEMPLATES gives its
kernel: right for the goldens golden_check.sh names, not in general.
"""
import re
import sys

PROBLEMS = {"blocks": "1, 4, 132", "waves": "1, 2",
            "rows": "1, 31, 32, 33, 256, 1000, 5000",
            "segs": "1, 31, 32, 33, 256, 1000, 5000",
            "d": "1, 33, 1000, 4099",
            "heads": "1, 8, 33", "dim": "2, 64, 128, 1002",
            "groups": "1, 3, 7, 64", "hidden": "128, 384, 7168",
            "num_tokens": "1, 3, 1000", "split": "1",
            "width": "1, 33, 1000", "group_size": "64, 128",
            "n_group": "1, 8", "threads": "32, 96, 1024",
            "src_ne_0": "1, 33, 1000, 4099", "src_ne_1": "1, 31, 1000",
            "sh_rows": "1, 33, 1000", "sh_cols": "1, 7, 64",
            "w": "1, 33, 1000", "h": "1, 7, 1000", "m": "1, 7, 100",
            "elems": "8, 40, 1000, 100000", "tokens": "1, 3, 1000"}
# preconditions the host code keeps and the template must say, so that
# `ktc check`'s unchecked size (half of each problem, odd) keeps them
CONSTRAINTS = {"group_quant": ["hidden % group_size == 0",
                               "group_size % 8 == 0"]}
TEMPLATES = {"act": '"float", "Act::kSilu"', "copy_rows": '1, "int"',
             "pair_sum": '"float", "kNone"', "noncont": '"float", 2'}
# a kernel's own lengths (char buffers read as float: bytes)
KERNEL_LENGTHS = {"noncont": {"x": "4 * n", "y": "4 * n"}}
LENGTHS = {"counts": "rows", "ptr": "rows + 1", "bins": "256", "y": "n + 1",
           "input": "num_tokens * hidden", "output_q": "num_tokens * hidden",
           "output_s": "num_tokens * hidden / group_size",
           "a": "n * 16", "b": "n * 16"}


def fill(line, probs, kernel):
    if line.startswith("#pragma kt kernel template(?)") and kernel in TEMPLATES:
        return f"#pragma kt kernel template({TEMPLATES[kernel]})"
    p = re.match(r"#pragma kt problem (\w+) values\(\?\)", line)
    if p:
        v = PROBLEMS.get(p.group(1), "1, 33, 1000, 100000")
        return f"#pragma kt problem {p.group(1)} values({v})"
    line = re.sub(r"(float|int) = \?$", r"\1 = 3", line)
    a = re.match(r"#pragma kt arg (\w+) ", line)
    own = KERNEL_LENGTHS.get(kernel, {})
    n = own.get(a.group(1), LENGTHS.get(a.group(1), "n")) if a else "n"
    # a length that names no problem of this kernel: the product of its
    # problems (the size of a kernel over rows * cols)
    if probs and not set(re.findall(r"[A-Za-z_]\w*", n)) <= set(probs):
        n = "n" if "n" in probs else " * ".join(probs)
    return line.replace("[?]", f"[{n}]").replace(" ?[", " float[")


def kernel_after(text, line):
    """The kernel whose lines hold `line`: the first one after it."""
    at = text.find(line)
    k = re.search(r"__global__ void\s*(?:#if[^\n]*\n[^\n]*\n#endif\s*)*"
                  r"(?:kt_lb_\w+\s+)?(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(", text[at:])
    return k.group(1) if k else None


def fill_all(text):
    out, probs = [], []
    for line in text.split("\n"):
        m = re.match(r"^// ktc: complete and uncomment: (.*)$", line)
        if m:
            line = fill(m.group(1), probs, kernel_after(text, line))
        p = re.match(r"#pragma kt problem (\w+) ", line)
        if p:
            probs.append(p.group(1))
        if "__global__" in line:
            probs = []
            k = re.search(r"(\w+)\s*\($", line) or re.search(
                r"__global__ void\s+(?:\w+\s+)?(\w+)\s*\(", line)
            if k and k.group(1) in CONSTRAINTS:
                at = len(out)
                while at > 0 and not out[at - 1].startswith("#pragma kt"):
                    at -= 1
                for c in CONSTRAINTS[k.group(1)]:
                    out.insert(at, f"#pragma kt constraint {c}")
        out.append(line)
    return "\n".join(out)


def main(src, dst):
    text = open(src).read()
    out = fill_all(text)
    open(dst, "w").write(out)
    # launch bounds as written: under `#if NAME > 0` lines, or through
    # the kt_lb_NAME macro (a kernel whose lines keep their numbers)
    for k in re.findall(r"__global__ void\s*(?:#if[^\n]*\n[^\n]*\n#endif\s*)*"
                        r"(?:kt_lb_\w+\s+)?(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(", out):
        print(k)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
