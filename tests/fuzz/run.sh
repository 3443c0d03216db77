#!/bin/sh
# run.sh SECONDS - builds the pragma-parser fuzzer in build-fuzz with clang-19
# (libFuzzer + ASan + UBSan) and runs it for SECONDS (default 60), seeded
# from tests/fuzz/corpus and the grammar's good/ and bad/ inputs. Exits 0
# when nothing crashed; a crashing input is left in build-fuzz/artifacts/.
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
	cmake --build "$build" --target fuzz_parse -j"$(nproc)"; } >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "run.sh: building the fuzzer failed (log: $log)" >&2
	exit 2
fi
# The first folder collects new inputs; the others are read-only seeds.
"$build/tests/fuzz_parse" -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-dict="$root/tests/fuzz/pragma.dict" \
	-artifact_prefix="$build/artifacts/" \
	"$build/corpus" "$root/tests/fuzz/corpus" \
	"$root/tests/grammar/good" "$root/tests/grammar/bad"
