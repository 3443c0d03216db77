#!/bin/sh
# bench.sh KT_CANDIDATES [RUNS]: time the frontend (parse + candidates +
# built-in plan, `kt-candidates --plan`) on every annotate sample: once
# with an empty header cache (cold) and RUNS times with it filled (warm);
# prints the median wall time per file in milliseconds.
# Run from the repository root: sh tests/frontend/bench.sh build/tests/kt-candidates
driver=${1:?usage: bench.sh KT_CANDIDATES [RUNS]} runs=${2:-5}
cache=$(mktemp -d) || exit 1
trap 'rm -rf "$cache"' EXIT
export KTC_CACHE_DIR="$cache"
ms() { # milliseconds of one run
	t0=$(date +%s%N)
	"$driver" --plan "$1" >/dev/null 2>&1 || echo "failed: $1" >&2
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-32s %8s %8s\n' file cold_ms warm_ms
all=""
for f in tests/annotate/inputs/*.cu; do
	cold=$(ms "$f")
	warm=$(for i in $(seq "$runs"); do ms "$f"; done | median)
	all="$all $warm"
	printf '%-32s %8s %8s\n' "$(basename "$f")" "$cold" "$warm"
done
printf 'median warm over files: %s ms\n' "$(echo $all | tr ' ' '\n' | median)"
printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
