#!/bin/sh
# bench/opencl_matmul.sh [BUILD_DIR] - the OpenCL backend's benchmark.
# Tunes samples/opencl/matmul.cl with `ktc tune --backend opencl` on the
# machine's first OpenCL device (PoCL on the CPU where there is no GPU),
# then times the default and the tuned configuration in one process
# (ktc-opencl-bench: median of 5 launches each, the two taking turns), and
# writes the outcome into docs/opencl-backend.md between its bench markers.
# BUDGET (default 60) and SEED (default 1) set the search; BUILD_DIR
# defaults to build/; the tuning results stay there as opencl_matmul.t4.json.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
budget=${BUDGET:-60}
seed=${SEED:-1}
doc=$root/docs/opencl-backend.md
work=$(mktemp -d /tmp/ktc-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$root"

echo "== ktc tune (budget $budget, seed $seed)"
"$build/ktc" tune --backend opencl samples/opencl/matmul.cl \
	--budget "$budget" --seed "$seed" --no-cache -q \
	-o "$build/opencl_matmul.t4.json" | tee "$work/tune.txt"
echo "== default against the best configuration found"
"$build/tests/ktc-opencl-bench" --runs 5 --best "$build/opencl_matmul.t4.json" \
	samples/opencl/matmul.cl | tee "$work/bench.txt"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "<!-- bench:begin: written by bench/opencl_matmul.sh, do not edit -->"
	echo "Command: \`BUDGET=$budget SEED=$seed bench/opencl_matmul.sh\`, run on"
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'). Machine: $(nproc) cores ($cpu),"
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg) when it ended."
	echo
	echo '```'
	cat "$work/tune.txt"
	echo
	cat "$work/bench.txt"
	echo '```'
	echo "<!-- bench:end -->"
} > "$work/section.md"

# the section replaces the one between the markers
awk -v section="$work/section.md" '
	/^<!-- bench:begin/ { while ((getline line < section) > 0) print line; skip = 1; next }
	/^<!-- bench:end/ { skip = 0; next }
	!skip { print }
' "$doc" > "$work/doc.md"
grep -q '^<!-- bench:begin' "$doc" || fail=1
if [ "${fail:-0}" = 1 ]; then
	echo "no bench markers in $doc" >&2
	exit 1
fi
cp "$work/doc.md" "$doc"
echo "== wrote $doc"
