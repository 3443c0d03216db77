#!/bin/sh
# nvcc_build.sh SAMPLE OUTDIR - builds the GPU checker of samples/cuda/SAMPLE
# twice with nvcc: around the original (OUTDIR/check_SAMPLE) and around the
# template at its defaults (OUTDIR/check_SAMPLE.kt). Both must compile
# without warnings; neither runs here.
set -eu
sample=$1 out=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
"$here/samples/cuda/build_check.sh" "$sample" "$sample.cu" "$out/check_$sample"
"$here/samples/cuda/build_check.sh" "$sample" "$sample.kt.cu" "$out/check_$sample.kt"
echo "$sample: original and template built"
