#!/usr/bin/env python3
"""fill_golden.py TEMPLATE OUT - a golden's annotated template with its
`ktc: complete` lines filled with test values, for `ktc check` on a GPU
(tests/gpu/golden_check.sh); prints the kernels' names, one a line.

Problem sizes get 1, 33, 1000, 100000 (a name in PROBLEMS below its own),
scalar arguments 3, a histogram's bins 256 elements, other buffers `n`
elements: right for the goldens golden_check.sh names, not in general.
"""
import re
import sys

PROBLEMS = {"blocks": "1, 4, 132", "waves": "1, 2",
            "rows": "1, 31, 32, 33, 256, 1000, 5000",
            "segs": "1, 31, 32, 33, 256, 1000, 5000"}
LENGTHS = {"counts": "rows", "ptr": "rows + 1", "bins": "256", "y": "n + 1"}


def fill(m):
    line = m.group(1)
    p = re.match(r"#pragma kt problem (\w+) values\(\?\)", line)
    if p:
        v = PROBLEMS.get(p.group(1), "1, 33, 1000, 100000")
        return f"#pragma kt problem {p.group(1)} values({v})"
    line = re.sub(r"(float|int) = \?$", r"\1 = 3", line)
    a = re.match(r"#pragma kt arg (\w+) ", line)
    n = LENGTHS.get(a.group(1), "n") if a else "n"
    return line.replace("[?]", f"[{n}]")


def main(src, dst):
    text = open(src).read()
    out = re.sub(r"^// ktc: complete and uncomment: (.*)$", fill, text,
                 flags=re.M)
    open(dst, "w").write(out)
    for k in re.findall(r"__global__ void\s*(?:#if[^\n]*\n[^\n]*\n#endif\s*)?"
                        r"(\w+)\s*\(", out):
        print(k)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
