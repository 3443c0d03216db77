#!/bin/bash
# bench/exp/norms.sh - GPU experiment for the rmsnorm and fused_add_rmsnorm
# templates (samples/cuda/{rmsnorm,fused_add_rmsnorm}): builds the GPU
# checker (samples/cuda/build_check.sh) around the original, the template
# at its defaults and a few hand-picked configurations of the register path
# (ITEMS) and of the cluster split (CLUSTER); runs each checker's `check`
# (every size it lists against the CPU reference, 2 seeds) and times each
# at decode (T=1, T=64) and prefill (T=4096) sizes on the checkers' one
# harness; then, if time is left and ktc is there, lets `ktc tune` (random,
# 64) pick at T=1 and T=64.
#
#   OUT=DIR [KTC_BIN=DIR] bench/exp/norms.sh     (from the repository root)
#
# Writes OUT/summary.txt (a table: time per configuration and size, and the
# speed-up over the original), OUT/times.txt (one line per timing),
# OUT/checks/NAME.txt (each checker's full output), OUT/builds/NAME.log,
# OUT/tune/*.summary.json. About 60 s on an H100/H200 box with 16 cores;
# every GPU command runs under `timeout`, so a hung kernel costs 20 s, not
# the run.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=${OUT:-/tmp/norms-out}
mkdir -p "$out/checks" "$out/builds" "$out/tune"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
log() { printf '[%3ss] %s\n' "$(elapsed)" "$*"; }
export PATH=$PATH:/usr/local/cuda/bin

# name sample source -D options... (rows of the table). Threads per block at
# D=4096 / D=7168 with VEC=8: i1 512/896, i2 256/448, c2i2 128/224, c4i1
# 128/224, c8i1 64/112; w0 variants load w after the reduction (WPRE=0: fewer
# registers, more blocks per SM, for prefill).
configs=''
for s in rmsnorm fused_add_rmsnorm; do
	configs="$configs
orig $s $s.cu
default $s $s.kt.cu
i1 $s $s.kt.cu -DITEMS=1
i2 $s $s.kt.cu -DITEMS=2
i2w0 $s $s.kt.cu -DITEMS=2 -DWPRE=0
v4i4w0 $s $s.kt.cu -DVEC=4 -DITEMS=4 -DWPRE=0
c2i2 $s $s.kt.cu -DITEMS=2 -DCLUSTER=2
c4i1 $s $s.kt.cu -DITEMS=1 -DCLUSTER=4
c8i1 $s $s.kt.cu -DITEMS=1 -DCLUSTER=8"
done
# sample size (each timed for every configuration of the sample), decode
# first: if time runs out, prefill goes
sizes='
fused_add_rmsnorm T=1,D=7168
rmsnorm T=1,D=4096
fused_add_rmsnorm T=64,D=7168
rmsnorm T=64,D=4096
fused_add_rmsnorm T=4096,D=7168
rmsnorm T=4096,D=4096
'

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
} >"$out/device.txt"
cat "$out/device.txt"

# Builds, all at once (one nvcc each), and the harness's floor beside them.
printf '%s\n' "$configs" | awk 'NF' >"$work/configs"
log "building $(wc -l <"$work/configs") checkers"
xargs -P "$(nproc)" -L 1 sh -c 'n=$0 s=$1 src=$2; shift 2; samples/cuda/build_check.sh "$s" "$src" "'"$work"'/${s}_$n" "$@" >"'"$out"'/builds/${s}_$n.log" 2>&1' \
	<"$work/configs" &
builds=$!
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$work/floor" \
	bench/floor.cu >"$out/builds/floor.log" 2>&1
wait $builds
log "built: $(find "$work" -maxdepth 1 -type f -perm -u+x -name "*_*" | wc -l) checkers"

# Checks, 8 at a time (they time nothing).
awk '{print $2 "_" $1}' "$work/configs" |
	xargs -P 8 -I{} sh -c 'b="'"$work"'/{}"; if [ -x "$b" ]; then timeout 60 "$b" check; echo "rc=$?"; else echo "BUILD FAILED"; fi >"'"$out"'/checks/{}.txt" 2>&1'
for f in "$out"/checks/*.txt; do
	printf '%-32s %s\n' "$(basename "$f" .txt)" "$(grep -E 'PASS|FAIL|BUILD FAILED|rc=' "$f" | tr '\n' ' ')"
done | tee "$out/checks.txt"
log "checks done"

# Times, one at a time: the floor (an empty kernel; a copy of the bytes each
# timed size moves: rmsnorm T=1, 64, 4096 at D=4096, fused_add_rmsnorm T=1,
# 64, 4096 at D=7168), then every configuration at every size.
[ -x "$work/floor" ] && timeout 20 "$work/floor" 24576 1056768 67117056 \
	71680 3684352 234895360 2>&1 | tee "$out/floor.txt"
: >"$out/times.txt"
printf '%s\n' "$sizes" | awk 'NF' | while read -r s szs; do
	for z in $szs; do
		awk -v s="$s" '$2 == s {print $1}' "$work/configs" | while read -r n; do
			b=$work/${s}_$n
			[ -x "$b" ] || continue
			# leave time for the table (bench/exp/run.sh stops at 100 s)
			[ "$(elapsed)" -lt 85 ] || { echo "$s $z $n - | skipped: out of time" >>"$out/times.txt"; continue; }
			t=$(timeout 20 "$b" time ${z//,/ } 2>&1 | tail -n 1)
			us=$(printf '%s\n' "$t" | sed -n 's/.*time_us=\([0-9.]*\).*/\1/p')
			echo "$s $z $n ${us:--} | $t" >>"$out/times.txt"
		done
	done
done
log "times done"

# The table: one row per sample and size, one column per configuration,
# the speed-up over the original in parentheses.
awk '
	{ key = $1 " " $2; t[key, $3] = $4; if (!(key in seen)) { seen[key] = 1; rows[nr++] = key }
	  if (!($3 in cseen)) { cseen[$3] = 1; cols[nc++] = $3 } }
	END {
		printf "%-32s", "sample size"; for (c = 0; c < nc; c++) printf " %14s", cols[c]; printf "\n"
		for (r = 0; r < nr; r++) {
			k = rows[r]; o = t[k, "orig"]; printf "%-32s", k
			for (c = 0; c < nc; c++) {
				v = t[k, cols[c]]
				if (v == "" || v == "-") printf " %14s", "-"
				else if (o != "" && o != "-") printf " %7.2f(%.2fx)", v, o / v
				else printf " %14s", v
			}
			printf "\n"
		}
	}' "$out/times.txt" | tee "$out/summary.txt"

# ktc's own pick at decode sizes, while time is left (the budget of
# bench/exp/run.sh is 100 s).
ktc=${KTC_BIN:+$KTC_BIN/ktc}
if [ -n "$ktc" ] && [ -x "$ktc" ]; then
	export LD_LIBRARY_PATH=$KTC_BIN:${LD_LIBRARY_PATH:-}
	export XDG_CACHE_HOME=$work/cache
	for e in "rmsnorm T=1 D=4096" "fused_add_rmsnorm T=1 D=7168" \
		"rmsnorm T=64 D=4096" "fused_add_rmsnorm T=64 D=7168"; do
		set -- $e
		left=$((90 - $(elapsed)))
		[ $left -gt 10 ] || { log "no time left for ktc tune $e"; break; }
		n=$1-${2#T=}
		log "ktc tune $e"
		timeout $((left - 5)) "$ktc" tune "samples/cuda/$1/$1.kt.cu" --backend cuda \
			-p "$2" -p "$3" -s random -n 64 --seed 1 --json -q \
			-o "$out/tune/$n.t4.json" >"$out/tune/$n.summary.json" 2>"$out/tune/$n.log"
		grep -E '"(key|time_ms|speedup|elapsed_s)"' "$out/tune/$n.summary.json" | tr -d '\t\n'
		echo
	done
fi
log "done"
