#!/bin/bash
# bench/exp/tiles.sh - GPU experiment for the transpose, rotary_embedding
# and per_token_group_quant_fp8 templates: builds the GPU checker
# (samples/cuda/build_check.sh) around each original, each template at its
# defaults and a few configurations expected to be the best at prefill
# sizes (transpose: VEC x VEC blocks transposed in registers, REGS=1, in
# both tile orders, SWAP; rope: cos/sin once per thread and HPT heads in
# flight; group quant: ITEMS sets of groups per block, read once, packed
# stores, DIV=1: x / scale by the reciprocal and one correction); runs each
# checker's `check` (every size it lists against the CPU reference, 2
# seeds) and times each configuration at prefill sizes on the checkers' one
# harness (median of 50 launches, L2 flushed).
#
#   OUT=DIR bench/exp/tiles.sh     (from the repository root; KTC_BIN unused)
#
# Writes OUT/summary.txt (per sample and size: time per configuration, the
# speed-up over the original, and the fraction of 4155 GB/s, the H200 copy
# bandwidth docs/benchmarks.md measured), OUT/times.txt (one line per
# timing), OUT/checks.txt and OUT/checks/NAME.txt (each checker's output),
# OUT/builds/NAME.log. About 80 s on an H100/H200 box with 16 cores; every
# GPU command runs under `timeout`; the prefill sizes are timed before the
# large ones, and timing stops at 82 s, so the table is always written.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=${OUT:-/tmp/tiles-out}
mkdir -p "$out/checks" "$out/builds"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
log() { printf '[%3ss] %s\n' "$(elapsed)" "$*"; }
export PATH=$PATH:/usr/local/cuda/bin

# name sample source -D options... (columns of the table)
configs='
orig transpose transpose.cu
default transpose transpose.kt.cu
smem8 transpose transpose.kt.cu -DBROWS=16 -DPAD=2 -DVEC=8
r64b8 transpose transpose.kt.cu -DREGS=1 -DVEC=8 -DTILE=64 -DBROWS=8 -DPAD=0
r64b4 transpose transpose.kt.cu -DREGS=1 -DVEC=8 -DTILE=64 -DBROWS=4 -DPAD=0
r128b8 transpose transpose.kt.cu -DREGS=1 -DVEC=8 -DTILE=128 -DBROWS=8 -DPAD=0
r128b4 transpose transpose.kt.cu -DREGS=1 -DVEC=8 -DTILE=128 -DBROWS=4 -DPAD=0
r32v4 transpose transpose.kt.cu -DREGS=1 -DVEC=4 -DTILE=32 -DBROWS=8 -DPAD=0
r64b8s transpose transpose.kt.cu -DREGS=1 -DVEC=8 -DTILE=64 -DBROWS=8 -DPAD=0 -DSWAP=1
r128b4s transpose transpose.kt.cu -DREGS=1 -DVEC=8 -DTILE=128 -DBROWS=4 -DPAD=0 -DSWAP=1
orig rotary_embedding rotary_embedding.cu
default rotary_embedding rotary_embedding.kt.cu
v8s2 rotary_embedding rotary_embedding.kt.cu -DVEC=8 -DBLOCK_SIZE=64 -DHSPLIT=2
v8h1 rotary_embedding rotary_embedding.kt.cu -DVEC=8 -DBLOCK_SIZE=512
v8h2 rotary_embedding rotary_embedding.kt.cu -DVEC=8 -DHPT=2 -DBLOCK_SIZE=256
v8h4 rotary_embedding rotary_embedding.kt.cu -DVEC=8 -DHPT=4 -DBLOCK_SIZE=128
v8h4b64 rotary_embedding rotary_embedding.kt.cu -DVEC=8 -DHPT=4 -DBLOCK_SIZE=64
v8h8 rotary_embedding rotary_embedding.kt.cu -DVEC=8 -DHPT=8 -DBLOCK_SIZE=64
v4h4 rotary_embedding rotary_embedding.kt.cu -DVEC=4 -DHPT=4 -DBLOCK_SIZE=256
orig per_token_group_quant_fp8 per_token_group_quant_fp8.cu
default per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu
t4p per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=4 -DPACK=1
t4g64 per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=4 -DGPB=64 -DONCE=1 -DPACK=1
t4g64d per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=4 -DGPB=64 -DONCE=1 -DPACK=1 -DDIV=1
t4g32i4 per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=4 -DGPB=32 -DONCE=1 -DPACK=1 -DITEMS=4
t4g32i4d per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=4 -DGPB=32 -DONCE=1 -DPACK=1 -DITEMS=4 -DDIV=1
t4g64i2d per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=4 -DGPB=64 -DONCE=1 -DPACK=1 -DITEMS=2 -DDIV=1
t8g32i4d per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=8 -DGPB=32 -DONCE=1 -DPACK=1 -DITEMS=4 -DDIV=1
t2g64i2d per_token_group_quant_fp8 per_token_group_quant_fp8.kt.cu -DTPG=2 -DGPB=64 -DONCE=1 -DPACK=1 -DITEMS=2 -DDIV=1
'

# sample size bytes (timed for every configuration of the sample; bytes:
# the template's objective, read + written), prefill first
sizes='
transpose T=4096,H=7168 117440512
rotary_embedding T=4096,QH=32,KH=8,HD=128 86016000
per_token_group_quant_fp8 T=4096,D=7168 88997888
transpose T=16384,H=4096 268435456
per_token_group_quant_fp8 T=16384,D=7168 355991552
rotary_embedding T=16384,QH=32,KH=8,HD=128 344064000
rotary_embedding T=64,QH=32,KH=8,HD=128 1344000
'

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
} >"$out/device.txt"
cat "$out/device.txt"

# Builds, all at once (one nvcc each).
printf '%s\n' "$configs" | awk 'NF' >"$work/configs"
log "building $(wc -l <"$work/configs") checkers"
xargs -P "$(nproc)" -L 1 sh -c 'n=$0 s=$1 src=$2; shift 2; samples/cuda/build_check.sh "$s" "$src" "'"$work"'/${s}_$n" "$@" >"'"$out"'/builds/${s}_$n.log" 2>&1' \
	<"$work/configs"
log "built: $(find "$work" -maxdepth 1 -type f -perm -u+x -name "*_*" | wc -l) checkers"

# Checks, 8 at a time (they time nothing).
awk '{print $2 "_" $1}' "$work/configs" |
	xargs -P 8 -I{} sh -c 'b="'"$work"'/{}"; if [ -x "$b" ]; then timeout 60 "$b" check; echo "rc=$?"; else echo "BUILD FAILED"; fi >"'"$out"'/checks/{}.txt" 2>&1'
for f in "$out"/checks/*.txt; do
	printf '%-40s %s\n' "$(basename "$f" .txt)" "$(grep -E 'PASS|FAIL|BUILD FAILED|rc=' "$f" | tr '\n' ' ')"
done | tee "$out/checks.txt"
log "checks done"

# Times, one at a time.
: >"$out/times.txt"
printf '%s\n' "$sizes" | awk 'NF' | while read -r s z bytes; do
	awk -v s="$s" '$2 == s {print $1}' "$work/configs" | while read -r n; do
		b=$work/${s}_$n
		[ -x "$b" ] || continue
		# out of time: a row without a time
		[ "$(elapsed)" -lt 82 ] || { echo "$s $z $n - $bytes | not timed" >>"$out/times.txt"; continue; }
		t=$(timeout 20 "$b" time ${z//,/ } 2>&1 | tail -n 1)
		us=$(printf '%s\n' "$t" | sed -n 's/.*time_us=\([0-9.]*\).*/\1/p')
		echo "$s $z $n ${us:--} $bytes | $t" >>"$out/times.txt"
	done
	log "timed $s $z"
done

# The table: one row per sample, size and configuration: time, speed-up
# over the original, fraction of the copy bandwidth.
awk '
	$4 != "-" { if ($3 == "orig") o[$1 " " $2] = $4 }
	{ rows[nr++] = $0 }
	END {
		printf "%-26s %-24s %-9s %10s %8s %8s\n", "sample", "size", "config", "us", "speedup", "copy BW"
		for (r = 0; r < nr; r++) {
			split(rows[r], f, " "); k = f[1] " " f[2]
			if (f[4] == "-") { printf "%-26s %-24s %-9s %10s\n", f[1], f[2], f[3], "-"; continue }
			sp = (k in o) ? sprintf("%.2fx", o[k] / f[4]) : "-"
			printf "%-26s %-24s %-9s %10.2f %8s %7.1f%%\n", f[1], f[2], f[3], f[4], sp,
				100 * f[5] / (f[4] * 1e-6) / 4155e9
		}
	}' "$out/times.txt" | tee "$out/summary.txt"
log "done"
