#!/usr/bin/env python3
"""peers_time.py - the one neutral harness of bench/peers.sh: it times what
ktc, Kernel Tuner and SGLang produced the same way, with neither tool's code.

  peers_time.py problems
      the kernels and shapes of the SGLang comparison, one line each, for
      the driver (sample, kernel, shape name, ktc's -p options)
  peers_time.py space TEMPLATE SPACE_JSON --run NAME=FILE... --out OUT.json
      every configuration of the template's space (`ktc space --json
      --list`), compiled with NVRTC (cuda.bindings, 16 processes), checked
      against the default configuration and timed; then the best
      configuration each tool run found (FILE: a ktc T4 file or a Kernel
      Tuner cache) timed again, round-robin
  peers_time.py kernels --sgl LIB --ktc DIR --out OUT.json [--shapes T,...]
      SGLang's kernels (LIB, bench/peers_sgl.cu) and ktc's tuned samples
      (DIR/<kernel>-T<T>.so, bench/peers_ktc.cu) on the same inputs, outputs
      compared with a float reference, times, bytes moved, and the copy
      bandwidth

How everything is timed: one launch after a write of twice the L2 size (the
inputs come from DRAM, as in a serving step whose previous kernel touched
other data), CUDA events around the launch alone, the median of all runs;
the implementations of one shape run in alternating rounds, so a drift of
the clock hits all of them alike. Before the L2 write a GPU spin of about
100 µs is queued (--spin-us): while the GPU spins, the host queues the
write, the start event, the launch and the end event, so the GPU never
waits for the host between the two events and they time the kernel alone,
not the host's call. Without it, a host slower per launch than the L2 write
(Python, ctypes, the launch itself) leaves the GPU idle after the start
event, and that wait is counted. `kernels` also keeps the host's time of
each call (host_us) and times every shape once more without the spin, as
this harness did before (nospin), so a slow host is shown, not hidden.
"""
import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# The SGLang comparison: the sample, its kernel, the problem values besides
# T (the sizes bench/samples.sh tunes at), bytes moved per token.
KERNELS = [
    ("silu_and_mul", "silu_and_mul_kernel", {"D": 14336}),
    ("fused_add_rmsnorm", "fused_add_rmsnorm_kernel", {"D": 7168}),
    ("merge_attn_states", "merge_attn_states_kernel", {"H": 32, "HD": 128}),
    ("per_token_group_quant_fp8", "per_token_group_quant_fp8_kernel", {"D": 7168}),
]
SHAPES = [1, 16, 64, 128, 256, 512, 1024, 4096, 16384]
EPS_RMS = 1e-6
GROUP = 128
FP8_MAX = 448.0
EPS_QUANT = 1e-10
ROUNDS = 5
# A GPU spin of the given clock cycles (clock64), for the `space` harness,
# which has CuPy and not torch.cuda._sleep.
SPIN_SRC = r"""
extern "C" __global__ void peers_spin(long long cycles)
{
	const long long t0 = clock64();
	while (clock64() - t0 < cycles) {
	}
}
"""


def bytes_moved(sample, T, p):
    if sample == "silu_and_mul":
        return 3 * T * p["D"] * 2
    if sample == "fused_add_rmsnorm":
        return 4 * T * p["D"] * 2 + p["D"] * 2
    if sample == "merge_attn_states":
        return 3 * T * p["H"] * p["HD"] * 2 + 3 * T * p["H"] * 4
    return T * p["D"] * 2 + T * p["D"] + T * p["D"] // GROUP * 4


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def spin_cycles(sleep, elapsed_us, us):
    """Cycles of the GPU spin SLEEP(n) that last about US µs at the clock
    the GPU runs at now (the shortest of 5 runs after one to raise the
    clock); ELAPSED_US(f) is f's time on the GPU between two events."""
    n = 1 << 22
    elapsed_us(lambda: sleep(n))
    t = min(elapsed_us(lambda: sleep(n)) for _ in range(5))
    return max(1, int(n * us / t))


def cmd_problems(a):
    shapes = [int(t) for t in a.shapes.split(",")] if a.shapes else SHAPES
    for T in shapes:
        for sample, kernel, p in KERNELS:
            opts = " ".join("-p %s=%d" % kv for kv in [("T", T)] + sorted(p.items()))
            print(sample, kernel, "T%d" % T, opts)
    return 0


# ---- space: Kernel Tuner and ktc on one template ----

def compile_one(job):
    """NVRTC of one configuration: (key, cubin path or None, lowered name, log)."""
    from cuda.bindings import nvrtc
    src, name, opts, key, path = job

    def ok(r):
        return r[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS

    err, prog = nvrtc.nvrtcCreateProgram(src, b"template.kt.cu", 0, [], [])
    if not ok((err,)):
        return key, None, None, "nvrtcCreateProgram: %s" % err
    nvrtc.nvrtcAddNameExpression(prog, name.encode())
    res = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    err, n = nvrtc.nvrtcGetProgramLogSize(prog)
    log = b" " * n
    nvrtc.nvrtcGetProgramLog(prog, log)
    if not ok(res):
        return key, None, None, log.decode(errors="replace")[:2000]
    err, n = nvrtc.nvrtcGetCUBINSize(prog)
    cubin = b" " * n
    nvrtc.nvrtcGetCUBIN(prog, cubin)
    err, lowered = nvrtc.nvrtcGetLoweredName(prog, name.encode())
    with open(path, "wb") as f:
        f.write(cubin)
    return key, path, lowered.decode(), None


def cuda_include():
    """The toolkit's include folders: CUDA_HOME, else nvcc's, else /usr/local/cuda."""
    import shutil
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if not home and shutil.which("nvcc"):
        home = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("nvcc"))))
    home = home or "/usr/local/cuda"
    return [d for d in (os.path.join(home, "include"), os.path.join(home, "include", "cccl"))
            if os.path.isdir(d)]


def compile_space(tpl, arch, workdir, jobs):
    import multiprocessing as mp
    inc = cuda_include()
    base = ["--gpu-architecture=sm_%s" % arch, "--std=c++17", "--diag-suppress=161"]
    base += ["-I" + d for d in inc]
    work = []
    src = tpl.source.encode()
    for i, c in enumerate(tpl.configs):
        opts = [o.encode() for o in base + ["-D%s=%d" % kv for kv in c.items()]]
        work.append((src, tpl.kernel, opts, tpl.key(c), os.path.join(workdir, "c%d.cubin" % i)))
    with mp.get_context("fork").Pool(jobs) as pool:
        return pool.map(compile_one, work), base


def cupy_close(cp, ref, out, rtol, atol):
    return bool(cp.all(cp.abs(out - ref) <= atol + rtol * cp.abs(ref)).item())


def cmd_space(a):
    import peers_report
    import peers_tpl
    tpl = peers_tpl.Template(a.template, a.space)
    runs = {}
    for item in a.run:
        name, path = item.split("=", 1)
        run = peers_report.load_run(path)
        if run and run["best"]:
            runs[name] = run["best"]["key"]
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="peers-space-")
    compiled, options = compile_space(tpl, a.arch, work, a.jobs)
    t_compile = time.time() - t0
    print("peers_time: compiled %d configurations in %.1f s" % (len(compiled), t_compile), flush=True)

    import cupy as cp
    import numpy as np
    dev = cp.cuda.Device(0)
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    l2 = int(props["l2CacheSize"])
    flush = cp.empty(2 * l2, dtype=cp.uint8)
    host = tpl.inputs(a.seed)
    args = [cp.asarray(x) if isinstance(x, np.ndarray) else x for x in host]
    outs = [i for i, x in enumerate(tpl.args) if x.get("dir") in ("out", "inout")]
    bf16 = [tpl.args[i]["type"] == "bf16" for i in range(len(args))]
    kernels = {}
    for key, path, lowered, log in compiled:
        if path:
            kernels[key] = cp.RawModule(path=path).get_function(lowered)
    spin_kernel = cp.RawKernel(SPIN_SRC, "peers_spin")

    def sleep(n):
        spin_kernel((1,), (1,), (np.int64(n),))

    def gpu_us(f):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        f()
        e.record()
        e.synchronize()
        return cp.cuda.get_elapsed_time(s, e) * 1e3

    spin = spin_cycles(sleep, gpu_us, a.spin_us) if a.spin_us > 0 else 0

    def f32(i):
        x = args[i]
        return (x.astype(cp.uint32) << 16).view(cp.float32) if bf16[i] else x.astype(cp.float32)

    def launch(key):
        g, b = tpl.launch(peers_tpl.parse_key(key))
        kernels[key]((g,), (b,), tuple(args))

    def timed(key, reps):
        evs = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(reps)]
        for i, (s, e) in enumerate(evs):
            if spin:
                sleep(spin)
            flush.fill(i & 0xFF)
            s.record()
            launch(key)
            e.record()
        evs[-1][1].synchronize()
        return [cp.cuda.get_elapsed_time(s, e) * 1e3 for s, e in evs]

    default = tpl.key(tpl.default)
    launch(default)
    ref = [f32(i).copy() for i in outs]
    landscape = {}
    for key, path, lowered, log in compiled:
        if key not in kernels:
            landscape[key] = {"status": "compile", "message": log}
            continue
        for i in outs:
            args[i].view(cp.uint8).fill(0xFF)  # NaN in every float type
        try:
            launch(key)
            cp.cuda.Device().synchronize()
        except Exception as e:  # a launch refused: too many resources
            landscape[key] = {"status": "runtime", "message": str(e)[:300]}
            continue
        good = all(cupy_close(cp, r, f32(i), tpl.rtol, tpl.atol) for r, i in zip(ref, outs))
        ts = sorted(timed(key, a.reps))
        landscape[key] = {"status": "correct" if good else "correctness",
                          "us": ts[len(ts) // 2]}
    t_land = time.time() - t0 - t_compile
    print("peers_time: timed %d configurations in %.1f s" % (len(landscape), t_land), flush=True)

    keys = sorted(set(runs.values()))
    samples = {k: [] for k in keys if k in kernels}
    for r in range(ROUNDS):
        for k in samples:
            samples[k] += timed(k, a.best_reps // ROUNDS)
    best = {}
    for name, k in runs.items():
        ts = sorted(samples.get(k, []))
        best[name] = {"key": k, "us": ts[len(ts) // 2] if ts else None, "runs": len(ts)}
    out = {"device": cp.cuda.runtime.getDeviceProperties(dev.id)["name"].decode(),
           "l2_bytes": l2, "nvrtc_options": options, "arch": a.arch,
           "reps": a.reps, "best_reps": a.best_reps, "compile_s": t_compile,
           "spin_cycles": spin, "spin_us": gpu_us(lambda: sleep(spin)) if spin else 0,
           "time_s": t_land, "landscape": landscape, "best": best}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    return 0


# ---- kernels: SGLang against ktc's tuned samples ----

def close_fraction(torch, out, ref, rtol, atol):
    out, ref = out.float().double().flatten(), ref.double().flatten()
    ok = (out - ref).abs() <= atol + rtol * ref.abs()
    ok &= ~(out.isnan() & ~ref.isnan())
    return ok.double().mean().item()


class Bench:
    """One kernel at one T: inputs, a float reference, the implementations."""

    def __init__(self, torch, sample, T, p, seed):
        self.torch, self.sample, self.T, self.p = torch, sample, T, p
        g = torch.Generator(device="cuda").manual_seed(seed)
        dev = "cuda"

        def uni(shape, lo, hi, dtype):
            return (torch.rand(shape, generator=g, device=dev) * (hi - lo) + lo).to(dtype)

        bf = torch.bfloat16
        if sample == "silu_and_mul":
            D = p["D"]
            self.inputs = {"in": uni((T, 2 * D), -4, 4, bf)}
            self.outputs = {"out": torch.empty((T, D), dtype=bf, device=dev)}
        elif sample == "fused_add_rmsnorm":
            D = p["D"]
            self.inputs = {"in": uni((T, D), -1, 1, bf), "residual": uni((T, D), -1, 1, bf),
                           "w": uni((D,), -1, 1, bf)}
            self.outputs = {}
        elif sample == "merge_attn_states":
            H, HD = p["H"], p["HD"]
            self.inputs = {"va": uni((T, H, HD), -1, 1, bf), "sa": uni((T, H), -6, 6, torch.float32),
                           "vb": uni((T, H, HD), -1, 1, bf), "sb": uni((T, H), -6, 6, torch.float32)}
            self.outputs = {"out": torch.empty((T, H, HD), dtype=bf, device=dev),
                            "lse": torch.empty((T, H), dtype=torch.float32, device=dev)}
        else:
            D = p["D"]
            self.inputs = {"in": uni((T, D), -8, 8, bf)}
            self.outputs = {"q": torch.empty((T, D), dtype=torch.float8_e4m3fn, device=dev),
                            "s": torch.empty((T, D // GROUP), dtype=torch.float32, device=dev)}
        # in-place kernels (fused_add_rmsnorm) get fresh copies to check
        self.pristine = {k: v.clone() for k, v in self.inputs.items()}

    def reference(self):
        torch, p = self.torch, self.p
        x = {k: v.double() for k, v in self.pristine.items()}
        if self.sample == "silu_and_mul":
            a, b = x["in"][:, :p["D"]], x["in"][:, p["D"]:]
            return {"out": (a / (1 + torch.exp(-a)) * b, 2e-2, 1e-2)}
        if self.sample == "fused_add_rmsnorm":
            s = x["in"] + x["residual"]
            r = torch.rsqrt((s * s).mean(dim=1, keepdim=True) + EPS_RMS)
            return {"in": (s * r * x["w"], 2e-2, 1e-2), "residual": (s, 2e-2, 1e-2)}
        if self.sample == "merge_attn_states":
            sa = torch.where(x["sa"].isinf(), -torch.inf, x["sa"])
            sb = torch.where(x["sb"].isinf(), -torch.inf, x["sb"])
            m = torch.maximum(sa, sb)
            ea, eb = torch.exp(sa - m), torch.exp(sb - m)
            wa, wb = (ea / (ea + eb)).unsqueeze(-1), (eb / (ea + eb)).unsqueeze(-1)
            return {"out": (x["va"] * wa + x["vb"] * wb, 2e-2, 1e-2),
                    "lse": (torch.log(ea + eb) + m, 1e-4, 1e-5)}
        g = x["in"].reshape(self.T, -1, GROUP)
        amax = g.abs().amax(dim=-1, keepdim=True).clamp(min=EPS_QUANT)
        scale = amax / FP8_MAX
        q = (g / scale).clamp(-FP8_MAX, FP8_MAX).reshape(self.T, -1)
        return {"q": (q, 0.125, 1.0 / 64), "s": (scale.reshape(self.T, -1), 1e-5, 0.0)}

    def results(self):
        """The outputs of the last run, by name (in-place ones included)."""
        out = dict(self.outputs)
        if self.sample == "fused_add_rmsnorm":
            out = {"in": self.inputs["in"], "residual": self.inputs["residual"]}
        return out

    def restore(self):
        for k, v in self.pristine.items():
            self.inputs[k].copy_(v)


def sgl_call(lib, sample, b, variant, stream):
    import ctypes as C
    T, p, i, o = b.T, b.p, b.inputs, b.outputs
    ptr = lambda t: C.c_void_p(t.data_ptr())
    s = C.c_void_p(stream)
    if sample == "silu_and_mul":
        return lib.sgl_silu_and_mul(ptr(o["out"]), ptr(i["in"]), T, p["D"], s)
    if sample == "fused_add_rmsnorm":
        return lib.sgl_fused_add_rmsnorm(ptr(i["in"]), ptr(i["residual"]), ptr(i["w"]), T, p["D"],
                                         C.c_float(EPS_RMS), 1, s)
    if sample == "merge_attn_states":
        return lib.sgl_merge_state_v2(ptr(o["out"]), ptr(o["lse"]), ptr(i["va"]), ptr(i["sa"]),
                                      ptr(i["vb"]), ptr(i["sb"]), T, p["H"], p["HD"], s)
    fn = lib.sgl_per_token_group_quant_8bit_v2 if variant == "v2" else lib.sgl_per_token_group_quant_8bit
    return fn(ptr(i["in"]), ptr(o["q"]), ptr(o["s"]), T, p["D"], GROUP, C.c_float(EPS_QUANT),
              C.c_float(-FP8_MAX), C.c_float(FP8_MAX), s)


def ktc_call(lib, sample, b, stream):
    import ctypes as C
    T, p, i, o = b.T, b.p, b.inputs, b.outputs
    ptr = lambda t: C.c_void_p(t.data_ptr())
    s = C.c_void_p(stream)
    if sample == "silu_and_mul":
        return lib.ktc_silu_and_mul(ptr(o["out"]), ptr(i["in"]), T, p["D"], s)
    if sample == "fused_add_rmsnorm":
        return lib.ktc_fused_add_rmsnorm(ptr(i["in"]), ptr(i["residual"]), ptr(i["w"]), T, p["D"],
                                         C.c_float(EPS_RMS), s)
    if sample == "merge_attn_states":
        return lib.ktc_merge_attn_states(ptr(o["out"]), ptr(o["lse"]), ptr(i["va"]), ptr(i["sa"]),
                                         ptr(i["vb"]), ptr(i["sb"]), T, p["H"], p["HD"], s)
    return lib.ktc_per_token_group_quant_fp8(ptr(i["in"]), ptr(o["q"]), ptr(o["s"]), T, p["D"], s)


class Timer:
    """The harness's one way to time a call on the GPU: SPIN cycles of
    torch.cuda._sleep (none when 0), a write of the L2 flush buffer, the
    start event, the call, the end event; REPS times, then one wait."""

    def __init__(self, torch, flush, spin):
        self.torch, self.flush, self.spin = torch, flush, spin

    def run(self, fn, reps, spin=True):
        """GPU µs of each call, the host's µs of each call (fn alone) and
        of each whole iteration, and the set of fn's return values."""
        torch, now = self.torch, time.perf_counter
        evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
               for _ in range(reps)]
        rcs, host, it = set(), [], []
        for i, (s, e) in enumerate(evs):
            t0 = now()
            if spin and self.spin:
                torch.cuda._sleep(self.spin)
            self.flush.fill_(i & 0xFF)
            s.record()
            t1 = now()
            rcs.add(fn())
            t2 = now()
            e.record()
            it.append((now() - t0) * 1e6)
            host.append((t2 - t1) * 1e6)
        torch.cuda.synchronize()
        return [s.elapsed_time(e) * 1e3 for s, e in evs], host, it, rcs


def elapsed_us(torch, f, spin=0):
    """f's time on the GPU between two events (after SPIN cycles of spin)."""
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    if spin:
        torch.cuda._sleep(spin)
    s.record()
    f()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) * 1e3


def copy_bandwidth(timer):
    """Bytes read plus written per second of a 512 MiB device-to-device copy."""
    torch = timer.torch
    n = 512 << 20
    src = torch.empty(n, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)

    def copy():
        dst.copy_(src)
        return 0

    return 2 * n / (median(timer.run(copy, 20)[0]) * 1e-6)


def time_impls(timer, impls, row, reps):
    """Each implementation REPS times with the spin and REPS times without,
    in ROUNDS alternating rounds; medians into ROW's impls."""
    got = {n: {"us": [], "host": [], "nospin": [], "nospin_host": [], "nospin_iter": []}
           for n, _ in impls}
    for r in range(ROUNDS):
        for name, fn in impls:
            g = got[name]
            ts, host, it, rcs = timer.run(fn, reps // ROUNDS)
            g["us"] += ts
            g["host"] += host
            if rcs != {0}:
                row["impls"][name]["rc"] = sorted(rcs)
            if timer.spin:
                ts, host, it, rcs = timer.run(fn, reps // ROUNDS, spin=False)
                g["nospin"] += ts
                g["nospin_host"] += host
                g["nospin_iter"] += it
    for name, g in got.items():
        im = row["impls"][name]
        im.update({"us": median(g["us"]), "host_us": median(g["host"]), "runs": len(g["us"])})
        if g["nospin"]:
            im["nospin"] = {"us": median(g["nospin"]), "host_us": median(g["nospin_host"]),
                            "iter_us": median(g["nospin_iter"])}


def check_impls(torch, b, impls, row):
    """One run of each implementation on poisoned outputs, compared with
    the float reference; those that ran keep a place in ROW."""
    ref = b.reference()
    for name, fn in impls:
        b.restore()
        for t in b.outputs.values():
            t.view(torch.uint8).fill_(0xFF)
        rc = fn()
        torch.cuda.synchronize()
        got = b.results()
        if rc != 0:  # a launch error: its message in the row, no time
            row["impls"][name] = {"rc": rc, "error": "launch error %d" % rc}
            continue
        row["impls"][name] = {"rc": rc, "match": {
            k: close_fraction(torch, got[k], r, rt, at) for k, (r, rt, at) in ref.items()}}
    b.restore()
    return [(n, fn) for n, fn in impls if "error" not in row["impls"][n]]


def cmd_kernels(a):
    import ctypes as C
    import torch
    shapes = [int(t) for t in a.shapes.split(",")] if a.shapes else SHAPES
    samples = a.samples.split(",") if a.samples else [k[0] for k in KERNELS]
    torch.cuda.init()
    props = torch.cuda.get_device_properties(0)
    l2 = int(getattr(props, "L2_cache_size", 64 << 20))
    flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
    stream = torch.cuda.current_stream().cuda_stream
    sgl = C.CDLL(a.sgl)
    spin = spin_cycles(torch.cuda._sleep, lambda f: elapsed_us(torch, f),
                       a.spin_us) if a.spin_us > 0 else 0
    timer = Timer(torch, flush, spin)
    out = {"device": props.name, "l2_bytes": l2, "torch": torch.__version__, "rows": [],
           "reps": a.reps, "rounds": ROUNDS, "spin_cycles": spin,
           "spin_us": elapsed_us(torch, lambda: torch.cuda._sleep(spin)) if spin else 0}
    out["copy_bw"] = copy_bandwidth(timer)
    out["flush_us"] = median([elapsed_us(torch, lambda i=i: flush.fill_(i & 0xFF), spin)
                              for i in range(20)])
    print("peers_time: copy bandwidth %.0f GB/s; L2 write %.1f us; spin %d cycles, %.1f us"
          % (out["copy_bw"] / 1e9, out["flush_us"], spin, out["spin_us"]), flush=True)

    # the two events alone, and an empty kernel: what the floor is made of
    row = {"impls": {"events": {}, "empty": {}}}
    time_impls(timer, [("events", lambda: 0),
                       ("empty", lambda: sgl.peers_empty(C.c_void_p(stream)))], row, a.reps)
    ev, e = row["impls"]["events"], row["impls"]["empty"]
    out["events_us"], out["events_nospin"] = ev["us"], ev.get("nospin")
    out["empty_us"], out["empty_host_us"] = e["us"], e["host_us"]
    out["empty_nospin"] = e.get("nospin")
    print("peers_time: events alone %.2f us; empty kernel %.2f us (host %.2f us a call)"
          % (out["events_us"], out["empty_us"], out["empty_host_us"]), flush=True)
    for sample, kernel, p in KERNELS:
        if sample not in samples:
            continue
        for T in shapes:
            out["rows"].append(kernels_row(a, torch, sgl, stream, timer, sample, kernel, p, T))
            write_json(a.out, out)  # so far: a run stopped from outside keeps it
    if spin:
        out["spin_us_end"] = elapsed_us(torch, lambda: torch.cuda._sleep(spin))
    write_json(a.out, out)
    return 0


def kernels_row(a, torch, sgl, stream, timer, sample, kernel, p, T):
    """SGLang's and ktc's kernel SAMPLE at T: outputs checked, then timed."""
    import ctypes as C
    so = os.path.join(a.ktc, "%s-T%d.so" % (sample, T))
    impls = [("sglang", lambda b: sgl_call(sgl, sample, b, "v2", stream))]
    if sample == "per_token_group_quant_fp8":
        impls.append(("sglang v1", lambda b: sgl_call(sgl, sample, b, "v1", stream)))
    keyfile = os.path.join(a.ktc, "%s-T%d.key" % (sample, T))
    key = open(keyfile).read().strip() if os.path.exists(keyfile) else None
    if os.path.exists(so):
        lib = C.CDLL(so)
        impls.append(("ktc", lambda b: ktc_call(lib, sample, b, stream)))
    row = {"sample": sample, "kernel": kernel, "T": T, "problem": p,
           "bytes": bytes_moved(sample, T, p), "ktc_key": key, "impls": {}}
    try:
        b = Bench(torch, sample, T, p, a.seed)
        calls = [(n, lambda fn=fn: fn(b)) for n, fn in impls]
        calls = check_impls(torch, b, calls, row)
        time_impls(timer, calls, row, a.reps)
        del b
    except Exception as e:  # a shape that fails is a result too
        row["error"] = "%s: %s" % (type(e).__name__, str(e)[:300])
    print("peers_time: %-26s T=%-6d %s" % (sample, T, "  ".join(
        "%s %.2f us (host %.1f us a call; %.2f us without the spin)"
        % (n, v["us"], v["host_us"], (v.get("nospin") or {}).get("us") or 0)
        for n, v in row["impls"].items()
        if isinstance(v.get("us"), float)) or row.get("error", "")), flush=True)
    return row


def write_json(path, obj):
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("problems")
    p.add_argument("--shapes", default="")
    p = sub.add_parser("space")
    p.add_argument("template")
    p.add_argument("space")
    p.add_argument("--run", action="append", default=[])
    p.add_argument("--out", required=True)
    p.add_argument("--arch", default="90a")
    p.add_argument("--jobs", type=int, default=16)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--best-reps", type=int, default=100)
    p.add_argument("--spin-us", type=float, default=100.0,
                   help="GPU spin queued before each timed launch (0: none)")
    p = sub.add_parser("kernels")
    p.add_argument("--sgl", required=True)
    p.add_argument("--ktc", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shapes", default="")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reps", type=int, default=100)
    p.add_argument("--samples", default="", help="only these samples (comma-separated)")
    p.add_argument("--spin-us", type=float, default=100.0,
                   help="GPU spin queued before each timed launch (0: none)")
    a = ap.parse_args()
    return {"problems": cmd_problems, "space": cmd_space, "kernels": cmd_kernels}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
