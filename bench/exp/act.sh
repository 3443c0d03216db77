#!/bin/bash
# bench/exp/act.sh - GPU experiment for the activation and merge templates
# (samples/cuda/{silu_and_mul,gelu_and_mul,merge_attn_states}): builds the
# GPU checker (samples/cuda/build_check.sh) around the original and a few
# hand-picked configurations: for decode sizes, the one-pass spread of a
# row over many small blocks (SPLIT=0), more loads in flight (ITEMS), the
# approximate division (FAST), for gelu_and_mul y's load issued with x's
# (EARLY); for prefill, one block per token with ITEMS; for
# merge_attn_states the value loads issued before the lse math (EARLY),
# the fast math (FAST) and the index by shift and mask (POW2).
# The previous session's tuned configurations are timed too (old_*), on
# the new templates. Runs each checker's `check` (every size it lists
# against the CPU reference, 2 seeds) and times each at the sizes of its
# class (d: T=64 and T=1, p: T=4096, a: all three) on the checkers' one
# harness, decode sizes first and nothing after 85 s; then, while time is
# left and ktc is there, lets `ktc tune` (random, 64) pick at T=64 / T=1.
#
#   OUT=DIR [KTC_BIN=DIR] [ONLY=REGEX] bench/exp/act.sh   (from the repo root)
#
# ONLY keeps the configurations whose SAMPLE_NAME matches (default: all).
# Writes OUT/summary.txt (time per configuration and size, the speed-up
# over the original in parentheses), OUT/times.txt (one line per timing),
# OUT/checks.txt and OUT/checks/NAME.txt, OUT/builds/NAME.log, OUT/floor.txt
# (an empty kernel and a copy of each decode size's bytes on the same
# harness), OUT/tune/*. About 80 s on an H100/H200 box with 16 cores; every
# GPU command runs under `timeout`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=${OUT:-/tmp/act-out}
mkdir -p "$out/checks" "$out/builds" "$out/tune"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
log() { printf '[%3ss] %s\n' "$(elapsed)" "$*"; }
export PATH=$PATH:/usr/local/cuda/bin

# name sample class source -D options... Threads of a row at D=14336:
# 1792 vectors of VEC=8 (3584 of VEC=4); SPLIT=0 gives each block BLOCK *
# ITEMS of them (b128: 14 blocks per token, b64: 28, b32: 56).
configs='
orig silu_and_mul a silu_and_mul.cu
s0b128f silu_and_mul d silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=128 -DFAST=1
s0b128 silu_and_mul d silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=128
s0b64f silu_and_mul d silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=64 -DFAST=1
s0b32f silu_and_mul d silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=32 -DFAST=1
s0b128i2f silu_and_mul d silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=128 -DITEMS=2 -DFAST=1
s0b256v4f silu_and_mul d silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=256 -DVEC=4 -DFAST=1
old_t1 silu_and_mul d silu_and_mul.kt.cu -DVEC=2 -DSPLIT=8
old_t64 silu_and_mul d silu_and_mul.kt.cu -DVEC=2 -DBLOCK_SIZE=256 -DITEMS=2 -DSPLIT=16
f silu_and_mul p silu_and_mul.kt.cu -DFAST=1
b512i2f silu_and_mul p silu_and_mul.kt.cu -DBLOCK_SIZE=512 -DITEMS=2 -DFAST=1
s0b256i2f silu_and_mul p silu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=256 -DITEMS=2 -DFAST=1
orig gelu_and_mul a gelu_and_mul.cu
e gelu_and_mul a gelu_and_mul.kt.cu -DEARLY=1
s0b128 gelu_and_mul d gelu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=128
s0b128e gelu_and_mul d gelu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=128 -DEARLY=1
s0b64e gelu_and_mul d gelu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=64 -DEARLY=1
s0b256v4e gelu_and_mul d gelu_and_mul.kt.cu -DSPLIT=0 -DBLOCK_SIZE=256 -DVEC=4 -DEARLY=1
old_t64 gelu_and_mul d gelu_and_mul.kt.cu -DVEC=4 -DBLOCK_SIZE=256 -DSPLIT=16 -DUNROLL=2
i2e gelu_and_mul p gelu_and_mul.kt.cu -DITEMS=2 -DEARLY=1
b256i4e gelu_and_mul p gelu_and_mul.kt.cu -DBLOCK_SIZE=256 -DITEMS=4 -DEARLY=1
orig merge_attn_states a merge_attn_states.cu
e merge_attn_states d merge_attn_states.kt.cu -DEARLY=1
f merge_attn_states d merge_attn_states.kt.cu -DFAST=1
ef merge_attn_states d merge_attn_states.kt.cu -DEARLY=1 -DFAST=1
efq merge_attn_states a merge_attn_states.kt.cu -DEARLY=1 -DFAST=1 -DPOW2=1
efqb64 merge_attn_states d merge_attn_states.kt.cu -DEARLY=1 -DFAST=1 -DPOW2=1 -DBLOCK_SIZE=64
efqb32 merge_attn_states d merge_attn_states.kt.cu -DEARLY=1 -DFAST=1 -DPOW2=1 -DBLOCK_SIZE=32
efqp2 merge_attn_states d merge_attn_states.kt.cu -DEARLY=1 -DFAST=1 -DPOW2=1 -DPPT=2
efqv4p4 merge_attn_states a merge_attn_states.kt.cu -DEARLY=1 -DFAST=1 -DPOW2=1 -DVEC=4 -DPPT=4 -DBLOCK_SIZE=256
old_t64 merge_attn_states d merge_attn_states.kt.cu -DBLOCK_SIZE=256 -DVEC=4 -DPPT=4
efqb256 merge_attn_states p merge_attn_states.kt.cu -DEARLY=1 -DFAST=1 -DPOW2=1 -DBLOCK_SIZE=256
'
# sample class sizes (T, the other dimensions at the benchmark's shapes)
# (decode first: if time runs out, prefill goes)
sizes='
silu_and_mul d T=64,D=14336 T=1,D=14336
merge_attn_states d T=64,H=32,HD=128 T=1,H=32,HD=128
gelu_and_mul d T=64,D=14336 T=1,D=14336
silu_and_mul p T=4096,D=14336
merge_attn_states p T=4096,H=32,HD=128
gelu_and_mul p T=4096,D=14336
'

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
} >"$out/device.txt"
cat "$out/device.txt"

# Builds, all at once (one nvcc each), and the harness's floor beside them.
printf '%s\n' "$configs" | awk 'NF' | awk -v re="${ONLY:-.}" '$2 "_" $1 ~ re' >"$work/configs"
log "building $(wc -l <"$work/configs") checkers"
awk '{ $3 = ""; print }' "$work/configs" |
	xargs -P "$(nproc)" -L 1 sh -c 'n=$0 s=$1 src=$2; shift 2; samples/cuda/build_check.sh "$s" "$src" "'"$work"'/${s}_$n" "$@" >"'"$out"'/builds/${s}_$n.log" 2>&1' &
builds=$!
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$work/floor" \
	bench/floor.cu >"$out/builds/floor.log" 2>&1
wait $builds
log "built: $(find "$work" -maxdepth 1 -type f -perm -u+x -name "*_*" | wc -l) checkers"

# Checks, 6 at a time (they time nothing).
awk '{print $2 "_" $1}' "$work/configs" |
	xargs -P 6 -I{} sh -c 'b="'"$work"'/{}"; if [ -x "$b" ]; then timeout 60 "$b" check; echo "rc=$?"; else echo "BUILD FAILED"; fi >"'"$out"'/checks/{}.txt" 2>&1'
for f in "$out"/checks/*.txt; do
	printf '%-32s %s\n' "$(basename "$f" .txt)" "$(grep -E 'PASS|FAIL|BUILD FAILED|rc=' "$f" | tr '\n' ' ')"
done | tee "$out/checks.txt"
log "checks done"

# Times, one at a time: the floor (an empty kernel; a copy of the bytes of
# silu T=1, silu T=64 and merge T=64), then each configuration at the
# sizes of its class and of class a.
[ -x "$work/floor" ] && timeout 20 "$work/floor" 86016 5505024 1597440 2>&1 | tee "$out/floor.txt"
: >"$out/times.txt"
printf '%s\n' "$sizes" | awk 'NF' | while read -r s cls szs; do
	for z in $szs; do
		awk -v s="$s" -v c="$cls" '$2 == s && ($3 == c || $3 == "a") {print $1}' "$work/configs" |
			while read -r n; do
				b=$work/${s}_$n
				[ -x "$b" ] || continue
				if [ "$(elapsed)" -gt 85 ]; then
					echo "$s $z $n - | not timed: past 85 s" >>"$out/times.txt"
					continue
				fi
				t=$(timeout 20 "$b" time ${z//,/ } 2>&1 | tail -n 1)
				us=$(printf '%s\n' "$t" | sed -n 's/.*time_us=\([0-9.]*\).*/\1/p')
				echo "$s $z $n ${us:--} | $t" >>"$out/times.txt"
			done
	done
done
log "times done"

# The table: one row per sample and size, then each configuration timed
# there with the speed-up over the original in parentheses.
awk '
	{ key = $1 " " $2; t[key, $3] = $4; n[key] = n[key] " " $3
	  if (!(key in seen)) { seen[key] = 1; rows[nr++] = key } }
	END {
		for (r = 0; r < nr; r++) {
			k = rows[r]; o = t[k, "orig"]; printf "%s:", k
			m = split(n[k], cs, " ")
			for (c = 1; c <= m; c++) {
				v = t[k, cs[c]]
				if (v == "" || v == "-") printf " %s -", cs[c]
				else if (o != "" && o != "-") printf " %s %.2f (%.2fx)", cs[c], v, o / v
				else printf " %s %s", cs[c], v
			}
			printf "\n"
		}
	}' "$out/times.txt" | tee "$out/summary.txt"

# ktc's own pick at T=64 (and silu at T=1), while time is left (the budget
# of bench/exp/run.sh is 100 s).
ktc=${KTC_BIN:+$KTC_BIN/ktc}
if [ -n "$ktc" ] && [ -x "$ktc" ]; then
	export LD_LIBRARY_PATH=$KTC_BIN:${LD_LIBRARY_PATH:-}
	export XDG_CACHE_HOME=$work/cache
	for e in "silu_and_mul silu_and_mul_kernel T=64 D=14336" \
		"merge_attn_states merge_attn_states_kernel T=64 H=32 HD=128" \
		"silu_and_mul silu_and_mul_kernel T=1 D=14336" \
		"gelu_and_mul gelu_and_mul_kernel T=64 D=14336"; do
		set -- $e
		s=$1 k=$2
		shift 2
		left=$((90 - $(elapsed)))
		[ $left -gt 10 ] || { log "no time left for ktc tune $e"; break; }
		n=$s-${1#T=}
		args=()
		for p in "$@"; do args+=(-p "$p"); done
		log "ktc tune $e"
		timeout $((left - 5)) "$ktc" tune "samples/cuda/$s/$s.kt.cu" --backend cuda -k "$k" \
			"${args[@]}" -s random -n 64 --seed 1 --json -q \
			-o "$out/tune/$n.t4.json" >"$out/tune/$n.summary.json" 2>"$out/tune/$n.log"
		grep -E '"(key|time_ms|speedup|elapsed_s)"' "$out/tune/$n.summary.json" | tr -d '\t\n'
		echo
	done
fi
log "done"
