#!/bin/sh
# clangd_check.sh - every annotated golden output (tests/annotate/golden/
# */out.cu) is clean under clangd: `clangd-19 --check` with a
# compile_commands.json that compiles it as CUDA, as a project would. An
# original that clangd itself does not read cleanly (clang 19 lacks
# nvcc's __ldcg for CUDA 13) is checked too, and the annotated file may
# only have the errors the original has (same messages, any lines).
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
	if grep -q "All checks completed, 0 errors" "$dir/log"; then
		rc=0
	elif grep -q "All checks completed" "$dir/log"; then
		# the errors the original has too are not the annotation's
		mkdir -p "$dir/orig"
		cp "$input" "$dir/orig/$name"
		sed "s|$dir|$dir/orig|g" "$dir/compile_commands.json" \
			>"$dir/orig/compile_commands.json"
		(cd "$dir/orig" && "$clangd" --check="$name" >"$dir/orig/log" 2>&1)
		errs() { sed -n 's/^E\[[^]]*\] \(\[[a-z_]*\]\) Line [0-9]*:/\1/p' "$1" | sort; }
		errs "$dir/log" >"$dir/e.out"
		errs "$dir/orig/log" >"$dir/e.orig"
		# (a tweak clangd fails to apply, `auto` it cannot spell out,
		# counts as an error without a line: the same count then)
		total() { sed -n 's/.*All checks completed, \([0-9]*\) errors.*/\1/p' "$1"; }
		if cmp -s "$dir/e.out" "$dir/e.orig" &&
			[ "$(total "$dir/log")" = "$(total "$dir/orig/log")" ]; then
			continue
		fi
		rc=1
	fi
	if [ $rc != 0 ]; then
		echo "FAIL clangd reports errors in $(basename "$case")/out.cu:"
		grep -E "^E\[|error" "$dir/log" | head -10
		fail=1
	fi
done
echo "$n annotated files checked with $clangd"
exit $fail
