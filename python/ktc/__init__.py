"""ktc: launch kernels tuned by ktc from Python (PyTorch) through the ktc
runtime library, libktcrt (include/ktc/rt.h, docs/deploy.md).

    import torch, ktc
    silu = ktc.Kernel("silu_and_mul.kt.cu", wisdom="silu.wisdom.json")
    silu(out, x, T=x.shape[0], D=x.shape[1] // 2)   # on the current stream

A buffer argument takes a CUDA tensor (contiguous, of the argument's
dtype, at least as many elements as the template's count at this shape)
or a raw device pointer (an int); a scalar takes a number, or None (or
nothing, when the scalars come last) for the value the template gives at
this shape. Problem variables are keywords. The launch goes on
torch.cuda.current_stream() unless stream= says otherwise. The library
is found through $KTC_RT_LIB, next to this package, in the lib folder of
the prefix it was installed in, or on the loader's path.
"""

import ctypes
import ctypes.util
import os

__all__ = ["Error", "Runtime", "Kernel", "load_library"]


class Error(RuntimeError):
    """A failure of the ktc runtime, with its message."""


# the runtime's argument types (ktc/model.h) -> ctypes scalars
_SCALARS = {
    "f64": ctypes.c_double, "f32": ctypes.c_float,
    "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
    "i64": ctypes.c_int64, "u8": ctypes.c_uint8, "u16": ctypes.c_uint16,
    "u32": ctypes.c_uint32, "u64": ctypes.c_uint64,
}
# and -> torch dtype names (checked by name: torch is optional here)
_DTYPES = {
    "f64": "float64", "f32": "float32", "f16": "float16",
    "bf16": "bfloat16", "fp8e4m3": "float8_e4m3fn", "fp8e5m2": "float8_e5m2",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
}


def _candidates():
    env = os.environ.get("KTC_RT_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libktcrt.so.0")
    # installed as PREFIX/share/ktc/python/ktc: the library is PREFIX/lib
    prefix = os.path.normpath(os.path.join(here, "..", "..", "..", ".."))
    for lib in ("lib", "lib64"):
        yield os.path.join(prefix, lib, "libktcrt.so.0")
    found = ctypes.util.find_library("ktcrt")
    yield found or "libktcrt.so.0"


_lib = None


def load_library():
    """The runtime library (loaded once), or Error saying where it looked."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        _declare(lib)
        _lib = lib
        return lib
    raise Error("cannot load libktcrt; tried: " + ", ".join(tried) +
                " (set KTC_RT_LIB)")


def _declare(lib):
    P, S, I, C = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_char_p
    I64P = ctypes.POINTER(ctypes.c_int64)
    sigs = {
        "kt_rt_error": (C, []),
        "kt_rt_open": (I, [ctypes.POINTER(P), P]),
        "kt_rt_close": (None, [P]),
        "kt_rt_device_name": (C, [P]),
        "kt_rt_device_arch": (C, [P]),
        "kt_rt_driver_version": (I, [P]),
        "kt_rt_load": (I, [ctypes.POINTER(P), P, C, C, C]),
        "kt_rt_nproblems": (S, [P]),
        "kt_rt_problem_name": (C, [P, S]),
        "kt_rt_nargs": (S, [P]),
        "kt_rt_arg_name": (C, [P, S]),
        "kt_rt_arg_type": (C, [P, S]),
        "kt_rt_arg_is_buffer": (I, [P, S]),
        "kt_rt_arg_count": (I, [P, I64P, S, ctypes.POINTER(ctypes.c_uint64)]),
        "kt_rt_launch": (I, [P, I64P, ctypes.POINTER(P), P]),
        "kt_rt_prepare": (I, [P, I64P]),
        "kt_rt_choice": (I, [P, I64P, C, S, ctypes.POINTER(C)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


class _Options(ctypes.Structure):
    # kt_rt_options, field for field
    _fields_ = [("device", ctypes.c_int), ("cache_dir", ctypes.c_char_p),
                ("offline_name", ctypes.c_char_p),
                ("offline_arch", ctypes.c_char_p),
                ("offline_driver", ctypes.c_int)]


def _b(s):
    return None if s is None else os.fsencode(s)


def _check(lib, rc):
    if rc != 0:
        raise Error(lib.kt_rt_error().decode(errors="replace"))


class Runtime:
    """The runtime on one CUDA device (device=None: torch's current one,
    else 0). offline=(name, arch, driver) compiles for a described device
    without a GPU; it cannot launch."""

    def __init__(self, device=None, cache_dir=None, offline=None):
        self._lib = load_library()
        if device is None:
            device = _torch_device()
        o = _Options(device=device, cache_dir=_b(cache_dir))
        self._keep = o
        if offline is not None:
            name, arch, driver = offline
            o.offline_name, o.offline_arch = _b(name), _b(arch)
            o.offline_driver = int(driver)
        h = ctypes.c_void_p()
        _check(self._lib, self._lib.kt_rt_open(ctypes.byref(h),
                                               ctypes.byref(o)))
        self._h = h

    @property
    def device_name(self):
        return self._lib.kt_rt_device_name(self._h).decode()

    @property
    def arch(self):
        return self._lib.kt_rt_device_arch(self._h).decode()

    def close(self):
        if getattr(self, "_h", None):
            self._lib.kt_rt_close(self._h)
            self._h = None

    def __del__(self):
        self.close()


def _torch_device():
    try:
        import torch
    except ImportError:
        return 0
    return torch.cuda.current_device() if torch.cuda.is_available() else 0


_default = {}


class Kernel:
    """One kernel of a template, with its wisdom file (None: the
    template's defaults at every shape)."""

    def __init__(self, template, wisdom=None, kernel=None, runtime=None):
        if runtime is None:
            dev = _torch_device()
            runtime = _default.get(dev) or _default.setdefault(
                dev, Runtime(device=dev))
        self.runtime = runtime
        lib = self._lib = runtime._lib
        h = ctypes.c_void_p()
        _check(lib, lib.kt_rt_load(ctypes.byref(h), runtime._h,
                                   _b(template), _b(kernel), _b(wisdom)))
        self._h = h
        self.problems = [lib.kt_rt_problem_name(h, i).decode()
                         for i in range(lib.kt_rt_nproblems(h))]
        self.args = [(lib.kt_rt_arg_name(h, i).decode(),
                      lib.kt_rt_arg_type(h, i).decode(),
                      bool(lib.kt_rt_arg_is_buffer(h, i)))
                     for i in range(lib.kt_rt_nargs(h))]

    def _problem(self, values):
        missing = [p for p in self.problems if p not in values]
        extra = [k for k in values if k not in self.problems]
        if missing or extra:
            raise TypeError("problem variables: expected %s; missing %s, "
                            "unknown %s" % (self.problems, missing, extra))
        return (ctypes.c_int64 * max(1, len(self.problems)))(
            *[int(values[p]) for p in self.problems])

    def choice(self, **problem):
        """(configuration, why) a launch at this shape runs: why is
        'exact', 'nearest' or 'default'."""
        p = self._problem(problem)
        key, why = ctypes.create_string_buffer(512), ctypes.c_char_p()
        _check(self._lib, self._lib.kt_rt_choice(self._h, p, key, 512,
                                                 ctypes.byref(why)))
        return key.value.decode(), why.value.decode()

    def prepare(self, **problem):
        """Compiles (and loads) the shape's configuration now."""
        _check(self._lib, self._lib.kt_rt_prepare(self._h,
                                                  self._problem(problem)))

    def _count(self, p, i):
        n = ctypes.c_uint64()
        _check(self._lib, self._lib.kt_rt_arg_count(self._h, p, i,
                                                    ctypes.byref(n)))
        return n.value

    def _buffer(self, p, i, name, typ, value):
        if isinstance(value, int):
            return ctypes.c_uint64(value)  # a device pointer
        dev = getattr(value, "device", None)
        if getattr(dev, "type", None) != "cuda":
            raise TypeError("argument '%s': a CUDA tensor or a device "
                            "pointer, not %r" % (name, type(value).__name__))
        want = _DTYPES[typ]
        if str(value.dtype).replace("torch.", "") != want:
            raise TypeError("argument '%s' is %s: the template says %s "
                            "(torch.%s)" % (name, value.dtype, typ, want))
        if not value.is_contiguous():
            raise ValueError("argument '%s' is not contiguous" % name)
        need = self._count(p, i)
        if value.numel() < need:
            raise ValueError("argument '%s' has %d elements; %d needed at "
                             "this shape" % (name, value.numel(), need))
        return ctypes.c_uint64(value.data_ptr())

    def arguments(self, args, problem):
        """The launch's kernelParams for args at problem (a ctypes array
        of pointers, and the values they point at)."""
        p = self._problem(problem)
        if len(args) > len(self.args):
            raise TypeError("%d arguments given; the kernel takes %d (%s)" % (
                len(args), len(self.args),
                ", ".join(a[0] for a in self.args)))
        values, ptrs = [], (ctypes.c_void_p * max(1, len(self.args)))()
        for i, (name, typ, is_buffer) in enumerate(self.args):
            v = args[i] if i < len(args) else None
            if is_buffer:
                if v is None:
                    raise TypeError("argument '%s' (a buffer) is missing"
                                    % name)
                c = self._buffer(p, i, name, typ, v)
            elif v is None:
                c = None  # the template's value at this shape
            elif typ in _SCALARS:
                c = _SCALARS[typ](v)
            else:
                raise TypeError("argument '%s': a %s scalar cannot be "
                                "passed from Python; leave it None" %
                                (name, typ))
            values.append(c)
            ptrs[i] = None if c is None else ctypes.cast(
                ctypes.pointer(c), ctypes.c_void_p)
        return p, ptrs, values

    def __call__(self, *args, stream=None, **problem):
        p, ptrs, keep = self.arguments(args, problem)
        if stream is None:
            try:
                import torch
                stream = torch.cuda.current_stream().cuda_stream
            except ImportError:
                stream = 0
        elif hasattr(stream, "cuda_stream"):
            stream = stream.cuda_stream
        _check(self._lib, self._lib.kt_rt_launch(self._h, p, ptrs,
                                                 ctypes.c_void_p(stream)))
        del keep
