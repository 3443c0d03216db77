#!/bin/sh
# grid_cli.sh CASE KTC - `ktc tune --problem N=A,B,C --wisdom FILE` end to
# end on the machine's OpenCL platform (PoCL in CI), one behaviour per CASE:
#   wisdom       every shape of the grid is tuned and lands in the wisdom
#                file with its best and the default's time
#   resume       the same command again answers every shape from its cache
#                and writes the same wisdom
#   warm_start   a shape's first configuration after the default is one of
#                the best of the nearest shape tuned before it
#   killed       a grid run killed with SIGKILL in its second shape and
#                started again answers the first shape from its cache and
#                ends with every shape in the wisdom
#   refine       --refine: between N=1000 and 4000 the grid's best (FAST 1)
#                loses to the default (refine.cl), so N=2000 is tuned and
#                joins the wisdom with FAST 0; between 4000 and 16000 it
#                holds, and N=8000 is only timed
#   refusals     -o and --cache with a grid, --refine without --wisdom, a
#                malformed list: exit 2
# Exits 77 (skipped) where the ICD loader finds no OpenCL platform.
set -eu
case_=$1; ktc=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ktc-grid-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$here/inputs/twice.cl" .
fail() { echo "FAIL: $*"; exit 1; }

grid() {
	rc=0
	"$ktc" tune twice.cl --backend opencl --problem N=1000,4096,100000 \
		-n 5 --batch 2 --seed 3 -q "$@" > out.txt 2> err.txt || rc=$?
	if [ $rc -ne 0 ] && grep -q "no OpenCL platform" err.txt; then
		echo "no OpenCL platform: skipped"; exit 77
	fi
	[ $rc -eq 0 ] || { cat out.txt err.txt; fail "exit status $rc"; }
}

# python3 reads the JSON files
py() { python3 -c "$@" || fail "python3 check failed"; }

case $case_ in
wisdom)
	grid --wisdom w.json
	cat out.txt
	grep -q '^== shape 3/3: N=100000$' out.txt || fail "no third shape"
	grep -q '^wisdom     w.json (3 shapes)$' out.txt || fail "no wisdom line"
	py '
import json
w = json.load(open("w.json"))
assert w["ktc_wisdom"] == 1 and w["kernel"] == "twice", w
assert w["objective"] == "cold" and w["device"]["name"], w
assert w["params"] == ["BLOCK", "ITEMS"] and w["problem"] == ["N"], w
assert [s["problem"]["N"] for s in w["shapes"]] == [1000, 4096, 100000], w
for s in w["shapes"]:
    assert 0 < s["time_ms"] <= s["default_ms"], s
    assert s["best"]["BLOCK"] in (32, 64, 128), s
'
	;;
resume)
	grid --wisdom w.json --json
	cp w.json first.json
	grid --wisdom w.json --json
	py '
import json
runs = json.load(open("out.txt"))
assert len(runs) == 3, runs
for r in runs:
    assert r["evaluated"] == 0 and r["from_cache"] == 5, r
a, b = json.load(open("first.json")), json.load(open("w.json"))
assert a["shapes"] == b["shapes"], (a, b)
'
	;;
warm_start)
	grid --warm 2
	py '
import glob, json
caches = {}
for f in glob.glob(".ktc/cache/*.jsonl"):
    lines = [json.loads(l) for l in open(f)]
    caches[lines[0]["problem"]["N"]] = lines[1:]
for n, prev in ((4096, 1000), (100000, 4096)):
    done = sorted((r["time_ms"], r["key"]) for r in caches[prev]
                  if r["status"] == "correct")
    default = caches[n][0]["key"]
    want = [k for _, k in done if k != default][:2]
    assert caches[n][1]["key"] in want, (n, caches[n][1]["key"], want)
'
	;;
killed)
	"$ktc" tune twice.cl --backend opencl --problem N=1000,4096,100000 \
		-n 5 --batch 1 --seed 3 -q --wisdom w.json > out.txt 2> err.txt &
	pid=$!
	# wait for the second shape's cache to hold a result, then kill
	for _ in $(seq 600); do
		n=$(cat .ktc/cache/*.jsonl 2>/dev/null | wc -l)
		[ "$n" -ge 8 ] && break
		sleep 0.05
	done
	if ! kill -9 $pid 2>/dev/null; then
		grep -q "no OpenCL platform" err.txt &&
			{ echo "no OpenCL platform: skipped"; exit 77; }
		fail "the run ended before it was killed"
	fi
	wait $pid 2>/dev/null || :
	py '
import json
w = json.load(open("w.json"))
assert [s["problem"]["N"] for s in w["shapes"]] == [1000], w
'
	grid --wisdom w.json --json
	py '
import json
runs = json.load(open("out.txt"))
assert runs[0]["evaluated"] == 0 and runs[0]["from_cache"] == 5, runs[0]
assert runs[1]["from_cache"] >= 1, runs[1]
w = json.load(open("w.json"))
assert [s["problem"]["N"] for s in w["shapes"]] == [1000, 4096, 100000], w
'
	;;
refine)
	cp "$here/inputs/refine.cl" .
	rc=0
	"$ktc" tune refine.cl --backend opencl --problem N=1000,4000,16000 \
		-n 2 --seed 3 -q --refine 4 --wisdom w.json > out.txt 2> err.txt ||
		rc=$?
	if [ $rc -ne 0 ] && grep -q "no OpenCL platform" err.txt; then
		echo "no OpenCL platform: skipped"; exit 77
	fi
	cat out.txt err.txt
	[ $rc -eq 0 ] || fail "exit status $rc"
	grep -q '^== refine: N=2000 (between N=1000 and 4000)' out.txt ||
		fail "N=2000 not probed"
	grep -q 'slower than the default .*; tuning this shape$' out.txt ||
		fail "the loss at N=2000 not found"
	grep -q '^== refine: N=8000 (between N=4000 and 16000)' out.txt ||
		fail "N=8000 not probed"
	grep -q 'not slower than the default' out.txt ||
		fail "N=8000: the pick should hold"
	grep -q '^wisdom     w.json (4 shapes)$' out.txt || fail "no wisdom line"
	py '
import json
w = json.load(open("w.json"))
best = {s["problem"]["N"]: s["best"]["FAST"] for s in w["shapes"]}
assert best == {1000: 1, 4000: 1, 16000: 1, 2000: 0}, best
'
	;;
refusals)
	for args in "-o r.json" "--cache c.jsonl"; do
		rc=0
		"$ktc" tune twice.cl --backend opencl --problem N=1,2 $args \
			> out.txt 2> err.txt || rc=$?
		cat err.txt
		[ $rc -eq 2 ] || fail "$args: exit status $rc, not 2"
		grep -q "names 2 shapes" err.txt || fail "$args: no reason"
	done
	rc=0
	"$ktc" tune twice.cl --backend opencl --problem N=1,2 --refine 2 \
		> out.txt 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 2 ] || fail "--refine without --wisdom: exit $rc, not 2"
	grep -q -- "--refine needs --wisdom FILE" err.txt ||
		fail "--refine without --wisdom: no reason"
	rc=0
	"$ktc" tune twice.cl --backend opencl --problem N=1,,2 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 2 ] || fail "malformed list: exit status $rc, not 2"
	grep -q "expected --problem NAME=NUMBER\[,NUMBER...\], not 'N=1,,2'" \
		err.txt || fail "malformed list: no message"
	;;
*) fail "unknown case '$case_'" ;;
esac
echo "ok: $case_"
