#!/bin/sh
# golden.sh KTC EXPECTED ARG... - runs `KTC ARG...` in tests/space/golden,
# masks the timings (the only output that changes from run to run), and
# compares stdout, stderr and the exit status with the EXPECTED file.
# KTC_UPDATE_GOLDEN=1 rewrites EXPECTED instead.
ktc=$1
expected=$2
shift 2
cd "$(dirname "$0")/golden" || exit 1
tmp=$(mktemp -d) || exit 1
"$ktc" "$@" >"$tmp/out" 2>"$tmp/err"
status=$?
{
	cat "$tmp/out"
	echo "--- stderr"
	cat "$tmp/err"
	echo "--- exit $status"
} | sed -E -e 's/(build time: +)[0-9.]+ ms/\1X ms/' \
	-e 's/valid \([0-9.]+ ms\)/valid (X ms)/' \
	-e 's/"(build_ms|ms)":([[:space:]]*)[0-9.e+-]+/"\1":\2X/' >"$tmp/all"
if [ -n "$KTC_UPDATE_GOLDEN" ]; then
	cp "$tmp/all" "$expected"
fi
diff -u "$expected" "$tmp/all"
rc=$?
rm -rf "$tmp"
exit $rc
