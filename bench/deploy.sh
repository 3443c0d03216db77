#!/bin/bash
# bench/deploy.sh - per-shape tuning and the runtime library on a machine
# with an NVIDIA GPU (docs/deploy.md), in one command:
#
#   bench/deploy.sh BIN [OUT]
#
# BIN holds a build's ktc, libktcrt.so.0, ktc-deploy-bench,
# ktc-rt-overhead, test_rt_gpu and test_cuda_gpu (and libcjson.so.1 where
# the machine has no cJSON), as bench/deploy-pack.sh makes it. OUT
# (default deploy-results/) receives everything; a run killed and started
# again resumes from the caches under OUT/work.
#
# Steps (each logged to OUT/NAME.log, timed in OUT/steps.txt):
#   check     test_rt_gpu (the runtime computes right on this GPU, in a
#             graph, from four threads) and test_cuda_gpu (the backend's
#             faults and cheats, the graph objective's among them)
#   tune      for silu_and_mul, fused_add_rmsnorm, per_token_group_quant_fp8
#             (samples/cuda/): `ktc tune` over T = 1..16384 (8 shapes, the
#             cold objective) and over T = 1..1024 (8 shapes, the graph
#             objective), each warm-started from its neighbours, then the
#             middle of each two neighbouring shapes probed and tuned
#             where the nearest shape's best loses to the default there
#             (--refine), writing a wisdom file per sample and objective
#             (OUT/wisdom/)
#   measure   ktc-deploy-bench per sample at 15 shapes T = 1..16384 (some
#             tuned for neither objective), cold and graph: the original
#             (the template's defaults,
#             which compile to the original kernel), the single best
#             configuration (the one tuned at T=4096, used at every shape),
#             per-shape dispatch (the wisdom; graph mode uses the graph
#             wisdom up to T=1024 and the cold one above); outputs of each
#             variant compared with the original's on the same inputs
#   overhead  ktc-rt-overhead: a warm runtime launch against a plain
#             cuLaunchKernel of the same empty kernel
#   report    bench/deploy_report.py: OUT/deploy-results.md, OUT/deploy.png
#             and the measured section of docs/deploy.md (DOCS=0: not)
#
# Environment: BUDGET configurations per shape, default included (12);
# BATCH (6); STRATEGY (bayes); TIME_LIMIT seconds per shape (3); REFINE
# middles tuned at most per grid (8; 0: no refinement); STEPS
# (default: check tune measure overhead report); ONLY a regular expression
# on sample names; COLD_SHAPES, GRAPH_SHAPES the tuning grids' T. The
# defaults are meant to keep the run under 8 minutes on one H100 or H200
# (an estimate: not yet run on one); OUT/steps.txt times every step.
# Clocks and power settings are read, never changed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:?usage: bench/deploy.sh BIN [OUT]}
bin=$(cd "$bin" && pwd)
out=${2:-$root/deploy-results}
budget=${BUDGET:-12}
batch=${BATCH:-6}
strategy=${STRATEGY:-bayes}
time_limit=${TIME_LIMIT:-3}
refine=${REFINE:-8}
steps=${STEPS:-check tune measure overhead report}
only=${ONLY:-.}
mkdir -p "$out/wisdom" "$out/work"
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH=$bin:${LD_LIBRARY_PATH:-}
ktc=$bin/ktc

cold_shapes=${COLD_SHAPES:-1,4,16,64,256,1024,4096,16384}
graph_shapes=${GRAPH_SHAPES:-1,4,16,64,128,256,512,1024}
measured=1,3,4,16,64,100,128,256,512,1024,2048,3000,4096,8192,16384
# sample kernel fixed-problem
samples='
silu_and_mul silu_and_mul_kernel D=14336
fused_add_rmsnorm fused_add_rmsnorm_kernel D=7168
per_token_group_quant_fp8 per_token_group_quant_fp8_kernel D=7168'
samples=$(printf '%s\n' "$samples" | awk -v re="$only" 'NF && $1 ~ re')

has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
t_start=$(date +%s)
step_done() {
	local now
	now=$(date +%s)
	printf '%-40s %4ds (total %4ds)\n' "$1" $((now - t_step)) \
		$((now - t_start)) | tee -a "$out/steps.txt"
	t_step=$now
}
t_step=$t_start
: >"$out/steps.txt"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "cpus: $(nproc)"
	echo "budget: $budget, batch: $batch, strategy: $strategy, time limit: $time_limit s per shape, refine: $refine"
	echo "ktc: $("$ktc" --version 2>&1)"
	echo "commit: ${KTC_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} >"$out/device.txt"
cat "$out/device.txt"

if has check; then
	log "check: test_rt_gpu"
	"$bin/test_rt_gpu" "$root/tests/deploy/inputs/scale.kt.cu" \
		>"$out/check.log" 2>&1
	rc=$?
	tail -3 "$out/check.log"
	[ $rc = 0 ] || { log "test_rt_gpu failed (exit $rc): see $out/check.log"; exit 1; }
	log "check: test_cuda_gpu"
	"$bin/test_cuda_gpu" "$root/tests/cuda" >"$out/check-backend.log" 2>&1
	rc=$?
	tail -3 "$out/check-backend.log"
	[ $rc = 0 ] || log "test_cuda_gpu failed (exit $rc): see $out/check-backend.log"
	step_done check
fi

# tune SAMPLE KERNEL FIXED OBJECTIVE SHAPES
tune() {
	local s=$1 k=$2 fixed=$3 obj=$4 shapes=$5
	log "tune: $s ($obj, T=$shapes)"
	(cd "$out/work" && "$ktc" tune "$root/samples/cuda/$s/$s.kt.cu" \
		--kernel "$k" --backend cuda --problem "T=$shapes" \
		--problem "$fixed" --objective "$obj" --budget "$budget" \
		--batch "$batch" --strategy "$strategy" \
		--time-limit "$time_limit" --refine "$refine" \
		--wisdom "$out/wisdom/$s.$obj.json" \
		--json -q >"$out/tune-$s-$obj.json" 2>"$out/tune-$s-$obj.log")
	local rc=$?
	[ $rc = 0 ] || log "tune $s $obj: exit $rc (see $out/tune-$s-$obj.log)"
}

if has tune; then
	while read -r s k fixed; do
		[ -n "$s" ] || continue
		tune "$s" "$k" "$fixed" cold "$cold_shapes"
		tune "$s" "$k" "$fixed" graph "$graph_shapes"
		step_done "tune $s"
	done <<<"$samples"
fi

# The variants' wisdom files: the single best (the cold wisdom's T=4096
# shape alone, so every shape takes it as the nearest) and the graph
# dispatch (the graph wisdom, with the cold one's shapes above T=1024).
variants() {
	python3 - "$out/wisdom" "$1" <<'PY'
import json, os, sys
d, s = sys.argv[1], sys.argv[2]
cold = json.load(open(os.path.join(d, s + ".cold.json")))
single = dict(cold, shapes=[x for x in cold["shapes"]
                            if x["problem"]["T"] == 4096])
json.dump(single, open(os.path.join(d, s + ".single.json"), "w"), indent=1)
path = os.path.join(d, s + ".graph.json")
# no graph wisdom (its tuning failed): the cold one's shapes alone
graph = json.load(open(path)) if os.path.exists(path) else dict(cold,
                                                                shapes=[])
have = {x["problem"]["T"] for x in graph["shapes"]}
graph["shapes"] += [x for x in cold["shapes"]
                    if x["problem"]["T"] > 1024 and x["problem"]["T"] not in have]
json.dump(graph, open(os.path.join(d, s + ".dispatch-graph.json"), "w"),
          indent=1)
PY
}

if has measure; then
	while read -r s k fixed; do
		[ -n "$s" ] || continue
		log "measure: $s"
		if ! variants "$s" 2>"$out/measure-$s.log"; then
			log "no wisdom for $s: see $out/measure-$s.log"
			continue
		fi
		w=$out/wisdom/$s
		"$bin/ktc-deploy-bench" "$root/samples/cuda/$s/$s.kt.cu" \
			--kernel "$k" --problem "$fixed" --vary T \
			--shapes "$measured" --flush "$root/bench/flush.kt.cu" \
			--variant original:-:- \
			--variant "single:$w.single.json:$w.single.json" \
			--variant "dispatch:$w.cold.json:$w.dispatch-graph.json" \
			>"$out/$s.bench.jsonl" 2>>"$out/measure-$s.log" ||
			log "ktc-deploy-bench $s: exit $? (see $out/measure-$s.log)"
		step_done "measure $s"
	done <<<"$samples"
fi

if has overhead; then
	log "overhead: ktc-rt-overhead"
	"$bin/ktc-rt-overhead" "$root/bench/empty.kt.cu" \
		>"$out/overhead.json" 2>"$out/overhead.log" ||
		log "ktc-rt-overhead: exit $? (see $out/overhead.log)"
	cat "$out/overhead.json"
	step_done overhead
fi

if has report; then
	docs=()
	[ "${DOCS:-1}" = 1 ] && docs=(--docs "$root/docs/deploy.md")
	python3 "$root/bench/deploy_report.py" "$out" "${docs[@]}" ||
		log "deploy_report.py failed"
	step_done report
fi
log "done: $out"
