#!/usr/bin/env bash
# bench/space.sh - the numbers of docs/space.md: how long `ktc space` takes
# on tests/space/big.kt.cu (raw product 32,768,000; median wall time of 5
# runs), and whether its counts match brute-force enumeration of the raw
# product (`ktc space --brute-force`) on that space and smaller ones.
#
# usage: bench/space.sh            (uses build/ktc; KTC=path overrides)
# Rewrites the part of docs/space.md between the bench markers; exits 1 if
# any count differs from brute force or the median is not under 1 second.
set -euo pipefail
cd "$(dirname "$0")/.."
ktc=${KTC:-build/ktc}
big=tests/space/big.kt.cu
medium=tests/space/medium.kt.cu
doc=docs/space.md
[ -x "$ktc" ] || { echo "bench/space.sh: no '$ktc'; build ktc first (or set KTC)" >&2; exit 1; }

now_ns() { date +%s%N; }

# ---- timing: 5 runs, median ----
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
times=()
for i in 1 2 3 4 5; do
	t0=$(now_ns)
	"$ktc" space "$big" >/dev/null
	t1=$(now_ns)
	times+=("$(( (t1 - t0) / 1000 ))") # microseconds
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
median_us=${sorted[2]}
sec() { awk -v us="$1" 'BEGIN { printf "%.3f", us / 1e6 }'; }
runs=$(for t in "${times[@]}"; do printf '%s ' "$(sec "$t")"; done)

out=$("$ktc" space "$big")
field() { printf '%s\n' "$out" | sed -n "s/^$1: *\([0-9]*\).*/\1/p"; }
raw=$(field "raw product")
count=$(field "valid configurations")
nconstraints=$(printf '%s\n' "$out" | sed -n 's/^constraints (\([0-9]*\)):/\1/p')
largest_group=$(printf '%s\n' "$out" | awk -F', ' '/^  [0-9]+: / { if (NF > n) n = NF } END { print n }')

# ---- brute force: each line is a template and its options ----
checks=(
	"$big"
	"$medium"
	"$medium -p M=64 -p N=1024 -p K=512 -d DEVICE_SMEM_PER_BLOCK=232448"
	"$medium -p N=96 -p K=24 -d DEVICE_SMEM_PER_BLOCK=16384 -d DEVICE_MAX_THREADS_PER_BLOCK=256"
	"$medium -p M=48 -p K=96 -d DEVICE_WARP_SIZE=64"
	"$medium -p M=48 -p K=100"
	"tests/space/golden/vecadd.kt.cu"
	"tests/space/golden/vecadd.kt.cu -p N=4096 -d DEVICE_MAX_THREADS_PER_BLOCK=128"
	"tests/space/golden/divzero.kt.cu"
	"tests/space/golden/two.kt.cu"
)
table=""
failed=0
for c in "${checks[@]}"; do
	# shellcheck disable=SC2086 # the options are meant to split
	res=$("$ktc" space --brute-force $c 2>/dev/null) || true
	while IFS='|' read -r k r n b verdict; do
		[ -n "$r" ] || continue
		[ "$verdict" = matches ] || failed=1
		table+="| \`ktc space $c\` | $k | $r | $n | $b | $verdict |"$'\n'
		echo "bench/space.sh: $c ($k): raw $r, space $n, brute force $b: $verdict" >&2
	done < <(printf '%s\n' "$res" | awk '
		/^kernel / { k = $2 }
		/^raw product:/ { r = $3 }
		/^valid configurations:/ { n = $3 }
		/^brute force:/ { b = $3; v = $NF; print k "|" r "|" n "|" b "|" v }')
	if ! printf '%s\n' "$res" | grep -q '^brute force:'; then
		failed=1
		table+="| \`ktc space $c\` | | | | | failed |"$'\n'
	fi
done

ok=$(( median_us < 1000000 ))
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$(dirname "$ktc")/CMakeCache.txt" 2>/dev/null || true)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
section=$(cat <<MD
Measured by \`bench/space.sh\` (ktc: \`$ktc\`, CMake build type: ${build_type:-none, so no optimisation flags}) on $(date -u '+%Y-%m-%d %H:%M UTC').
Machine: ${cpu:-unknown CPU}, $(nproc) cores, $(uname -sr); load average
before the runs: $load (other work on the machine slows the runs down).

Command: \`$ktc space $big\`, 5 runs, wall time including process start.

| | |
|---|---|
| raw product | $raw |
| constraints | $nconstraints |
| largest group (parameters tied by constraints) | $largest_group |
| valid configurations | $count |
| median wall time | **$(sec "$median_us") s** (runs: ${runs% }) |
| under 1 second | $([ $ok = 1 ] && echo yes || echo NO) |

Counts against brute force (\`ktc space --brute-force\`, which evaluates
every configuration of the raw product without tuner/space.c):

| command | kernel | raw product | space count | brute force | |
|---|---|---|---|---|---|
${table%$'\n'}
MD
)

# Replace what is between the markers (both kept).
begin='<!-- bench/space.sh: begin -->'
end='<!-- bench/space.sh: end -->'
grep -qF "$begin" "$doc" || { echo "bench/space.sh: no bench markers in $doc" >&2; exit 1; }
tmp=$(mktemp)
awk -v b="$begin" -v e="$end" -v body="$section" '
	$0 == b { print; print body; skip = 1; next }
	$0 == e { skip = 0 }
	!skip { print }' "$doc" >"$tmp"
mv "$tmp" "$doc"
echo "bench/space.sh: median $(sec "$median_us") s over 5 runs; wrote $doc" >&2
[ $failed = 0 ] && [ $ok = 1 ]
