#!/bin/bash
# bench/samples.sh - the benchmark of the CUDA samples (samples/cuda/) on a
# machine with an NVIDIA GPU: for each kernel and shape, tune the template
# with `ktc tune --backend cuda`, then build the GPU checker around the
# original and around the tuned configuration, check both against the CPU
# reference at several sizes (sizes not tuned on among them), time both
# with the checker's one harness, and write docs/benchmarks.md from what
# was measured (bench/samples_report.py; no number is typed by hand).
#
#   bench/samples.sh [BIN] [OUT]
#
# BIN holds ktc (and libcjson.so.1 where the machine has no cJSON); without
# it ktc is built in build-bench/ (libclang and OpenCL left out). OUT
# (default docs/results) receives the raw results: per tuning run the T4
# file (<entry>.t4.json), ktc's JSON summary and log; device.txt;
# checks/SAMPLE.txt (every checker's output and time, one file per sample). The report goes to REPORT (default
# docs/benchmarks.md).
#
# Environment: BUDGET configurations per tuning run, the default included
# (default 96); STRATEGY (default bayes); BATCH configurations asked for and
# compiled at once (default 16: the strategy hears back every 16); SET
# quick|full: the shapes below
# (default quick); ONLY a regular expression on entry names; JOBS parallel
# nvcc builds (default: the number of cores). Clocks and power settings are
# read, never changed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-}
out=${2:-$root/docs/results}
report=${REPORT:-$root/docs/benchmarks.md}
budget=${BUDGET:-96}
strategy=${STRATEGY:-bayes}
batch=${BATCH:-16}
set_name=${SET:-quick}
only=${ONLY:-.}
jobs=${JOBS:-$(nproc)}
cd "$root" || exit 1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# sample kernel shape problem... (the template's problem variables); the
# quick set first, then what the full set adds.
quick_entries='
silu_and_mul silu_and_mul_kernel decode T=64 D=14336
silu_and_mul silu_and_mul_kernel prefill T=4096 D=14336
gelu_and_mul gelu_and_mul_kernel prefill T=4096 D=14336
rmsnorm rmsnorm_kernel decode T=64 D=4096
rmsnorm rmsnorm_kernel prefill T=4096 D=4096
fused_add_rmsnorm fused_add_rmsnorm_kernel decode T=64 D=7168
fused_add_rmsnorm fused_add_rmsnorm_kernel prefill T=4096 D=7168
per_token_group_quant_fp8 per_token_group_quant_fp8_kernel prefill T=4096 D=7168
per_tensor_quant_fp8 per_tensor_absmax_kernel prefill T=4096 D=8192
per_tensor_quant_fp8 per_tensor_quant_fp8_kernel prefill T=4096 D=8192
moe_align_block_size moe_align_block_size_kernel prefill T=4096 K=8 E=256 BS=64
moe_align_block_size count_and_sort_expert_tokens_kernel prefill T=4096 K=8 E=256 BS=64
moe_topk_softmax topk_softmax_kernel prefill T=4096 E=256 K=8
moe_sum_reduce moe_sum_reduce_kernel decode T=64 K=8 D=7168
moe_sum_reduce moe_sum_reduce_kernel prefill T=4096 K=8 D=7168
merge_attn_states merge_attn_states_kernel decode T=64 H=32 HD=128
merge_attn_states merge_attn_states_kernel prefill T=4096 H=32 HD=128
rotary_embedding rotary_embedding_kernel prefill T=4096 QH=32 KH=8 HD=128
transpose transpose_kernel prefill T=4096 H=7168
'
full_entries='
silu_and_mul silu_and_mul_kernel token T=1 D=14336
gelu_and_mul gelu_and_mul_kernel decode T=64 D=14336
rmsnorm rmsnorm_kernel token T=1 D=4096
rmsnorm rmsnorm_kernel large T=16384 D=8192
fused_add_rmsnorm fused_add_rmsnorm_kernel token T=1 D=7168
fused_add_rmsnorm fused_add_rmsnorm_kernel large T=16384 D=8192
per_token_group_quant_fp8 per_token_group_quant_fp8_kernel large T=16384 D=7168
per_tensor_quant_fp8 per_tensor_absmax_kernel large T=16384 D=8192
per_tensor_quant_fp8 per_tensor_quant_fp8_kernel large T=16384 D=8192
moe_topk_softmax topk_softmax_kernel experts64 T=4096 E=64 K=8
rotary_embedding rotary_embedding_kernel large T=16384 QH=32 KH=8 HD=128
transpose transpose_kernel large T=16384 H=4096
gelu_and_mul gelu_and_mul_kernel wide T=4096 D=18432
merge_attn_states merge_attn_states_kernel token T=1 H=32 HD=128
moe_sum_reduce moe_sum_reduce_kernel token T=1 K=8 D=7168'
entries=$quick_entries
[ "$set_name" = full ] && entries="$quick_entries$full_entries"
entries=$(printf '%s\n' "$entries" | awk -v re="$only" 'NF && ($1 "-" $2 "-" $3) ~ re')

if [ -z "$bin" ]; then
	cmake -S "$root" -B "$root/build-bench" -DCMAKE_BUILD_TYPE=Release \
		-DKTC_WITH_LIBCLANG=OFF -DKTC_WITH_OPENCL=OFF >/dev/null &&
		cmake --build "$root/build-bench" -j"$(nproc)" --target ktc >/dev/null ||
		exit 1
	bin=$root/build-bench
fi
ktc=$bin/ktc
export LD_LIBRARY_PATH=$bin:${LD_LIBRARY_PATH:-}
log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "nvcc: $(nvcc --version 2>&1 | tail -1)"
	echo "cpus: $(nproc)"
	echo "budget: $budget"
	echo "strategy: $strategy"
	echo "batch: $batch"
	echo "set: $set_name"
	echo "ktc: $("$ktc" --version 2>&1)"
	echo "commit: ${KTC_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} >"$out/device.txt"
cat "$out/device.txt"

# The checker builds run on the CPU beside the tuning: the originals first.
samples=$(printf '%s\n' "$entries" | awk 'NF {print $1}' | sort -u)
mkdir -p "$work/bin"
for s in $samples; do
	printf '%s %s %s\n' "$s" "$s.cu" "$work/bin/orig_$s"
	printf '%s %s %s\n' "$s" "$s.kt.cu" "$work/bin/default_$s"
done >"$work/builds1"
xargs -r -P "$jobs" -L 1 sh -c 'samples/cuda/build_check.sh "$0" "$1" "$2" >"$2.log" 2>&1' \
	<"$work/builds1" &
builds=$!

# The harness's floor (bench/floor.cu): an empty kernel, and a copy of
# as many bytes as each memory-bound run moves.
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a --default-stream per-thread -o "$work/bin/floor" \
	bench/floor.cu >"$work/bin/floor.log" 2>&1 &
floor_build=$!

# Tuning, one entry at a time (one GPU).
printf '%s\n' "$entries" | while read -r s k shape problem; do
	name=$s-$k-$shape
	args=()
	for p in $problem; do args+=(-p "$p"); done
	log "tune $name ($problem)"
	"$ktc" tune "samples/cuda/$s/$s.kt.cu" --backend cuda -k "$k" "${args[@]}" \
		-s "$strategy" -n "$budget" --seed 1 --batch "$batch" \
		--cache "$work/$name.jsonl" -o "$out/$name.t4.json" --json -q \
		>"$out/$name.summary.json" 2>"$out/$name.log"
	echo "rc=$?" >>"$out/$name.log"
	grep -E '"(speedup|elapsed_s)"' "$out/$name.summary.json" | tr -d '\t\n,'
	echo
done
wait $builds
wait $floor_build || cat "$work/bin/floor.log"
[ -x "$work/bin/floor" ] && echo "floor: $("$work/bin/floor" | head -n 1)" >>"$out/device.txt"
python3 "$root/bench/samples_report.py" --bytes "$out" >"$work/bytes" || true

# The tuned checkers: one per sample and shape, with the best configuration
# of each of the sample's kernels at that shape.
printf '%s\n' "$entries" | awk 'NF {print $1, $3}' | sort -u | while read -r s shape; do
	defs=""
	for f in "$out/$s"-*-"$shape".summary.json; do
		[ -f "$f" ] || continue
		key=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print((d.get("best") or {}).get("key", ""))' "$f" 2>/dev/null)
		for kv in ${key//,/ }; do defs="$defs -D$kv"; done
	done
	[ -n "$defs" ] && printf '%s %s %s%s\n' "$s" "$s.kt.cu" "$work/bin/tuned_${s}_$shape" "$defs"
done >"$work/builds2"
log "building $(wc -l <"$work/builds2") tuned checkers"
xargs -r -P "$jobs" -L 1 sh -c 's=$0 src=$1 o=$2; shift 2; samples/cuda/build_check.sh "$s" "$src" "$o" "$@" >"$o.log" 2>&1' \
	<"$work/builds2"

# Checks (every size each checker lists), several at a time since they do
# not time anything; then the times, one at a time, at each entry's shape.
mkdir -p "$work/checks"
{
	for s in $samples; do
		echo "original_$s $work/bin/orig_$s original $s"
	done
	while read -r s src b defs; do
		echo "tuned_${s}_${b##*_} $b tuned $s ${b##*_} $defs"
	done <"$work/builds2"
} >"$work/checklist"
log "running $(wc -l <"$work/checklist") checkers"
xargs -r -P 4 -L 1 sh -c 'n=$0 b=$1; shift 1; { echo "== check $*"; if [ -x "$b" ]; then "$b" check 2>&1; else echo "BUILD FAILED"; cat "$b.log"; fi; } >"'"$work"'/checks/$n.txt" 2>&1' \
	<"$work/checklist"
# One file of checks and times per sample (checks/SAMPLE.txt), so a run
# limited by ONLY replaces just the samples it ran.
mkdir -p "$out/checks"
rm -f "$out/checks.txt"
for s in $samples; do
	{
		awk -v s="$s" '$4 == s {print $1}' "$work/checklist" | while read -r n; do
			cat "$work/checks/$n.txt"
		done
		printf '%s\n' "$entries" | awk -v s="$s" '$1 == s {print $3, $4, $5, $6, $7}' |
			sort -u | while read -r shape dims; do
				for v in orig default tuned; do
					b=$work/bin/${v}_$s
					[ $v = tuned ] && b=$work/bin/tuned_${s}_$shape
					[ -x "$b" ] || continue
					echo "== time $v $s $shape"
					"$b" time $dims 2>&1 | tail -n 1
				done
			done
		printf '%s\n' "$entries" | awk -v s="$s" '$1 == s {print $1 "-" $2 "-" $3}' |
			while read -r name; do
				bytes=$(awk -v n="$name" '$1 == n {print $2}' "$work/bytes")
				[ -n "$bytes" ] && [ -x "$work/bin/floor" ] || continue
				echo "== floor $name"
				"$work/bin/floor" "$bytes" 2>&1 | tail -n 1
			done
	} >"$out/checks/$s.txt" 2>&1
done
while read -r n rest; do
	printf '%-50s %s\n' "$n" "$(tail -n 1 "$work/checks/$n.txt")"
done <"$work/checklist"

# Profiler evidence (DRAM bytes, occupancy, SM throughput through ktc's
# CUPTI range profiler) for the default and the best configuration of each
# memory-bound kernel at a prefill size whose best is under 90% of the copy
# bandwidth.
python3 "$root/bench/samples_report.py" --below "$out" | while read -r name; do
	s=${name%%-*} rest=${name#*-} k=${rest%-*}
	problem=$(printf '%s\n' "$entries" | awk -v n="$name" '($1 "-" $2 "-" $3) == n {$1 = $2 = $3 = ""; print}')
	[ -n "$problem" ] || continue # tuned by an earlier run (ONLY)
	args=()
	for p in $problem; do args+=(-p "$p"); done
	"$ktc" apply "samples/cuda/$s/$s.kt.cu" "$out/$name.t4.json" -k "$k" \
		-o "$work/$name.best.kt.cu" >/dev/null 2>&1 || continue
	for v in default best; do
		tpl=samples/cuda/$s/$s.kt.cu
		[ $v = best ] && tpl=$work/$name.best.kt.cu
		log "profile $name ($v)"
		"$ktc" tune "$tpl" --backend cuda -k "$k" "${args[@]}" -n 1 --profile \
			--no-cache -o "$out/$name.profile-$v.t4.json" -q >/dev/null 2>>"$out/$name.log"
	done
done

python3 "$root/bench/samples_report.py" "$out" "$report" && log "wrote $report"
