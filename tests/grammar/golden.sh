#!/bin/sh
# golden.sh - golden tests of the pragma parser: what kt-parse-check prints
# for each bad/*.cu|cl (diagnostics, exit status 1) and each good/*.cu|cl
# (the model dump, no diagnostics, exit status 0) must equal the .expected
# file beside it, byte for byte.
#
#   golden.sh DRIVER [FILE...]     FILE relative to tests/grammar; default all
#   UPDATE=1 golden.sh DRIVER      rewrite the .expected files from the driver
set -u
[ $# -ge 1 ] || { echo "usage: golden.sh DRIVER [FILE...]" >&2; exit 2; }
driver=$1
shift
case $driver in /*) ;; *) driver=$(pwd)/$driver ;; esac
[ -x "$driver" ] || { echo "golden: no driver at '$driver'" >&2; exit 2; }
cd "$(dirname "$0")" || exit 2
[ $# -gt 0 ] || set -- bad/*.cu bad/*.cl good/*.cu good/*.cl
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
fail=0
for f in "$@"; do
	[ -e "$f" ] || continue
	case $f in
	bad/*) want=1 ;;
	good/*) want=0 ;;
	*) echo "golden: '$f' is in neither bad/ nor good/" >&2; exit 2 ;;
	esac
	if [ $want = 0 ]; then
		"$driver" --dump "$f" >"$tmp" 2>&1
	else
		"$driver" "$f" >"$tmp" 2>&1
	fi
	rc=$?
	expected=${f%.*}.expected
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp" "$expected"
		echo "golden: updated $expected"
	fi
	if [ $rc != $want ]; then
		echo "FAIL $f: exit status $rc, expected $want"
		cat "$tmp"
		fail=1
	elif [ $want = 0 ] && grep -q -e ' error: ' -e ' warning: ' "$tmp"; then
		echo "FAIL $f: a good input got diagnostics"
		cat "$tmp"
		fail=1
	elif ! diff -u "$expected" "$tmp"; then
		echo "FAIL $f: output differs from $expected"
		fail=1
	else
		echo "ok $f"
	fi
done
exit $fail
