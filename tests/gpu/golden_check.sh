#!/bin/sh
# golden_check.sh KTC OUT [CASE...] - on a GPU: golden tests' annotated
# templates (tests/annotate/golden/CASE/out.cu), their `ktc: complete`
# lines filled with test values (fill_golden.py), checked value by value
# against their defaults with `ktc check`, each kernel alone: the edits
# of the new refactors and launch forms run at every value, not only
# compiled. One line per kernel in OUT/golden_check.log; exit 1 when a
# value fails. Default cases: the goldens of warp_scan, loads hoisted over
# atomics, and the launch forms of docs/annotate.md.
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
O=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
g=$here/../annotate/golden
[ $# -gt 0 ] || set -- warp_scan hoist_atomics device_grid brace_launch \
	lambda_launch launch_api macro_launch
mkdir -p "$O"
log=$O/golden_check.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for c in "$@"; do
	# the headers the case's input includes (`extra=` in its case.conf)
	for h in $(sed -n 's/^extra=//p' "$g/$c/case.conf"); do
		cp "$here/../annotate/$h" "$tmp/"
	done
	for k in $(python3 "$here/fill_golden.py" "$g/$c/out.cu" "$tmp/$c.cu"); do
		# float atomics at keys the random input puts out of range
		[ "$k" = weighted_count ] && continue
		"$K" check -q -k "$k" "$tmp/$c.cu" > "$tmp/one.log" 2>&1
		rc=$?
		echo "$c $k: $(grep '^ran' "$tmp/one.log" | sed 's/^ran *//');" \
			"$(grep '^result' "$tmp/one.log" | sed 's/^result *//')" \
			"(exit $rc)" >> "$log"
		[ $rc = 0 ] || { tail -5 "$tmp/one.log" >> "$log"; fail=1; }
	done
done
cat "$log"
exit $fail
