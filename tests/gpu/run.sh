#!/bin/bash
# tests/gpu/run.sh - the CUDA backend on a machine with an NVIDIA GPU: the
# GPU tests, then the demos whose numbers docs/cuda-backend.md reports.
#
#   tests/gpu/run.sh [BIN] [OUT]
#
# BIN holds ktc, test_cuda_gpu and cuda_bench (a build folder's `ktc` and
# `tests/` merged, or a carried copy); without it the script builds them
# in build-gpu/ (needs cJSON). Everything is written to OUT (default
# gpu-results/): device.txt, one log per step, T4 files, JSON summaries.
# STEPS picks steps (default: all): device faults nvrtc bench seq tune
# apply profile resume; LIMIT (default 0: all) caps the configurations of bench and
# tune, SEQ_LIMIT (default 0: all) those of seq. Clocks and power settings are
# read, never changed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-}
out=${2:-$root/gpu-results}
steps=${STEPS:-device faults nvrtc bench seq tune apply profile resume}
limit=${LIMIT:-0}
seq_limit=${SEQ_LIMIT:-0}
tpl=$root/tests/cuda/silu_mul.kt.cu
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$bin" ]; then
	cmake -S "$root" -B "$root/build-gpu" -DCMAKE_BUILD_TYPE=Release \
		-DKTC_WITH_LIBCLANG=OFF -DKTC_WITH_OPENCL=OFF >/dev/null &&
		cmake --build "$root/build-gpu" -j"$(nproc)" >/dev/null || exit 1
	bin=$work/bin
	mkdir -p "$bin"
	cp "$root/build-gpu/ktc" "$root/build-gpu/tests/test_cuda_gpu" \
		"$root/build-gpu/tests/cuda_bench" "$bin/"
fi
export LD_LIBRARY_PATH=$bin:${LD_LIBRARY_PATH:-}

has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
step() { # step NAME COMMAND...: runs it, logs to OUT/NAME.log, times it
	local name=$1
	shift
	echo "== $name: $*" | tee "$out/$name.log"
	local t0=$(date +%s.%N)
	"$@" >>"$out/$name.log" 2>&1
	local rc=$?
	local t1=$(date +%s.%N)
	printf '== %s: exit %d, %.1f s\n' "$name" $rc "$(awk "BEGIN{print $t1 - $t0}")" |
		tee -a "$out/$name.log"
	return $rc
}

if has device; then
	{
		date -u +%Y-%m-%dT%H:%M:%SZ
		nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu,persistence_mode,compute_mode --format=csv
		nvcc --version | tail -2
		nproc
	} >"$out/device.txt" 2>&1
	cat "$out/device.txt"
fi

if has faults; then
	step faults "$bin/test_cuda_gpu" "$root/tests/cuda"
	grep -v "^==" "$out/faults.log"
fi

# NVRTC alone (no GPU): every configuration compiled into a cold cache by
# one thread, by one thread per core, and by one process per core.
if has nvrtc; then
	n=$(nproc)
	step nvrtc1 "$bin/cuda_bench" --compile-only --threads 1 --cache "$work/n1" \
		--json "$out/nvrtc_1thread.json" "$tpl"
	step nvrtcT "$bin/cuda_bench" --compile-only --threads "$n" --cache "$work/nT" \
		--json "$out/nvrtc_threads.json" "$tpl"
	t0=$(date +%s.%N)
	for i in $(seq 0 $((n - 1))); do
		"$bin/cuda_bench" --compile-only --threads 1 --slice "$i/$n" \
			--cache "$work/nP" --json "$work/np$i.json" "$tpl" >/dev/null 2>&1 &
	done
	wait
	t1=$(date +%s.%N)
	{
		grep -h '"wall_s"' "$out/nvrtc_1thread.json" | sed 's/^/1 thread: /'
		grep -h '"wall_s"' "$out/nvrtc_threads.json" | sed "s/^/$n threads: /"
		echo "$n processes: wall_s $(awk "BEGIN{print $t1 - $t0}")"
		cat "$work"/np*.json | grep -h '"configurations"' | awk '{s += $2} END {print "configurations compiled by the processes: " s}'
	} | tee "$out/nvrtc.txt"
fi

# Throughput: every configuration, compiled on all cores while the GPU
# measures (cold cubin cache), then the same compiled and run one after
# another on one thread (cold cache too).
if has bench; then
	step bench "$bin/cuda_bench" --threads "$(nproc)" --limit "$limit" --cache "$work/c1" \
		--json "$out/bench_pipelined.json" "$tpl"
	cat "$out/bench_pipelined.json"
fi
if has seq; then
	step seq "$bin/cuda_bench" --threads 1 --limit "$seq_limit" --cache "$work/c2" \
		--json "$out/bench_sequential.json" "$tpl"
	cat "$out/bench_sequential.json"
fi

# The same tuning run twice (brute force, every configuration, fresh
# caches), through the command line.
if has tune; then
	for run in 1 2; do
		XDG_CACHE_HOME=$work/x$run step "tune$run" "$bin/ktc" tune \
			--backend cuda -s brute_force -n "$limit" --batch 256 --no-cache \
			-q -o "$out/tune$run.t4.json" "$tpl"
		grep -E "^(device|visited|status|default|best)" "$out/tune$run.log"
	done
fi

# ktc apply: the best of run 1 fixed into the template; nvcc builds it and
# the template with the same values as -D flags; the outputs must match.
if has apply && [ -f "$out/tune1.t4.json" ]; then
	step apply "$bin/ktc" apply "$tpl" "$out/tune1.t4.json" -o "$out/silu_mul.best.cu"
	defs=$(sed -n 's/^.*silu_mul.best.cu: //; s/ (.*//p' "$out/apply.log" | tr ',' '\n' | sed 's/^/-D/' | tr '\n' ' ')
	nvcc -arch=sm_90a -DKTC_DEMO_MAIN -o "$work/applied" "$out/silu_mul.best.cu" &&
		nvcc -arch=sm_90a -DKTC_DEMO_MAIN $defs -o "$work/tuned" "$tpl" &&
		nvcc -arch=sm_90a -DKTC_DEMO_MAIN -o "$work/default" "$tpl"
	{
		echo "nvcc -D flags of the tuned configuration: $defs"
		"$work/applied" | sed 's/^/applied: /'
		"$work/tuned" | sed 's/^/tuned:   /'
		"$work/default" | sed 's/^/default: /'
	} | tee "$out/apply_check.txt"
fi

if has profile; then
	step profile "$bin/ktc" tune --backend cuda --profile -s random -n 6 \
		--no-cache -q -o "$out/profile.t4.json" "$tpl"
	tail -n 8 "$out/profile.log"
fi
# A run killed from outside (SIGKILL after 8 s) and run again: the second
# run answers what the first finished from the cache.
if has resume; then
	cache=$work/resume.jsonl
	XDG_CACHE_HOME=$work/xr timeout -s KILL 8 "$bin/ktc" tune --backend cuda \
		-s brute_force -n "$limit" --batch 16 --cache "$cache" -q "$tpl" \
		>"$out/resume_killed.log" 2>&1
	echo "killed after 8 s: $(($(wc -l <"$cache") - 1)) results in the cache" |
		tee "$out/resume.txt"
	XDG_CACHE_HOME=$work/xr step resume "$bin/ktc" tune --backend cuda \
		-s brute_force -n "$limit" --batch 16 --cache "$cache" -q "$tpl"
	grep -E "^(visited|status|best)" "$out/resume.log" | tee -a "$out/resume.txt"
fi
echo "results in $out"
