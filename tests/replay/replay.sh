#!/bin/sh
# replay.sh KTC CASE - replays a recorded tuning run through the sim backend
# and compares what comes out with tests/replay/expected/CASE.{out,t4.json},
# recorded before the code was moved into its stage libraries (issue 10):
# moving code must not change a result.
#
# Runs from the repository's root, so the T4 files name the template by the
# same relative path every time. Masks what depends on the clock (each
# result's timestamp, the search's own time, the elapsed seconds of the
# summary); everything else (order of visits, configurations, statuses,
# times, every timed run, measurements, metadata) must be byte for byte
# what was recorded. KTC_UPDATE_GOLDEN=1 rewrites the expected files.
ktc=$1
case=$2
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

results=docs/results
rmsnorm=samples/cuda/rmsnorm/rmsnorm.kt.cu
silu=samples/cuda/silu_and_mul/silu_and_mul.kt.cu

# A recorded search of the whole rmsnorm space (38 configurations at the
# decode size), searched again by STRATEGY.
rmsnorm_decode() {
	"$ktc" tune "$rmsnorm" --backend sim \
		--from $results/rmsnorm-rmsnorm_kernel-decode.t4.json \
		-p T=64 -p D=4096 --strategy "$1" --seed 5 --budget 12 \
		--batch 4 --no-cache -q -o "$tmp/out.t4.json"
}

case $case in
silu_decode_bayes)
	# the H100 run of bench/samples.sh itself: bayes, seed 1, budget 96,
	# batch 16 visits exactly the recorded configurations again
	"$ktc" tune "$silu" --backend sim \
		--from $results/silu_and_mul-silu_and_mul_kernel-decode.t4.json \
		-p T=64 -p D=14336 --strategy bayes --seed 1 --budget 96 \
		--batch 16 --no-cache -q -o "$tmp/out.t4.json" ;;
rmsnorm_decode_*)
	rmsnorm_decode "${case#rmsnorm_decode_}" ;;
landscape_rugged)
	"$ktc" landscape --kind rugged --seed 3 -o "$tmp/out.t4.json" \
		"$rmsnorm" 2>&1 | sed "s|$tmp/||" ;;
landscape_rugged_genetic)
	"$ktc" landscape --kind rugged --seed 3 -o "$tmp/land.json" \
		"$rmsnorm" >/dev/null 2>&1 &&
		"$ktc" tune "$rmsnorm" --from "$tmp/land.json" \
			--strategy genetic --seed 9 --budget 30 --no-cache -q \
			-o "$tmp/out.t4.json" | sed "s|$tmp/||" ;;
*)
	echo "replay.sh: unknown case '$case'" >&2
	exit 2 ;;
esac >"$tmp/out" 2>&1
echo "--- exit $?" >>"$tmp/out"

sed -E -e "s|$tmp/||g" -e 's/ in [0-9.]+ s$/ in X s/' "$tmp/out" >"$tmp/all.out"
sed -E -e 's/("timestamp":[[:space:]]*)"[^"]*"/\1"X"/' \
	-e 's/("search_algorithm":[[:space:]]*)[0-9.e+-]+/\10/' \
	-e "s|$tmp/||g" "$tmp/out.t4.json" >"$tmp/all.t4.json" 2>/dev/null ||
	: >"$tmp/all.t4.json"

exp="$here/expected/$case"
if [ -n "$KTC_UPDATE_GOLDEN" ]; then
	cp "$tmp/all.out" "$exp.out"
	cp "$tmp/all.t4.json" "$exp.t4.json"
fi
status=0
diff -u "$exp.out" "$tmp/all.out" || status=1
diff -u "$exp.t4.json" "$tmp/all.t4.json" >"$tmp/t4.diff" || {
	head -40 "$tmp/t4.diff"
	echo "replay.sh: $case: the T4 file differs from $exp.t4.json"
	status=1
}
exit $status
