#!/bin/sh
# angled_header_check.sh KTC - a project header included as <mylib/...>
# through compile_commands.json's -isystem (as serving stacks do for their
# own include folder), whose macro the kernel's device code uses
# (`MYLIB_DEVICE`): its device side reaches NVRTC, so the annotated file
# verifies; a library header of the same kind that only host code uses
# stays out of NVRTC's way, and the int32_t the kernel takes from the
# <cstdint> that library header includes comes from the cstdint stand-in
# (sglang's JIT kernels take int32_t through <sgl_kernel/tensor.h>).
# The library's check macro expanded in host code (TORCH_CHECK in a torch
# extension's launcher) does not pull the library into NVRTC's view; a
# project header that only a type of the file names (a trait's
# specialisation naming the header's alias template, sglang's
# VecTypeTrait over packed_t) reaches NVRTC; a static_assert of a project
# header over a library type (vLLM's q8_n_t over c10's float8 types) is
# left out of the header's device side. A library header that the kernel
# needs only because the header whose macro it uses is included through it
# (torch's ATen/core/TensorBase.h on the way to c10/macros/Macros.h) gives
# NVRTC its includes and macros, not its declarations (a struct marked with
# an export macro from a header NVRTC never sees).
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-angled-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include/mylib" "$tmp/include/hostlib" "$tmp/lib/big" \
	"$tmp/build"
cat >"$tmp/lib/big/export.h" <<'H'
#pragma once
#define BIG_API __attribute__((visibility("default")))
H
cat >"$tmp/lib/big/likely.h" <<'H'
#pragma once
#define BIG_LIKELY(x) __builtin_expect(!!(x), 1)
H
cat >"$tmp/lib/big/tensor.h" <<'H'
#pragma once
#include <big/export.h>
#include <big/likely.h>
#include <string>
namespace big {
struct BIG_API device_name {
	std::string text;
	const char *c_str() const { return text.c_str(); }
};
}
H
cat >"$tmp/include/mylib/defs.cuh" <<'H'
#pragma once
#define MYLIB_DEVICE __device__ __forceinline__
MYLIB_DEVICE float twice(float x) { return x + x; }
template <typename T> struct pair_of {
	static_assert(sizeof(T) != sizeof(hostlib::record), "not a record");
	T a, b;
};
H
cat >"$tmp/include/mylib/pack.cuh" <<'H'
#pragma once
template <typename T> struct pack2 {
	T x, y;
};
template <typename T> using pack2_t = pack2<T>;
H
cat >"$tmp/include/hostlib/log.h" <<'H'
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
namespace hostlib {
struct record {
	std::string text;
	long when;
};
}
inline void log_line(const std::string &s) { std::puts(s.c_str()); }
#define HOSTLIB_CHECK(c) ((c) ? (void)0 : log_line(#c))
H
cat >"$tmp/k.cu" <<'K'
#include <big/tensor.h>
#include <hostlib/log.h>
#include <mylib/defs.cuh>
#include <mylib/pack.cuh>

template <typename T> struct trait;
template <> struct trait<float> {
	using packed = pack2_t<float>;
};

MYLIB_DEVICE float scaled(float x)
{
	pair_of<float> p = {x, 0.5f};
	return twice(p.a) * p.b;
}

__global__ void scale(float *y, const float *x, int n)
{
	int32_t i = blockIdx.x * 256 + threadIdx.x;
	int at = i;
	if (BIG_LIKELY(i < n))
		y[at] = scaled(x[at]) * (sizeof(trait<float>::packed) / 8);
}

void launch(float *y, const float *x, int n)
{
	HOSTLIB_CHECK(n > 0);
	scale<<<(n + 255) / 256, 256>>>(y, x, n);
}
K
cat >"$tmp/build/compile_commands.json" <<JSON
[{"directory": "$tmp/build",
  "command": "nvcc -isystem ../include -I ../lib -std=c++17 -c ../k.cu -o k.o",
  "file": "../k.cu"}]
JSON
fail=0
if ! (cd "$tmp" && "$ktc" annotate -o out.cu k.cu 2>err); then
	echo "FAIL ktc annotate -o out.cu k.cu:"; cat "$tmp/err"; fail=1
elif ! grep -q 'the device side of "mylib/defs.cuh"' "$tmp/out.cu"; then
	echo "FAIL mylib/defs.cuh's device side is not in the output"; fail=1
elif grep -q 'the device side of "hostlib/log.h"' "$tmp/out.cu"; then
	echo "FAIL hostlib/log.h (host code only) reached NVRTC"; fail=1
elif ! grep -q 'the device side of "big/likely.h"' "$tmp/out.cu"; then
	echo "FAIL big/likely.h's device side is not in the output"; fail=1
elif grep -q 'struct BIG_API' "$tmp/out.cu"; then
	echo "FAIL big/tensor.h's host struct reached NVRTC"; fail=1
elif grep -q 'static_assert' "$tmp/out.cu"; then
	echo "FAIL the static_assert over hostlib::record reached NVRTC"; fail=1
elif ! grep -q '^#include <cuda/std/cstdint>' "$tmp/out.cu"; then
	echo "FAIL no <cuda/std/cstdint> for the kernel's int32_t"; fail=1
fi
exit $fail
