#!/bin/sh
# clangd_check.sh - every annotated golden output (tests/annotate/golden/
# */out.cu) is clean under clangd: `clangd-19 --check` with a
# compile_commands.json that compiles it as CUDA, as a project would.
# Skipped (77) without clangd-19 or the CUDA toolkit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
clangd=$(command -v clangd-19 || command -v clangd || true)
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ -z "$clangd" ] || [ ! -d "$cuda/include" ]; then
	echo "no clangd-19 or no CUDA toolkit: skipped"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-clangd-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for out in "$here"/golden/*/out.cu; do
	case=$(dirname "$out")
	input="$here/$(sed -n 's/^input=//p' "$case/case.conf")"
	name=$(basename "$input")
	dir="$tmp/$(basename "$case")"
	mkdir -p "$dir"
	cp "$out" "$dir/$name"
	cat >"$dir/compile_commands.json" <<EOF
[{"directory": "$dir", "file": "$name",
  "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_90a",
                "--cuda-path=$cuda", "-nocudalib", "-std=c++17",
                "-I$(dirname "$input")", "-c", "$name"]}]
EOF
	(cd "$dir" && "$clangd" --check="$name" >"$dir/log" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ $rc != 0 ] || ! grep -q "All checks completed, 0 errors" "$dir/log"; then
		echo "FAIL clangd reports errors in $(basename "$case")/out.cu:"
		grep -E "^E\[|error" "$dir/log" | head -10
		fail=1
	fi
done
echo "$n annotated files checked with $clangd"
exit $fail
