#!/bin/sh
# bench.sh KT_CANDIDATES [RUNS]: times the frontend (parse + candidates +
# built-in plan, `kt-candidates --plan`) on every annotate sample: once with
# an empty header cache (cold), RUNS times with it filled (warm) and RUNS
# times without it (--no-cache); prints the median wall time per file in
# milliseconds, and the median of each stage of one warm run (--time).
# Run from the repository root: sh tests/frontend/bench.sh build/tests/kt-candidates
driver=${1:?usage: bench.sh KT_CANDIDATES [RUNS]} runs=${2:-5}
cache=$(mktemp -d) || exit 1
trap 'rm -rf "$cache"' EXIT
export KTC_CACHE_DIR="$cache"
ms() { # milliseconds of one run: ms FILE [OPTIONS]
	f=$1
	shift
	t0=$(date +%s%N)
	"$driver" --plan "$@" "$f" >/dev/null 2>&1 || echo "failed: $f" >&2
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-30s %8s %8s %9s %9s\n' file cold_ms warm_ms nocache_ms stages_ms
warm_all="" none_all=""
for f in tests/annotate/inputs/*.cu; do
	cold=$(ms "$f")
	warm=$(for i in $(seq "$runs"); do ms "$f"; done | median)
	none=$(for i in $(seq "$runs"); do ms "$f" --no-cache; done | median)
	stages=$("$driver" --plan --time "$f" 2>&1 >/dev/null | sed -n \
		's/^time: parse \([0-9]*\) ms, candidates \([0-9]*\) ms, plan \([0-9]*\) ms/\1+\2+\3/p')
	warm_all="$warm_all $warm"
	none_all="$none_all $none"
	printf '%-30s %8s %8s %9s %9s\n' "$(basename "$f")" "$cold" "$warm" \
		"$none" "$stages"
done
printf 'median over files: warm %s ms, no cache %s ms\n' \
	"$(echo $warm_all | tr ' ' '\n' | median)" \
	"$(echo $none_all | tr ' ' '\n' | median)"
printf 'load average: %s, %s cores\n' "$(cut -d' ' -f1-3 /proc/loadavg)" \
	"$(nproc)"
