#!/bin/sh
# annotate_all_check.sh KTC - scripts/annotate-all.sh over a folder: one
# row per file with its result and the totals, nothing written beside the
# files, exit 1 when a file failed; a file nvcc refuses as it is, or one
# whose header is not found, counts apart from the files nvcc compiles.
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
all="$here/../../scripts/annotate-all.sh"
command -v bc >/dev/null || { echo "no bc: skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-all-check-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
cp "$here/inputs/scale_bias.cu" "$here/nolaunch/unrecognised.cu" \
	"$here/bad/syntax_error.cu" "$here/bad/nvcc_fails.cu" \
	"$here/forms/missing_header.cu" "$here/bad/parse_gap.cu" "$tmp/src/"
fail=0
sh "$all" -k "$ktc" --timeout 60 "$tmp/src" >"$tmp/table" 2>&1
rc=$?
expect() {
	grep -q "$1" "$tmp/table" || { echo "FAIL no '$1' in:"; cat "$tmp/table"; fail=1; }
}
expect 'scale_bias.cu  *annotated  *[1-9]'
expect 'unrecognised.cu  *verified-0  *0  *1  *[1-9]'
expect 'syntax_error.cu  *nvcc-fails'
expect 'parse_gap.cu  *failed'
expect 'nvcc_fails.cu  *nvcc-fails'
expect 'missing_header.cu  *missing-header'
expect 'annotated and verified: 1 of 6'
expect 'annotated and verified of the 3 files nvcc compiles: 1 (33%)'
[ $rc = 1 ] || { echo "FAIL exit $rc with a failed file"; fail=1; }
[ "$(ls "$tmp/src" | wc -l)" = 6 ] || { echo "FAIL files written"; fail=1; }
exit $fail
