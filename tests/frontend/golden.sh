#!/bin/sh
# golden.sh DRIVER INPUT EXPECTED: runs `DRIVER INPUT` (stdout and stderr
# together) and compares with EXPECTED. KTC_UPDATE_GOLDEN=1 rewrites
# EXPECTED instead.
driver=$1 input=$2 expected=$3
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$driver" "$input" >"$out" 2>&1
if [ "${KTC_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$out" "$expected"
	exit 0
fi
diff -u "$expected" "$out"
