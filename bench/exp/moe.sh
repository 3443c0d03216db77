#!/bin/bash
# bench/exp/moe.sh - GPU experiment for the per-tensor FP8 quantisation and
# MoE templates (samples/cuda/{per_tensor_quant_fp8,moe_align_block_size,
# moe_topk_softmax,moe_sum_reduce}): builds the GPU checker
# (samples/cuda/build_check.sh) around the original, the template at its
# defaults and a few hand-picked configurations (the one-wave absmax pass
# A_SMS, the reversed quantise pass Q_REV, CNT_VEC and S_AGG of
# moe_align_block_size, LATE_NORM, TREE and CACHE of the top-k, the points the
# last benchmark tuned); runs each checker's `check` (every size it lists
# against the CPU reference, 2 seeds) and times each at the benchmark's
# shapes on the checkers' one harness; then, while time is left and ktc is
# there, lets `ktc tune` (random and bayes, 64) pick, the absmax pass at
# T=4096 D=8192 first (its goal: 90% of the copy bandwidth).
#
#   OUT=DIR [KTC_BIN=DIR] [ONLY=REGEX] bench/exp/moe.sh   (from the repo root)
#
# ONLY keeps the checkers whose SAMPLE_NAME matches (default: all).
#
# Writes OUT/summary.txt (a table: time per configuration and size, and the
# speed-up over the original), OUT/times.txt (one line per timing),
# OUT/checks.txt and OUT/checks/NAME.txt (each checker's full output),
# OUT/builds/NAME.log, OUT/floor.txt (the harness's empty kernel and a copy
# of the absmax pass's bytes), OUT/tune/*.summary.json and *.t4.json,
# OUT/tune.txt (default and best of each tuning run; for the absmax pass
# the best's GB/s, its fraction of the H200's 4155 GB/s copy bandwidth and
# the harness's time for a copy of as many bytes). About 80 s
# on an H100/H200 box with 16 cores; every GPU command runs under
# `timeout`.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=${OUT:-/tmp/moe-out}
mkdir -p "$out/checks" "$out/builds" "$out/tune"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
log() { printf '[%3ss] %s\n' "$(elapsed)" "$*"; }
export PATH=$PATH:/usr/local/cuda/bin

# name sample source -D options... (rows of the table). The per-tensor
# checker times both passes (and the memset of the scale) together.
pt=per_tensor_quant_fp8
configs="
orig $pt $pt.cu
default $pt $pt.kt.cu
prev $pt $pt.kt.cu -DBLOCK_SIZE=1024 -DA_ITEMS=4 -DA_CAP=512 -DQ_CAP=4096
a2x1024i4 $pt $pt.kt.cu -DA_SMS=2 -DBLOCK_SIZE=1024 -DA_ITEMS=4
a4x256i8 $pt $pt.kt.cu -DA_SMS=4 -DBLOCK_SIZE=256 -DA_ITEMS=8
a8x256i4 $pt $pt.kt.cu -DA_SMS=8 -DBLOCK_SIZE=256 -DA_ITEMS=4
rev $pt $pt.kt.cu -DQ_REV=1
a4rev $pt $pt.kt.cu -DA_SMS=4 -DBLOCK_SIZE=256 -DA_ITEMS=8 -DQ_REV=1
a4revq4 $pt $pt.kt.cu -DA_SMS=4 -DBLOCK_SIZE=256 -DA_ITEMS=8 -DQ_REV=1 -DQ_SMS=4 -DBLOCK_SIZE_2=256 -DQ_ITEMS=2
orig moe_align_block_size moe_align_block_size.cu
default moe_align_block_size moe_align_block_size.kt.cu
prev moe_align_block_size moe_align_block_size.kt.cu -DFILL_VEC=2 -DSCAN=1 -DUNROLL=4 -DBLOCK_SIZE_2=1024
cv4 moe_align_block_size moe_align_block_size.kt.cu -DCNT_VEC=4 -DSCAN=1 -DUNROLL=8 -DFILL_BLOCKS=2
cv4agg8 moe_align_block_size moe_align_block_size.kt.cu -DCNT_VEC=4 -DSCAN=1 -DUNROLL=8 -DFILL_BLOCKS=2 -DS_AGG=1 -DS_ITEMS=8
cv4agg4 moe_align_block_size moe_align_block_size.kt.cu -DCNT_VEC=4 -DSCAN=1 -DUNROLL=8 -DFILL_BLOCKS=2 -DS_AGG=1 -DS_ITEMS=4 -DBLOCK_SIZE_2=512
orig moe_topk_softmax moe_topk_softmax.cu
default moe_topk_softmax moe_topk_softmax.kt.cu
s4 moe_topk_softmax moe_topk_softmax.kt.cu -DSPREAD=4
s4ln moe_topk_softmax moe_topk_softmax.kt.cu -DSPREAD=4 -DLATE_NORM=1
s4lnT moe_topk_softmax moe_topk_softmax.kt.cu -DSPREAD=4 -DLATE_NORM=1 -DTREE=1
s4c4 moe_topk_softmax moe_topk_softmax.kt.cu -DSPREAD=4 -DLATE_NORM=1 -DTREE=1 -DCACHE=4
s8c4 moe_topk_softmax moe_topk_softmax.kt.cu -DSPREAD=8 -DLATE_NORM=1 -DTREE=1 -DCACHE=4
w8l8s4c4 moe_topk_softmax moe_topk_softmax.kt.cu -DWARPS=8 -DLDG=8 -DSPREAD=4 -DLATE_NORM=1 -DTREE=1 -DCACHE=4
s1c4 moe_topk_softmax moe_topk_softmax.kt.cu -DLATE_NORM=1 -DTREE=1 -DCACHE=4
orig moe_sum_reduce moe_sum_reduce.cu
default moe_sum_reduce moe_sum_reduce.kt.cu
w1v1g16 moe_sum_reduce moe_sum_reduce.kt.cu -DWARPS=1 -DVPL=1 -DGX_DIV=16
w2v1 moe_sum_reduce moe_sum_reduce.kt.cu -DWARPS=2 -DVPL=1
"
# sample sizes... (each timed for every configuration of the sample)
sizes="
$pt T=4096,D=8192
moe_align_block_size T=4096,K=8,E=256,BS=64 T=64,K=8,E=256,BS=64
moe_topk_softmax T=4096,E=256,K=8 T=4096,E=64,K=8
moe_sum_reduce T=64,K=8,D=7168 T=4096,K=8,D=7168
"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
} >"$out/device.txt"
cat "$out/device.txt"

# Builds, all at once in the background (one nvcc each), and the harness's
# floor beside them.
printf '%s\n' "$configs" | awk -v re="${ONLY:-.}" 'NF && ($2 "_" $1) ~ re' >"$work/configs"
log "building $(wc -l <"$work/configs") checkers"
xargs -P "$(nproc)" -L 1 sh -c 'n=$0 s=$1 src=$2; shift 2; samples/cuda/build_check.sh "$s" "$src" "'"$work"'/${s}_$n" "$@" >"'"$out"'/builds/${s}_$n.log" 2>&1' \
	<"$work/configs" &
builds=$!
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$work/floor" \
	bench/floor.cu >"$out/builds/floor.log" 2>&1
# The absmax pass at T=4096 D=8192 moves 67108864 bytes (read only).
[ -x "$work/floor" ] && timeout 20 "$work/floor" 67108864 2>&1 | tee "$out/floor.txt"

# ktc's own search on the absmax pass while the checkers build (the GPU is
# idle meanwhile): random and bayes, 64 configurations, as bench/samples.sh.
ktc=${KTC_BIN:+$KTC_BIN/ktc}
: >"$out/tune.txt"
tune() { # name sample kernel strategy problems...
	local n=$1 s=$2 k=$3 st=$4 left
	shift 4
	left=$((88 - $(elapsed)))
	[ $left -gt 12 ] || { log "no time left for ktc tune $n"; return; }
	local args=()
	for p in "$@"; do args+=(-p "$p"); done
	log "ktc tune $n"
	timeout $((left - 4)) "$ktc" tune "samples/cuda/$s/$s.kt.cu" --backend cuda -k "$k" \
		"${args[@]}" -s "$st" -n 64 --seed 1 --batch 16 --no-cache --json -q \
		-o "$out/tune/$n.t4.json" >"$out/tune/$n.summary.json" 2>"$out/tune/$n.log"
	echo "rc=$?" >>"$out/tune/$n.log"
	python3 - "$out/tune/$n.summary.json" "$n" "$out/floor.txt" <<'EOF' | tee -a "$out/tune.txt"
import json, re, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[2]}: no summary ({e})")
    sys.exit(0)
b, df = d.get("best") or {}, d.get("default") or {}
line = (f"{sys.argv[2]}: default {df.get('time_ms', 0) * 1e3:.2f} us, best "
        f"{b.get('time_ms', 0) * 1e3:.2f} us ({b.get('key')}), speedup "
        f"{d.get('speedup', 0):.3f}, {d.get('visited')} of {d.get('space_size')}, "
        f"{d.get('elapsed_s', 0):.1f} s")
if sys.argv[2].startswith("absmax") and b.get("time_ms"):
    bw = 4096 * 8192 * 2 / (b["time_ms"] * 1e-3) / 1e9
    line += f"; {bw:.0f} GB/s, {bw / 4155 * 100:.1f}% of 4155 GB/s (the H200 copy bandwidth of docs/benchmarks.md)"
    try:  # the copy of as many bytes on the checkers' harness
        m = re.search(r"copy bytes=\d+ time_us=([0-9.]+)", open(sys.argv[3]).read())
        if m:
            line += f" (copy of the bytes on the checker harness: {float(m.group(1)):.2f} us)"
    except OSError:
        pass
print(line)
EOF
}
if [ -n "$ktc" ] && [ -x "$ktc" ]; then
	export LD_LIBRARY_PATH=$KTC_BIN:${LD_LIBRARY_PATH:-}
	export XDG_CACHE_HOME=$work/cache
	tune absmax-4096-random $pt per_tensor_absmax_kernel random T=4096 D=8192
	tune absmax-4096-bayes $pt per_tensor_absmax_kernel bayes T=4096 D=8192
fi
wait $builds
log "built: $(find "$work" -maxdepth 1 -type f -perm -u+x -name "*_*" | wc -l) checkers"

# Checks, 4 at a time (they time nothing).
awk '{print $2 "_" $1}' "$work/configs" |
	xargs -P 4 -I{} sh -c 'b="'"$work"'/{}"; if [ -x "$b" ]; then timeout 60 "$b" check; echo "rc=$?"; else echo "BUILD FAILED"; fi >"'"$out"'/checks/{}.txt" 2>&1'
for f in "$out"/checks/*.txt; do
	printf '%-36s %s\n' "$(basename "$f" .txt)" "$(grep -E 'PASS|FAIL|BUILD FAILED|rc=' "$f" | tr '\n' ' ')"
done | tee "$out/checks.txt"
log "checks done"

# Times, one at a time: every configuration at every size.
: >"$out/times.txt"
printf '%s\n' "$sizes" | awk 'NF' | while read -r s szs; do
	for z in $szs; do
		awk -v s="$s" '$2 == s {print $1}' "$work/configs" | while read -r n; do
			b=$work/${s}_$n
			[ -x "$b" ] || continue
			t=$(timeout 20 "$b" time ${z//,/ } 2>&1 | tail -n 1)
			us=$(printf '%s\n' "$t" | sed -n 's/.*time_us=\([0-9.]*\).*/\1/p')
			g=$(printf '%s\n' "$t" | sed -n 's/.*graph_us=\([0-9.]*\).*/\1/p')
			echo "$s $z $n ${us:--} ${g:--} | $t" >>"$out/times.txt"
		done
	done
done
log "times done"

# The table: per sample and size, a line per configuration: the cold-L2
# time and the graph steady state (check.h), each with the speed-up over
# the original in parentheses.
awk '
	function cell(v, o) {
		if (v == "" || v == "-") return sprintf("%18s", "-")
		if (o != "" && o != "-") return sprintf("%8.2f us (%.2fx)", v, o / v)
		return sprintf("%8.2f us        ", v)
	}
	{ key = $1 " " $2; t[key, $3] = $4; g[key, $3] = $5
	  if (!(key in seen)) { seen[key] = 1; rows[nr++] = key }
	  if (!($3 in cseen)) { cseen[$3] = 1; cols[nc++] = $3 } }
	END {
		for (r = 0; r < nr; r++) {
			k = rows[r]; printf "%s  (cold L2 | graph)\n", k
			for (c = 0; c < nc; c++) {
				if (!((k, cols[c]) in t)) continue
				printf "  %-12s %s | %s\n", cols[c], cell(t[k, cols[c]], t[k, "orig"]),
					cell(g[k, cols[c]], g[k, "orig"])
			}
		}
	}' "$out/times.txt" | tee "$out/summary.txt"

# ktc's pick on the MoE kernels, while time is left.
if [ -n "$ktc" ] && [ -x "$ktc" ]; then
	tune topk-4096-random moe_topk_softmax topk_softmax_kernel random T=4096 E=256 K=8
	tune sum-64-random moe_sum_reduce moe_sum_reduce_kernel random T=64 K=8 D=7168
	tune align-4096-random moe_align_block_size moe_align_block_size_kernel random T=4096
	tune sort-4096-random moe_align_block_size count_and_sort_expert_tokens_kernel random T=4096
	tune quant-4096-random $pt per_tensor_quant_fp8_kernel random T=4096 D=8192
fi
log "done"
