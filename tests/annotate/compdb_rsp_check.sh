#!/bin/sh
# compdb_rsp_check.sh KTC - a compile_commands.json entry whose include
# paths and macros sit in response files, as CMake's CUDA rules write them
# (`--options-file includes_CUDA.rsp`) and as `@FILE` names them, relative
# to the entry's folder; the kernel is a header (.cuh) with a flag nvcc
# needs to compile it (--expt-relaxed-constexpr). `ktc annotate --plan` and
# `ktc annotate` both see the -I and -D inside.
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-rsp-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include dir" "$tmp/defs" "$tmp/build"
printf '#define KDEFS_THREADS 128\n' >"$tmp/include dir/kdefs.h"
printf '#ifndef KSCALE\n#error KSCALE\n#endif\n' >"$tmp/defs/kscale.h"
sed -e 's|#include <cuda_runtime.h>|&\n#include "kdefs.h"\n#include "kscale.h"|' \
    -e 's|(n + 127) / 128, 128,|(n + KDEFS_THREADS - 1) / KDEFS_THREADS, KDEFS_THREADS,|' \
    "$here/inputs/scale_bias.cu" >"$tmp/k.cuh"
grep -q KDEFS_THREADS, "$tmp/k.cuh" || { echo "FAIL input not made"; exit 1; }
printf -- '-I"../include dir"\n' >"$tmp/build/includes_CUDA.rsp"
printf -- '-I ../defs -DKSCALE=2 @more.rsp\n' >"$tmp/build/flags.rsp"
printf -- '--expt-relaxed-constexpr\n' >"$tmp/build/more.rsp"
cat >"$tmp/build/compile_commands.json" <<JSON
[{"directory": "$tmp/build",
  "command": "nvcc -std=c++17 --options-file includes_CUDA.rsp @flags.rsp -x cu -c ../k.cuh -o k.o",
  "file": "../k.cuh"}]
JSON
fail=0
if ! (cd "$tmp" && "$ktc" annotate --plan k.cuh >plan.json 2>err) ||
	grep -q 'not found' "$tmp/err"; then
	echo "FAIL ktc annotate --plan k.cuh:"; cat "$tmp/err"; fail=1
fi
if ! (cd "$tmp" && "$ktc" annotate -o out.cuh k.cuh 2>err); then
	echo "FAIL ktc annotate -o out.cuh k.cuh:"; cat "$tmp/err"; fail=1
elif ! grep -q '#pragma kt param' "$tmp/out.cuh"; then
	echo "FAIL no parameter in the template:"; cat "$tmp/err"; fail=1
fi
exit $fail
