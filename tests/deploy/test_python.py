"""test_python.py - the Python package (python/ktc) over the runtime
library: offline (no GPU) it loads a template and its wisdom, picks each
shape's configuration, checks problem keywords and arguments, and turns
the runtime's errors into ktc.Error; with torch, tensors are checked; with
a GPU, a launch computes what the kernel should. Run by ctest with
KTC_RT_LIB and PYTHONPATH set (tests/deploy/tests.cmake)."""

import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import ktc

HERE = os.path.dirname(os.path.abspath(__file__))
H100 = ("NVIDIA H100 80GB HBM3", "sm_90a", 13000)

try:
    import torch
except ImportError:
    torch = None


def fnv(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


class Deploy(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ktc-py-")
        self.tpl = os.path.join(self.dir, "scale.kt.cu")
        shutil.copy(os.path.join(HERE, "inputs", "scale.kt.cu"), self.tpl)
        shape = lambda n, b, i: {"problem": {"N": n},
                                 "best": {"BLOCK": b, "ITEMS": i},
                                 "time_ms": 0.002, "default_ms": 0.003}
        self.wisdom = os.path.join(self.dir, "w.json")
        with open(self.tpl, "rb") as f:
            h = fnv(f.read())
        with open(self.wisdom, "w") as f:
            json.dump({"ktc_wisdom": 1, "template": "scale.kt.cu",
                       "template_hash": "%016x" % h, "kernel": "scale",
                       "objective": "cold",
                       "device": {"name": H100[0], "arch": "sm_90a",
                                  "compute_capability": "9.0",
                                  "driver": "13000"},
                       "params": ["BLOCK", "ITEMS"], "problem": ["N"],
                       "shapes": [shape(1024, 64, 1), shape(65536, 256, 4)]},
                      f)
        self.cache = os.path.join(self.dir, "cache")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def kernel(self, device=H100, wisdom=True):
        rt = ktc.Runtime(cache_dir=self.cache, offline=device)
        return ktc.Kernel(self.tpl, wisdom=self.wisdom if wisdom else None,
                          runtime=rt)

    def test_kernel_describes_its_problem_and_arguments(self):
        k = self.kernel()
        self.assertEqual(k.runtime.device_name, H100[0])
        self.assertEqual(k.runtime.arch, "sm_90a")
        self.assertEqual(k.problems, ["N"])
        self.assertEqual(k.args, [("y", "f32", True), ("x", "f32", True),
                                  ("a", "f32", False), ("n", "i32", False)])

    def test_choice_is_exact_nearest_or_default(self):
        k = self.kernel()
        self.assertEqual(k.choice(N=1024), ("BLOCK=64,ITEMS=1", "exact"))
        self.assertEqual(k.choice(N=3000), ("BLOCK=64,ITEMS=1", "nearest"))
        self.assertEqual(k.choice(N=40000), ("BLOCK=256,ITEMS=4", "nearest"))
        self.assertEqual(k.choice(N=50002), ("BLOCK=128,ITEMS=1", "default"))
        other = self.kernel(device=("NVIDIA A100-SXM4-80GB", "sm_80", 13000))
        self.assertEqual(other.choice(N=1024), ("BLOCK=128,ITEMS=1",
                                                "default"))

    def test_problem_keywords_are_checked(self):
        k = self.kernel()
        with self.assertRaisesRegex(TypeError, r"missing \['N'\]"):
            k.choice()
        with self.assertRaisesRegex(TypeError, r"unknown \['M'\]"):
            k.choice(N=1, M=2)

    def test_runtime_errors_raise_with_the_message(self):
        rt = ktc.Runtime(cache_dir=self.cache, offline=H100)
        with self.assertRaisesRegex(ktc.Error, "no annotated kernel 'nope'"):
            ktc.Kernel(self.tpl, kernel="nope", runtime=rt)
        with open(self.tpl, "a") as f:
            f.write("// changed\n")
        with self.assertRaisesRegex(ktc.Error, "another version"):
            ktc.Kernel(self.tpl, wisdom=self.wisdom, runtime=rt)

    def test_launch_without_a_device_is_refused(self):
        k = self.kernel()
        with self.assertRaisesRegex(ktc.Error, "without a device"):
            k(0x1000, 0x2000, N=1024, stream=0)

    def test_arguments_become_kernel_params(self):
        k = self.kernel()
        p, ptrs, keep = k.arguments((0x1000, 0x2000, 1.5), {"N": 1024})
        self.assertEqual(list(p), [1024])
        as_u64 = lambda i: ctypes.cast(
            ptrs[i], ctypes.POINTER(ctypes.c_uint64)).contents.value
        self.assertEqual(as_u64(0), 0x1000)
        self.assertEqual(as_u64(1), 0x2000)
        self.assertEqual(ctypes.cast(ptrs[2], ctypes.POINTER(
            ctypes.c_float)).contents.value, 1.5)
        self.assertIsNone(ptrs[3])  # n: the template's value, N
        with self.assertRaisesRegex(TypeError, "'x' \\(a buffer\\) is missing"):
            k.arguments((0x1000,), {"N": 1024})
        with self.assertRaisesRegex(TypeError, "5 arguments given"):
            k.arguments((1, 2, 3, 4, 5), {"N": 1024})
        with self.assertRaisesRegex(TypeError, "a CUDA tensor or a device"):
            k.arguments(("y", 2), {"N": 1024})

    def test_missing_library_is_an_error_naming_where(self):
        env = dict(os.environ, KTC_RT_LIB="/nonexistent/libktcrt.so.0")
        r = subprocess.run([sys.executable, "-c",
                            "import ktc\ntry:\n ktc.load_library()\n"
                            "except ktc.Error as e:\n print(e)"],
                           env=env, capture_output=True, text=True)
        self.assertIn("cannot load libktcrt; tried: "
                      "/nonexistent/libktcrt.so.0", r.stdout)

    @unittest.skipUnless(torch is not None, "torch is not installed")
    def test_tensors_must_be_cuda_of_the_right_type(self):
        k = self.kernel()
        with self.assertRaisesRegex(TypeError, "CUDA tensor"):
            k.arguments((torch.zeros(1024), torch.zeros(1024)), {"N": 1024})

    @unittest.skipUnless(torch is not None and torch.cuda.is_available(),
                         "no torch with a CUDA device")
    def test_launch_on_the_current_stream(self):
        k = ktc.Kernel(self.tpl)
        for n in (1000, 1024, 65536):
            x = torch.randn(n, device="cuda")
            y = torch.full((n,), float("nan"), device="cuda")
            k(y, x, N=n)
            torch.cuda.synchronize()
            self.assertTrue(torch.equal(y, 2.5 * x), n)
        with self.assertRaisesRegex(ValueError, "1000 elements; 1024 needed"):
            k(torch.zeros(1000, device="cuda"),
              torch.zeros(1024, device="cuda"), N=1024)
        with self.assertRaisesRegex(TypeError, "the template says f32"):
            k(torch.zeros(1024, device="cuda", dtype=torch.float16),
              torch.zeros(1024, device="cuda"), N=1024)


if __name__ == "__main__":
    unittest.main()
