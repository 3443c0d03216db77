#!/bin/sh
# golden.sh KTC EXPECTED ARG... - runs `KTC ARG...` in a scratch folder that
# holds tests/tune/inputs/scale.kt.cu, its three synthetic landscapes
# (bowl.json, roofline.json, rugged.json; seed 1), and the cache and T4
# file of a short run on bowl.json (bowl-cache.jsonl, part.json: random
# search, seed 3, budget 10). Masks the timings (the only output that
# changes from run to run) and compares stdout, stderr and the exit status
# with the EXPECTED file. KTC_UPDATE_GOLDEN=1 rewrites EXPECTED instead.
ktc=$1
expected=$2
shift 2
inputs="$(cd "$(dirname "$0")/inputs" && pwd)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/run" && cd "$tmp/run" || exit 1
cp "$inputs/scale.kt.cu" .
for kind in bowl roofline rugged; do
	"$ktc" landscape --kind $kind --seed 1 -o $kind.json scale.kt.cu 2>/dev/null ||
		{ echo "setup: landscape $kind failed"; exit 1; }
done
"$ktc" tune scale.kt.cu --from bowl.json --budget 10 --seed 3 --quiet \
	--cache bowl-cache.jsonl -o part.json >/dev/null ||
	{ echo "setup: tune failed"; exit 1; }
"$ktc" "$@" >"$tmp/out" 2>"$tmp/err"
status=$?
{
	cat "$tmp/out"
	echo "--- stderr"
	cat "$tmp/err"
	echo "--- exit $status"
} | sed -E -e 's/ in [0-9.]+ s$/ in X s/' \
	-e 's/"elapsed_s":([[:space:]]*)[0-9.e+-]+/"elapsed_s":\1X/' \
	-e 's/[0-9.hms]+ elapsed, ETA [0-9.hms?]+/X elapsed, ETA X/' \
	-e 's/\(built in: [a-z,]+\)/(built in: ...)/' >"$tmp/all"
if [ -n "$KTC_UPDATE_GOLDEN" ]; then
	cp "$tmp/all" "$expected"
fi
diff -u "$expected" "$tmp/all"
