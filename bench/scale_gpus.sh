#!/bin/sh
# scale_gpus.sh KTC [OUT] - configurations per minute against the number of
# GPUs (docs/scale.md). Two templates, each searched the same way (random,
# seed 7, batches of 16, checks on, an empty compile cache per run) with one
# backend (no pool), with `--devices 0` and with `--devices 0,1`:
#   tests/cuda/silu_mul.kt.cu      all 240 configurations, T=4096 D=14336
#   samples/cuda/silu_and_mul      24 configurations at its default shape
# Each run is stopped after LIMIT s (default 110) (SIGTERM: the batch in
# flight finishes); the summary's "visited" and "elapsed_s" give the rate.
# DEVICES (default "0 0,1") lists the --devices sets for silu_mul; NOPOOL=0
# leaves out its run without a pool, SAMPLE=0 the sample's runs. OUT
# (default .) receives each run's T4 file, summary and log.
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-${OUT:-.}}
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi -L; nproc
run() { # name, template, budget, then options
	n=$1 t=$2 b=$3; shift 3
	t0=$(date +%s.%N)
	XDG_CACHE_HOME=/tmp/cache-$n timeout "${LIMIT:-110}" "$K" tune "$t" --backend cuda \
		--strategy random --seed 7 --budget "$b" --batch 16 --no-cache \
		-o "$OUT/t4-$n.json" --json "$@" > "$OUT/sum-$n.json" 2> "$OUT/err-$n.txt"
	rc=$?
	t1=$(date +%s.%N)
	echo "== $n rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') $*"
	grep -E '"(visited|evaluated|elapsed_s|best_time_us|best)"' "$OUT/sum-$n.json" | head -5
	tail -2 "$OUT/err-$n.txt"
}
S=$here/../tests/cuda/silu_mul.kt.cu
A=$here/../samples/cuda/silu_and_mul/silu_and_mul.kt.cu
[ "${NOPOOL:-1}" = 0 ] || run small-one "$S" 0
for d in ${DEVICES:-0 0,1}; do
	run "small-dev$(echo "$d" | tr -d ,)" "$S" 0 --devices "$d"
done
if [ "${SAMPLE:-1}" != 0 ]; then
	run sample-one "$A" 24
	run sample-dev01 "$A" 24 --devices 0,1
fi
