#!/bin/sh
# compdb_check.sh KTC - a project whose compile_commands.json sits in
# build/ beside the kernel (as CMake writes it) and whose kernel needs that
# database's -I: `ktc annotate --plan` (the parse) and `ktc annotate`
# (the parse, then verification of the annotated file) both find it.
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-compdb-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include" "$tmp/build"
printf '#define KDEFS_THREADS 128\n' >"$tmp/include/kdefs.h"
sed -e 's|#include <cuda_runtime.h>|&\n#include "kdefs.h"|' \
    -e 's|(n + 127) / 128, 128,|(n + KDEFS_THREADS - 1) / KDEFS_THREADS, KDEFS_THREADS,|' \
    "$here/inputs/scale_bias.cu" >"$tmp/k.cu"
grep -q KDEFS_THREADS, "$tmp/k.cu" || { echo "FAIL input not made"; exit 1; }
cat >"$tmp/build/compile_commands.json" <<JSON
[{"directory": "$tmp/build",
  "command": "nvcc -I../include -std=c++17 -c ../k.cu -o k.o",
  "file": "../k.cu"}]
JSON
fail=0
if ! (cd "$tmp" && "$ktc" annotate --plan k.cu >plan.json 2>err); then
	echo "FAIL ktc annotate --plan k.cu:"; cat "$tmp/err"; fail=1
fi
if ! (cd "$tmp" && "$ktc" annotate -o out.cu k.cu 2>err); then
	echo "FAIL ktc annotate -o out.cu k.cu:"; cat "$tmp/err"; fail=1
elif ! grep -q '#pragma kt' "$tmp/out.cu"; then
	echo "FAIL no template written"; fail=1
fi
exit $fail
