#!/usr/bin/env python3
"""mkdb.py SRC - the compile_commands.json of each sampled project under SRC.

The projects' own builds cannot run here (vLLM's and sgl-kernel's CMake
need torch installed and fetch from GitHub), so each file of the lists in
bench/real-code/ gets the command its project's build would give it: the
project's include folders, and for the torch extensions the standard and
the flags of their CMake (C++20, relaxed constexpr, extended lambdas) with
the headers of the torch, pybind11, CUTLASS and TVM-FFI wheels and of
FlashInfer at the commit sgl-kernel pins (SRC/_deps/...). One database per
project, in SRC/<project>/build/, relative to which the lists' paths are
read (SRC joined with each line).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(src):
    deps = os.path.join(src, "_deps")
    torch = [deps + "/torch/torch/include",
             deps + "/torch/torch/include/torch/csrc/api/include",
             deps + "/pybind11/pybind11/include",
             deps + "/nvidia_cutlass/cutlass_library/source/include",
             deps + "/nvidia_cutlass/cutlass_library/source/tools/util/include",
             deps + "/apache_tvm_ffi/tvm_ffi/include"]
    flashinfer = [deps + "/flashinfer/include", deps + "/flashinfer/csrc"]
    py = "/usr/include/python3.%d" % sys.version_info[1]
    if os.path.isdir(py):
        torch.append(py)
    tvm = [deps + "/apache_tvm_ffi/tvm_ffi/include"]
    ext = ["-std=c++20", "--expt-relaxed-constexpr", "--expt-extended-lambda"]
    S = src + "/cuda-samples"
    G = src + "/ggml-cuda"
    J = src + "/sglang/python/sglang/jit_kernel"
    K = src + "/sglang/sgl-kernel"
    V = src + "/vllm"
    projects = [
        ("samples", S, lambda d: [d, S + "/Common"], []),
        ("ggml", G, lambda d: [G + "/src/ggml-cuda", G + "/src",
                               G + "/include"], []),
        ("jit", J, lambda d: [d, J + "/include", J + "/csrc"] + tvm,
         ["-std=c++20", "-DSGL_CUDA_ARCH=900"]),
        ("sglk", K,
         lambda d: [d, K + "/include", K + "/csrc"] + torch + flashinfer, ext),
        ("vllm", V, lambda d: [d, V + "/csrc"] + torch, ext),
    ]
    for name, root, incs, flags in projects:
        if not os.path.isdir(root):
            continue
        lst = os.path.join(HERE, name + ".txt")
        files = [l.strip() for l in open(lst) if l.strip()]
        db = []
        for f in files:
            p = os.path.join(src, f)
            d = os.path.dirname(p)
            args = ["nvcc"] + ["-I" + i for i in incs(d)] + flags
            if p.endswith(".cuh"):
                args += ["-x", "cu"]
            args += ["-c", p, "-o", os.path.basename(p) + ".o"]
            db.append({"directory": d, "file": p, "arguments": args})
        out = os.path.join(root, "build")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "compile_commands.json"), "w") as fp:
            json.dump(db, fp, indent=1)
        print("%s: %d files, %s" % (name, len(db), out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mkdb.py SRC")
    main(os.path.abspath(sys.argv[1]))
