#!/bin/sh
# build_check.sh SAMPLE SOURCE OUTPUT [NVCC-OPTION...] - builds the GPU
# checker of samples/cuda/SAMPLE around SOURCE (SAMPLE.cu, the original, or
# SAMPLE.kt.cu, the template, where -DNAME=V options pick a configuration)
# with nvcc for sm_90a: check.cu + the source's host launch code + ref.c.
# NVCC names the compiler (default: nvcc on PATH, else /usr/local/cuda's).
set -eu
sample=$1 src=$2 out=$3
shift 3
dir=$(cd "$(dirname "$0")" && pwd)/$sample
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
exec "$nvcc" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
	-diag-suppress=161 -Werror all-warnings --default-stream per-thread \
	-DSAMPLE_SRC="\"$src\"" "$@" -o "$out" "$dir/check.cu" "$dir/ref.c"
