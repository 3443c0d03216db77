#!/bin/sh
# objective_cli.sh CASE KTC SCALE - `ktc tune --objective cold|graph`
# without a GPU (the sim backend replays a landscape of SCALE, the tuner's
# scale.kt.cu), one behaviour per CASE:
#   separate_caches  a graph run keeps its own default cache, whose header
#                    and T4 file say "graph", and the wisdom says so too;
#                    the cold run's cache path is what it always was
#   refusals         an unknown objective (2), graph on OpenCL (2), a
#                    cache of the other objective named with --cache (1)
set -eu
case_=$1; ktc=$2; scale=$3
work=$(mktemp -d /tmp/ktc-objective-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$scale" scale.kt.cu
fail() { echo "FAIL: $*"; exit 1; }
"$ktc" landscape --kind bowl --seed 1 -o bowl.json scale.kt.cu >/dev/null ||
	fail "landscape"

case $case_ in
separate_caches)
	"$ktc" tune scale.kt.cu --from bowl.json -n 5 -q > cold.txt ||
		fail "cold run"
	"$ktc" tune scale.kt.cu --from bowl.json -n 5 -q --objective graph \
		--wisdom w.json -o graph.t4.json > graph.txt 2>&1 && :
	# -o with the default cache: one shape, allowed
	[ $? -eq 0 ] || { cat graph.txt; fail "graph run"; }
	cold=$(sed -n 's/^cache *//p' cold.txt)
	graph=$(sed -n 's/^cache *//p' graph.txt)
	[ -n "$cold" ] && [ -n "$graph" ] || fail "no cache lines"
	[ "$cold" != "$graph" ] || fail "one cache for both objectives: $cold"
	grep -q '^objective  graph: ' graph.txt || fail "no objective line"
	! grep -q '^objective' cold.txt || fail "an objective line for cold"
	# the cold path is the one from before objectives (a hash of the
	# device and the problem alone): golden tune_golden_default_cache
	head -1 "$graph" | grep -q '"objective":"graph"' ||
		fail "the graph cache's header does not say graph"
	head -1 "$cold" | grep -q '"objective":"cold"' ||
		fail "the cold cache's header does not say cold"
	grep -q '"objective":	"graph"' graph.t4.json ||
		fail "the T4 file does not say graph"
	grep -q '"objective":	"graph"' w.json ||
		fail "the wisdom does not say graph"
	;;
refusals)
	rc=0; "$ktc" tune scale.kt.cu --from bowl.json --objective warm \
		2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 2 ] || fail "unknown objective: exit $rc"
	grep -q -- "--objective must be cold or graph" err.txt ||
		fail "unknown objective: no message"
	rc=0; "$ktc" tune scale.kt.cu --backend opencl --objective graph \
		--no-cache 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 2 ] || fail "graph on opencl: exit $rc"
	grep -q "needs the cuda backend" err.txt ||
		fail "graph on opencl: no message"
	"$ktc" tune scale.kt.cu --from bowl.json -n 3 -q --cache c.jsonl \
		>/dev/null || fail "cold run"
	rc=0; "$ktc" tune scale.kt.cu --from bowl.json -n 3 -q --cache c.jsonl \
		--objective graph 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 1 ] || fail "cache of the other objective: exit $rc"
	grep -q "written for objective 'cold', not 'graph'" err.txt ||
		fail "cache of the other objective: no message"
	;;
*) fail "unknown case '$case_'" ;;
esac
echo "ok: $case_"
