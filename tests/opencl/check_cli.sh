#!/bin/sh
# check_cli.sh CASE KTC - `ktc check` end to end on the machine's OpenCL
# platform (PoCL in CI), one behaviour per CASE:
#   finds_wrong_values  each wrong value of check_wrong.cl is reported with
#                       its status, problem and configuration, the right
#                       ones are not, and the exit status is 1
#   narrows             -o writes the template without the wrong values,
#                       and the narrowed template checks clean (status 0)
#   json                --json gives the same verdicts to a machine
#   interrupted         SIGINT in the middle: the values that ran are
#                       reported, the others said not run, status 1
#   bad_input           a file with no template, and an output folder that
#                       does not exist: a message and status 1, nothing run
# Exits 77 (skipped) where the ICD loader finds no OpenCL platform.
set -eu
case_=$1; ktc=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ktc-check-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$here/check_wrong.cl" .

fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qF -- "$1" "$2" || fail "no '$1' in $2: $(cat "$2")"; }
hasnt() { ! grep -qF -- "$1" "$2" || fail "'$1' in $2: $(cat "$2")"; }

check() { # check EXPECTED_RC ARGS...
	want=$1; shift
	rc=0
	"$ktc" check "$@" >out.txt 2>err.txt || rc=$?
	if grep -q "no OpenCL platform" err.txt; then
		echo "no OpenCL platform: skipped"; exit 77
	fi
	[ "$rc" -eq "$want" ] || fail "exit status $rc, not $want: $(cat out.txt err.txt)"
}

case $case_ in
finds_wrong_values)
	check 1 check_wrong.cl
	cat out.txt
	has "96 FAILS (correctness) at ROWS=64,D=300 in BLOCK=96,RPG=2" out.txt
	has "1 FAILS (correctness) at ROWS=64,D=300 in BLOCK=128,RPG=1" out.txt
	has "32 NaN where the reference has none" out.txt
	has "BLOCK      default 128; correct: 32 64 256" out.txt
	has "RPG        default 2; correct: 4" out.txt
	has "result     2 of 6 values fail" out.txt
	has "at 2 problem instances" out.txt
	;;
narrows)
	check 1 -q -o narrowed.cl check_wrong.cl
	has "#pragma kt param BLOCK values(32, 64, 128, 256) default(128)" narrowed.cl
	has "#pragma kt param RPG values(2, 4) default(2)" narrowed.cl
	# nothing else changed
	[ "$(diff check_wrong.cl narrowed.cl | grep -c '^[<>]')" -eq 4 ] ||
		fail "more than the two param lines changed"
	check 0 -q narrowed.cl
	has "result     0 of 4 values fail" out.txt
	;;
json)
	check 1 -q --json check_wrong.cl
	python3 - out.txt <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
bad = sorted((v["param"], v["value"], v["status"]) for v in j["values"]
             if v["status"] != "correct")
assert bad == [("BLOCK", "96", "correctness"), ("RPG", "1", "correctness")], bad
assert j["failed"] == 2 and j["not_run"] == 0 and j["problem_instances"] == 2, j
PY
	;;
interrupted)
	# SIGINT in the middle: what ran is reported, the rest is said to be
	# not run, and the exit status is 1
	rc=0
	"$ktc" check -q "$here/../../samples/opencl/matmul.cl" >out.txt 2>err.txt &
	pid=$!
	sleep 2
	kill -INT $pid
	wait $pid || rc=$?
	if grep -q "no OpenCL platform" err.txt; then
		echo "no OpenCL platform: skipped"; exit 77
	fi
	cat out.txt
	[ "$rc" -eq 1 ] || fail "exit status $rc, not 1"
	has "(interrupted in problem instance 1 of" out.txt
	has "not run: the check was interrupted first" out.txt
	;;
bad_input)
	printf '__kernel void k(__global float *x) { x[0] = 1; }\n' >plain.cl
	check 1 plain.cl
	has "no '#pragma kt' kernel in 'plain.cl'" err.txt
	check 1 -o nowhere/out.cl check_wrong.cl
	has "nowhere" err.txt
	[ ! -s out.txt ] || fail "ran despite a bad output path"
	check 2 check_wrong.cl extra.cl
	;;
*) fail "unknown case $case_" ;;
esac
echo ok
