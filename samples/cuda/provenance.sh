#!/bin/sh
# provenance.sh - what of each sample template ktc annotate derived and what
# a person added, and whether the template at its defaults is the original.
#
#   samples/cuda/provenance.sh [-k KTC] [--update] [--no-ptx] [SAMPLE...]
#
# For each SAMPLE (default: every folder of samples/cuda/ with SAMPLE.cu
# and SAMPLE.kt.cu):
#   1. runs `ktc annotate SAMPLE.cu` (with its full verification) and diffs
#      its output against SAMPLE.kt.cu: that diff is the hand completion,
#      kept in SAMPLE.hand.diff. With --update it is (re)written; without,
#      it must equal the stored one (the template was edited, or annotate
#      changed, and the diff was not regenerated: run with --update and
#      review what changed).
#   2. compiles SAMPLE.cu and SAMPLE.kt.cu (at its defaults) to PTX with
#      nvcc for sm_90a and compares them without comments, line
#      information and blank lines: the template at its defaults must be
#      the original kernel. A template that cannot be says why in a line
#      `// hand: defaults differ from the original: REASON`; the difference
#      is then reported, not failed.
# Exit status: 0 all good, 1 a check failed, 2 usage. KTC defaults to
# build/ktc (it needs libclang: `ktc annotate`); NVCC to nvcc on PATH, else
# /usr/local/cuda/bin/nvcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ktc=${KTC:-$here/../../build/ktc}
update=0 ptx=1
while [ $# -gt 0 ]; do
	case $1 in
	-k) ktc=$2; shift 2 ;;
	--update) update=1; shift ;;
	--no-ptx) ptx=0; shift ;;
	-h | --help) sed -n '2,26p' "$0"; exit 0 ;;
	-*) echo "provenance.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ $# -eq 0 ]; then
	for d in "$here"/*/; do
		s=$(basename "$d")
		[ -f "$d/$s.cu" ] && [ -f "$d/$s.kt.cu" ] && set -- "$@" "$s"
	done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# PTX without what two compiles of one kernel may differ in.
normalise() {
	sed -e 's://.*$::' -e '/^[[:space:]]*\.\(version\|file\|loc\)[[:space:]]/d' \
		-e 's/[[:space:]]\+/ /g' -e 's/^ //' -e 's/ $//' -e '/^$/d' "$1"
}

hand_diff() { # sample -> 0 current (or updated), 1 stale or failed
	s=$1 dir=$here/$1
	if ! "$ktc" annotate --no-verify-run "$dir/$s.cu" -o "$work/$s.annotated.cu" \
		>"$work/$s.annotate.log" 2>&1; then
		echo "$s: ktc annotate failed:"
		sed 's/^/  /' "$work/$s.annotate.log"
		return 1
	fi
	diff -u --label "$s.cu, as ktc annotate writes it" --label "$s.kt.cu" \
		"$work/$s.annotated.cu" "$dir/$s.kt.cu" >"$work/$s.hand.diff"
	added=$(tail -n +3 "$work/$s.hand.diff" | grep -c '^+')
	removed=$(tail -n +3 "$work/$s.hand.diff" | grep -c '^-')
	if [ $update = 1 ]; then
		cp "$work/$s.hand.diff" "$dir/$s.hand.diff"
		echo "$s: hand diff written: $added lines added, $removed removed by hand"
	elif [ ! -f "$dir/$s.hand.diff" ]; then
		echo "$s: no $s.hand.diff yet; run  samples/cuda/provenance.sh --update $s"
		return 1
	elif cmp -s "$work/$s.hand.diff" "$dir/$s.hand.diff"; then
		echo "$s: hand diff current: $added lines added, $removed removed by hand"
	else
		echo "$s: $s.hand.diff is stale (template or annotate changed); run"
		echo "  samples/cuda/provenance.sh --update $s  and review the change:"
		diff "$dir/$s.hand.diff" "$work/$s.hand.diff" 2>&1 | head -20 | sed 's/^/  /'
		return 1
	fi
}

same_ptx() { # sample -> 0 same (or a stated reason), 1 differs or failed
	s=$1 dir=$here/$1
	for v in "$s" "$s.kt"; do
		if ! "$nvcc" -ptx -std=c++17 -arch=sm_90a -o "$work/$v.ptx" \
			"$dir/$v.cu" >"$work/$v.nvcc.log" 2>&1; then
			echo "$s: nvcc -ptx $v.cu failed:"
			sed 's/^/  /' "$work/$v.nvcc.log"
			return 1
		fi
		normalise "$work/$v.ptx" >"$work/$v.norm"
	done
	if cmp -s "$work/$s.norm" "$work/$s.kt.norm"; then
		echo "$s: PTX at the defaults equals the original's"
		return 0
	fi
	reason=$(sed -n 's,.*// hand: defaults differ from the original: *,,p' \
		"$dir/$s.kt.cu" | head -1)
	lines=$(diff "$work/$s.norm" "$work/$s.kt.norm" | grep -c '^[<>]')
	if [ -n "$reason" ]; then
		echo "$s: PTX at the defaults differs ($lines lines), as the template says: $reason"
		return 0
	fi
	echo "$s: PTX at the defaults differs from the original's ($lines lines); first differences:"
	diff "$work/$s.norm" "$work/$s.kt.norm" | head -12 | sed 's/^/  /'
	return 1
}

status=0
for s in "$@"; do
	if [ ! -f "$here/$s/$s.cu" ] || [ ! -f "$here/$s/$s.kt.cu" ]; then
		echo "provenance.sh: no sample '$s' (samples/cuda/$s/$s.cu and $s.kt.cu)" >&2
		exit 2
	fi
	hand_diff "$s" || status=1
	if [ $ptx = 1 ]; then same_ptx "$s" || status=1; fi
done
exit $status
