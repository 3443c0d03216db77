#!/bin/sh
# run.sh SECONDS - builds the fuzzers in build-fuzz with clang-19 (libFuzzer
# + ASan + UBSan) and runs them for SECONDS in all (default 60), split
# between them: the pragma parser two fifths, the argument sizing, the
# results readers and the LLM answer reader (tests/fuzz/llm seeds it) a
# fifth each. The parser and the argument sizing are seeded from
# tests/fuzz/corpus and the grammar's good/ and bad/ inputs, the readers from
# tests/fuzz/results. Exits 0 when nothing crashed; a crashing input is left
# in build-fuzz/artifacts/.
set -eu
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
cc=${KTC_FUZZ_CC:-clang-19}
command -v "$cc" >/dev/null || { echo "run.sh: '$cc' not found (scripts/setup.sh installs clang-19)" >&2; exit 2; }
mkdir -p "$build/corpus" "$build/artifacts"
log=$build/build.log
if ! { CC=$cc cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DKTC_FUZZ=ON -DKTC_SANITIZE=ON &&
	cmake --build "$build" --target fuzz_parse fuzz_args fuzz_results fuzz_llm \
		-j"$(nproc)"; } >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "run.sh: building the fuzzer failed (log: $log)" >&2
	exit 2
fi
# fuzz TARGET SECONDS SEEDS... - the first folder collects new inputs; the
# others are read-only seeds.
fuzz() {
	target=$1 t=$2
	shift 2
	mkdir -p "$build/corpus-$target"
	echo "== $target, $t s"
	"$build/tests/$target" -max_total_time="$t" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build/artifacts/" "$build/corpus-$target" "$@"
}
half=$((secs * 2 / 5)) quarter=$((secs / 5))
fuzz fuzz_parse $((half > 0 ? half : 1)) -dict="$root/tests/fuzz/pragma.dict" \
	"$root/tests/fuzz/corpus" "$root/tests/grammar/good" "$root/tests/grammar/bad"
fuzz fuzz_args $((quarter > 0 ? quarter : 1)) -dict="$root/tests/fuzz/pragma.dict" \
	"$root/tests/fuzz/corpus" "$root/tests/grammar/good"
fuzz fuzz_results $((quarter > 0 ? quarter : 1)) "$root/tests/fuzz/results"
fuzz fuzz_llm $((quarter > 0 ? quarter : 1)) "$root/tests/fuzz/llm"
