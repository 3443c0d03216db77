#!/bin/sh
# angled_header_check.sh KTC - a project header included as <mylib/...>
# through compile_commands.json's -isystem (as serving stacks do for their
# own include folder), whose macro the kernel's device code uses
# (`MYLIB_DEVICE`): its device side reaches NVRTC, so the annotated file
# verifies; a library header of the same kind that only host code uses
# stays out of NVRTC's way, and the int32_t the kernel takes from the
# <cstdint> that library header includes comes from the cstdint stand-in
# (sglang's JIT kernels take int32_t through <sgl_kernel/tensor.h>).
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-angled-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include/mylib" "$tmp/include/hostlib" "$tmp/build"
cat >"$tmp/include/mylib/defs.cuh" <<'H'
#pragma once
#define MYLIB_DEVICE __device__ __forceinline__
MYLIB_DEVICE float twice(float x) { return x + x; }
H
cat >"$tmp/include/hostlib/log.h" <<'H'
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
inline void log_line(const std::string &s) { std::puts(s.c_str()); }
H
cat >"$tmp/k.cu" <<'K'
#include <mylib/defs.cuh>
#include <hostlib/log.h>

MYLIB_DEVICE float scaled(float x) { return twice(x) * 0.5f; }

__global__ void scale(float *y, const float *x, int n)
{
	int32_t i = blockIdx.x * 256 + threadIdx.x;
	if (i < n)
		y[i] = scaled(x[i]);
}

void launch(float *y, const float *x, int n)
{
	log_line("scale");
	scale<<<(n + 255) / 256, 256>>>(y, x, n);
}
K
cat >"$tmp/build/compile_commands.json" <<JSON
[{"directory": "$tmp/build",
  "command": "nvcc -isystem ../include -std=c++17 -c ../k.cu -o k.o",
  "file": "../k.cu"}]
JSON
fail=0
if ! (cd "$tmp" && "$ktc" annotate -o out.cu k.cu 2>err); then
	echo "FAIL ktc annotate -o out.cu k.cu:"; cat "$tmp/err"; fail=1
elif ! grep -q 'the device side of "mylib/defs.cuh"' "$tmp/out.cu"; then
	echo "FAIL mylib/defs.cuh's device side is not in the output"; fail=1
elif grep -q 'the device side of "hostlib/log.h"' "$tmp/out.cu"; then
	echo "FAIL hostlib/log.h (host code only) reached NVRTC"; fail=1
elif ! grep -q '^#include <cuda/std/cstdint>' "$tmp/out.cu"; then
	echo "FAIL no <cuda/std/cstdint> for the kernel's int32_t"; fail=1
fi
exit $fail
