#!/usr/bin/env python3
"""peers_cut.py SGL OUT - the device code of SGLang's kernel files, without
PyTorch, for bench/peers_sgl.cu.

Each file of sgl-kernel/csrc the bench runs holds its kernels first and then
the host entry point that takes torch tensors. OUT/<name>.cuh is the file
up to the line that starts that entry point, verbatim, less the #include
lines of PyTorch and of sgl-kernel's own torch helpers (utils.h,
pytorch_extension_utils.h), which the device code does not use. The launch
code after the cut is restated in bench/peers_sgl.cu. A file whose marker
line or kernel is missing (another SGLang commit) is an error, not a guess.
"""
import os
import re
import sys

# file under sgl-kernel/csrc, the line the torch entry point starts at, a
# name the kept part must define
CUTS = [
    ("elementwise/activation.cu", r"^void silu_and_mul\(at::Tensor", r"T silu\("),
    ("attention/merge_attn_states.cu", r"^#define DISPATCH_BY_SCALAR_DTYPE",
     r"__global__ void merge_attn_states_kernel\("),
    ("gemm/per_token_group_quant_8bit.cu", r"^void sgl_per_token_group_quant_8bit\(",
     r"__global__ void per_token_group_quant_8bit_kernel\("),
    ("gemm/per_token_group_quant_8bit_v2.cu", r"^void sgl_per_token_group_quant_8bit_v2\(",
     r"__global__ void per_token_group_quant_8bit_kernel\("),
]
TORCH_INCLUDE = re.compile(
    r'^#include [<"](ATen/|c10/|torch/|utils\.h|pytorch_extension_utils\.h)')


def cut(src, marker, must):
    lines = src.splitlines(keepends=True)
    for n, line in enumerate(lines):
        if re.match(marker, line):
            break
    else:
        raise ValueError("no line matches '%s'" % marker)
    kept = [l for l in lines[:n] if not TORCH_INCLUDE.match(l)]
    text = "".join(kept)
    if not re.search(must, text):
        raise ValueError("the part before line %d lacks '%s'" % (n + 1, must))
    return text, n


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: peers_cut.py SGL OUT\n")
        return 2
    sgl, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    for rel, marker, must in CUTS:
        path = os.path.join(sgl, "sgl-kernel", "csrc", rel)
        try:
            with open(path) as f:
                text, n = cut(f.read(), marker, must)
        except (OSError, ValueError) as e:
            sys.stderr.write("peers_cut: %s: %s\n" % (path, e))
            return 1
        name = os.path.splitext(os.path.basename(rel))[0] + ".cuh"
        with open(os.path.join(out, name), "w") as f:
            f.write("// %s lines 1-%d, torch includes left out (bench/peers_cut.py)\n"
                    % (rel, n))
            f.write("#pragma once\n")
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
