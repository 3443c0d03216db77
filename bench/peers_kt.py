#!/usr/bin/env python3
"""peers_kt.py - Kernel Tuner on a ktc template, as a Kernel Tuner user would
run it: the kernel source is the template file itself (its parameters are
macros with #ifndef defaults, so Kernel Tuner's #defines set them), the
space is ktc's (`ktc space --json --list`: the same parameters and values,
the constraints as restriction strings), the output is checked against a
reference with answer= and a tolerance, and every configuration is compiled
and timed by Kernel Tuner itself.

  peers_kt.py TEMPLATE SPACE_JSON --strategy brute_force|bayes_opt
      [--budget N] [--time-limit S] [--seed S] [--lang auto|CUPY|NVCUDA]
      --cache FILE --meta FILE

--lang auto (the default) takes CuPy's backend, else cuda-python's, the
first that runs the reference. The reference is the template's default
configuration run once by Kernel
Tuner's run_kernel (ktc's reference too). The check is Kernel Tuner's
answer= with a verify= function that reads bf16 bits as float32 (numpy has
no bf16) and compares with np.allclose at the template's tolerance (ktc's
for bf16: rtol 0.02, atol 0.01). Kernel Tuner writes each result to its
cache file as it finishes; bench/peers.sh stops a run that outlasts its
limit and reads that file, so a cut brute-force run still counts.
META gets the phases' wall-clock times (epoch seconds) and the outcome.
"""
import argparse
import json
import os
import sys
import time

T_START = time.time()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers_time import cuda_include  # noqa: E402 (the one toolkit lookup)


def write_meta(path, meta):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("template")
    ap.add_argument("space")
    ap.add_argument("--strategy", required=True)
    ap.add_argument("--budget", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lang", default="auto")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--meta", required=True)
    a = ap.parse_args()
    meta = {"tool": "kernel_tuner", "strategy": a.strategy, "budget": a.budget,
            "time_limit": a.time_limit, "seed": a.seed, "lang": a.lang,
            "t_process": T_START, "cache": os.path.basename(a.cache)}
    write_meta(a.meta, meta)

    try:
        run(a, meta)
        meta["outcome"] = "finished"
    except Exception as e:  # the run's failure is a result too
        meta["outcome"] = "error: %s: %s" % (type(e).__name__, str(e)[:500])
    meta["t_end"] = time.time()
    write_meta(a.meta, meta)
    return 0 if meta["outcome"] == "finished" else 1


def run(a, meta):
    import numpy as np
    import kernel_tuner
    from importlib.metadata import version
    import peers_tpl
    meta["version"] = version("kernel_tuner")
    meta["t_imported"] = time.time()

    tpl = peers_tpl.Template(a.template, a.space)
    grid_size, grid_div = tpl.grid
    problem_size = tpl.problem[grid_size]
    grid_div_x = [grid_div] if grid_div else None
    block_names = [tpl.block]
    options = ["--std=c++17", "--diag-suppress=161"] + ["-I" + d for d in cuda_include()]
    arguments = tpl.inputs(a.seed)
    outs = [i for i, x in enumerate(tpl.args) if x.get("dir") in ("out", "inout")]

    errors = []
    for lang in (["CUPY", "NVCUDA"] if a.lang == "auto" else [a.lang]):
        try:
            ref = kernel_tuner.run_kernel(tpl.kernel, tpl.source, problem_size, arguments,
                                          tpl.default, grid_div_x=grid_div_x, lang=lang,
                                          compiler_options=options,
                                          block_size_names=block_names, quiet=True)
            break
        except Exception as e:  # this backend does not work here: the next one
            errors.append("%s: %s: %s" % (lang, type(e).__name__, str(e)[:300]))
    else:
        raise RuntimeError("no Kernel Tuner backend ran the default configuration: "
                           + "; ".join(errors))
    meta["lang"] = lang
    meta["lang_errors"] = errors
    answer = [ref[i] if i in outs else None for i in range(len(arguments))]
    types = [x.get("type") for x in tpl.args]
    as_f32 = [peers_tpl.bf16_to_f32(ref[i]) if types[i] == "bf16" else None
              for i in range(len(arguments))]
    rtol = tpl.rtol

    def verify(answer, result, atol):
        for i in outs:
            exp = as_f32[i] if as_f32[i] is not None else answer[i]
            got = peers_tpl.bf16_to_f32(result[i]) if types[i] == "bf16" else result[i]
            if not np.allclose(exp, got.reshape(exp.shape), rtol=rtol, atol=atol):
                return False
        return True

    meta["t_reference"] = time.time()
    meta["space"] = len(tpl.configs)
    meta["restrictions"] = tpl.python_constraints()
    write_meta(a.meta, meta)

    strategy_options = {}
    if a.budget:
        strategy_options["max_fevals"] = a.budget
    if a.time_limit:
        strategy_options["time_limit"] = a.time_limit
    results, env = kernel_tuner.tune_kernel(
        tpl.kernel, tpl.source, problem_size, arguments, tpl.params,
        grid_div_x=grid_div_x, restrictions=tpl.python_constraints() or None,
        answer=answer, atol=tpl.atol, verify=verify, lang=lang,
        compiler_options=options, block_size_names=block_names,
        strategy=a.strategy, strategy_options=strategy_options or None,
        cache=a.cache, quiet=True, seed=a.seed)
    meta["t_tuned"] = time.time()
    meta["visited"] = len(results)
    meta["device"] = env.get("device_name")


if __name__ == "__main__":
    sys.exit(main())
