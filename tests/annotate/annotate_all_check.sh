#!/bin/sh
# annotate_all_check.sh KTC - scripts/annotate-all.sh over a folder: one
# row per file with its result and the totals, nothing written beside the
# files, exit 1 when a file failed; a file nvcc refuses as it is, one
# whose header is not found, or host code with no kernel and no launch,
# counts apart from the kernel files nvcc compiles; a file that launches a
# kernel some header defines does not.
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
all="$here/../../scripts/annotate-all.sh"
command -v bc >/dev/null || { echo "no bc: skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-all-check-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
cp "$here/inputs/scale_bias.cu" "$here/nolaunch/unrecognised.cu" \
	"$here/bad/syntax_error.cu" "$here/bad/nvcc_fails.cu" \
	"$here/forms/missing_header.cu" "$here/bad/parse_gap.cu" "$tmp/src/"
mkdir "$tmp/inc"
cat >"$tmp/src/host_only.cu" <<'EOF'
#include <cuda_runtime.h>
// host code only: no kernel and no launch, not even in a comment
int clear(float *p, int n)
{
	return cudaMemset(p, 0, n * sizeof(float)) == cudaSuccess;
}
EOF
cat >"$tmp/inc/scale.cuh" <<'EOF'
__global__ void scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}
EOF
cat >"$tmp/src/launch_only.cu" <<'EOF'
#include "../inc/scale.cuh"
void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
EOF
fail=0
sh "$all" -k "$ktc" --timeout 60 "$tmp/src" >"$tmp/table" 2>&1
rc=$?
expect() {
	grep -q "$1" "$tmp/table" || { echo "FAIL no '$1' in:"; cat "$tmp/table"; fail=1; }
}
expect 'scale_bias.cu  *annotated  *[1-9]'
expect 'unrecognised.cu  *verified-0  *0  *1  *[1-9]'
expect 'syntax_error.cu  *nvcc-fails'
expect 'parse_gap.cu  *failed'
expect 'nvcc_fails.cu  *nvcc-fails'
expect 'missing_header.cu  *missing-header'
expect 'host_only.cu  *host-only'
expect "launch_only.cu  *no-kernel .*launch_only.cu:2:29: .*it launches 'scale', defined in '.*scale.cuh'"
expect 'annotated and verified: 1 of 8'
expect 'annotated and verified of the 4 kernel files nvcc compiles: 1 (25%)'
[ $rc = 1 ] || { echo "FAIL exit $rc with a failed file"; fail=1; }
[ "$(ls "$tmp/src" | wc -l)" = 8 ] || { echo "FAIL files written"; fail=1; }
exit $fail
