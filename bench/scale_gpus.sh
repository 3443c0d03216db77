#!/bin/sh
# scale_gpus.sh KTC [OUT] - configurations per minute against the number of
# GPUs (docs/scale.md): the same search (silu_and_mul, random, seed 7, 120
# configurations, batches of 16) with one backend, with `--devices 0`, and
# with `--devices 0,1`. Each run has a compile cache of its own, so none
# reuses another's compiles, and is stopped after 170 s (SIGTERM: the batch
# in flight finishes); the summary's "visited" and "elapsed_s" give the
# rate. OUT (default .) receives each run's T4 file, summary and log.
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-${OUT:-.}}
here=$(cd "$(dirname "$0")" && pwd)
T=$here/../samples/cuda/silu_and_mul/silu_and_mul.kt.cu
nvidia-smi -L; nproc
run() { # name, then options
	n=$1; shift
	t0=$(date +%s.%N)
	XDG_CACHE_HOME=/tmp/cache-$n timeout 170 "$K" tune "$T" --backend cuda \
		--strategy random --seed 7 --budget 120 --batch 16 --no-cache \
		-o "$OUT/t4-$n.json" --json "$@" > "$OUT/sum-$n.json" 2> "$OUT/err-$n.txt"
	rc=$?
	t1=$(date +%s.%N)
	echo "== $n rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') $*"
	grep -E '"(visited|evaluated|elapsed_s|device)"' "$OUT/sum-$n.json"
	tail -3 "$OUT/err-$n.txt"
}
run one
run dev0 --devices 0
run dev01 --devices 0,1
