#!/bin/bash
# hostile-gpu.sh [BIN] - the hostile-input checks that need a GPU (issue 11):
# the CUDA tests, a kernel that skips its work once the checked runs are
# over and one that writes its input (tests/cuda/cheat.kt.cu), a buffer
# larger than the device, and a CUDA worker killed from outside mid-tune.
# BIN holds ktc and test_cuda_gpu (default: build); logs go to $OUT (or a
# temporary folder). OLD, if set, is a folder with an older ktc to run the
# graph-run cheat with too, for comparison. docs/tuning.md ("Hostile input") quotes its output.
set -u
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build}" && pwd)
out=${OUT:-$(mktemp -d)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ktc=$bin/ktc
# fields FILE PATTERN: PATTERN's matches in a JSON file, its layout removed
fields() { tr -d '\t\n' <"$1" | grep -o "$2"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "ktc $("$ktc" --version 2>&1 | head -1)"
echo "== test_cuda_gpu"
timeout 300 "$bin/test_cuda_gpu" tests/cuda >"$out/gpu.log" 2>&1
echo "rc=$?"
tail -3 "$out/gpu.log"
echo "== a kernel that cheats on timed runs, one that writes its input"
timeout 120 "$ktc" tune tests/cuda/cheat.kt.cu --backend cuda \
	--strategy brute_force --budget 0 --runs 20 --no-cache \
	-o "$out/cheat.json" 2>&1 | tail -8
fields "$out/cheat.json" '"invalidity":"[a-z]*"\|"message":"[^"]*"'
echo "== a kernel that skips its work on every third graph run (tests/cuda/cheat_graph.kt.cu)"
for bin_ in ${OLD:+"$OLD"} "$bin"; do
	echo "-- $bin_"
	for runs in 20 21 22; do
		timeout 120 "$bin_/ktc" tune tests/cuda/cheat_graph.kt.cu \
			--backend cuda --strategy brute_force --budget 0 \
			--runs $runs --no-cache -o "$work/g.json" >/dev/null 2>&1
		echo "runs $runs: $(fields "$work/g.json" '"invalidity":"[a-z]*"\|"message":"timed run[^"]*"\|"graph_runs_checked","value":[0-9]*' | tr '\n' ' ')"
	done
done
echo "== a buffer larger than the device"
sed 's/float\[N\] out/float[N * 100000000] out/' tests/cuda/cheat.kt.cu \
	>"$work/huge.kt.cu"
timeout 60 "$ktc" tune "$work/huge.kt.cu" --backend cuda --budget 1 \
	--no-cache 2>&1 | tail -3
echo "== the CUDA worker killed from outside"
"$ktc" tune tests/cuda/silu_mul.kt.cu --backend cuda --budget 6 --batch 1 \
	--cache "$out/k.jsonl" -q >"$work/k.out" 2>&1 &
pid=$!
while [ "$(cat "$out/k.jsonl" 2>/dev/null | wc -l)" -lt 3 ]; do
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
for x in $(awk -v p="$pid" '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null); do
	case "$(tr '\0' ' ' </proc/$x/cmdline 2>/dev/null)" in
	*cuda-worker*) echo "killed worker $x" && kill -KILL "$x" ;;
	esac
done
wait $pid
echo "tune rc=$?"
tail -3 "$work/k.out"
grep -o '"status":"[a-z]*"' "$out/k.jsonl" | sort | uniq -c
grep -v '"status":"correct"' "$out/k.jsonl" | grep -o '"message":"[^"]*"\|"key":"[^"]*"' 
