#!/bin/sh
# tune_cli.sh CASE KTC T4_CHECK - `ktc tune --backend opencl` end to end on
# the machine's OpenCL platform (PoCL in CI), one behaviour per CASE:
#   verified     every configuration a run reports was checked against the
#                default configuration
#   resume       a run killed with SIGKILL in the middle and started again
#                ends with the configurations and statuses of a run that was
#                never interrupted (same seed), and leaves no worker behind
#   faults       planted faults (out-of-bounds writes far and near, an
#                out-of-bounds read, an endless loop, wrong and missing
#                output, a compile error) are each recorded
#                with their reason, and the run goes on to the end
#   timed_runs_not_gamed
#                a kernel that skips its work once its output holds the
#                answer is timed doing its work, not reported many times
#                faster than the default (each timed run starts from
#                poisoned outputs, and its outputs are checked)
#   writes_input_flagged
#                a kernel that writes an `in` buffer is not a valid result
#   specials     --specials checks every configuration also on inputs with
#                NaN, Inf and subnormals mixed in: variants that agree on
#                ordinary inputs and not on those fail with a message that
#                says so; without --specials they pass, and a cache
#                written without it does not answer a run with it
#   worker_killed_retried
#                a worker killed with SIGKILL from outside (a user, the OOM
#                killer) in the middle of a configuration costs nothing: the
#                configuration is run again, not recorded as failed
#   no_platform, build_error, unknown_type
#                bad input: a clear message and exit status 1
# Timings on a shared CPU are noise: nothing here depends on them.
# Exits 77 (skipped) where the ICD loader finds no OpenCL platform.
set -eu
case_=$1; ktc=$2; check=$3
here=$(cd "$(dirname "$0")" && pwd)
samples=$here/../../samples/opencl
work=$(mktemp -d /tmp/ktc-opencl-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; exit 1; }

# after a failed run: skips the test where there is no platform to run on
skip_without_platform() {
	if grep -q "no OpenCL platform" err.txt; then
		echo "no OpenCL platform: skipped"; exit 77
	fi
}

tune() {
	rc=0
	"$ktc" tune --backend opencl "$@" > out.txt 2> err.txt || rc=$?
	[ $rc -eq 0 ] || skip_without_platform
	return $rc
}

# expects exit status 1 and each of the texts after the first on stderr
expect_error() {
	rc=0
	"$ktc" tune --backend opencl --no-cache "$1" > out.txt 2> err.txt || rc=$?
	cat err.txt
	[ "$rc" -eq 1 ] || fail "exit status $rc, not 1"
	shift
	for text in "$@"; do
		grep -qF -- "$text" err.txt || fail "no '$text' in the message"
	done
}

case $case_ in
verified)
	tune "$samples/saxpy.cl" --problem N=1000003 --budget 8 --seed 3 \
		--runs 5 --no-cache -o res.json -q || fail "ktc tune: $(cat err.txt)"
	cat out.txt
	"$check" verified res.json 1000003 8
	;;
resume)
	run() { # exec: a run started with & has the pid SIGKILL is sent to
		exec "$ktc" tune --backend opencl "$samples/saxpy.cl" \
			--problem N=1000003 --seed 5 --budget 12 --batch 4 \
			--runs 3 -q "$@"
	}
	(run --no-cache -o ref.json) > /dev/null 2> err.txt ||
		{ skip_without_platform; fail "uninterrupted run: $(cat err.txt)"; }
	# the cache's path is unique to this test: the search below relies on it
	cache=$work/cache.jsonl
	lines() { [ -f "$cache" ] && wc -l < "$cache" || echo 0; }
	run --cache "$cache" -o res.json > /dev/null 2>&1 &
	pid=$!
	while [ "$(lines)" -lt 6 ]; do # the header and five results
		kill -0 "$pid" 2>/dev/null || fail "the run ended too early"
		sleep 0.05
	done
	kill -KILL "$pid"
	wait "$pid" || true
	n=$(lines)
	echo "killed at $n cache lines"
	[ "$n" -lt 13 ] || fail "the run was not killed in the middle"
	# the worker dies with its parent (the fork shares its command line;
	# the brackets keep grep from finding its own)
	i=0
	while grep -qa "$work/[c]ache.jsonl" /proc/[0-9]*/cmdline 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 40 ] || fail "a worker outlived the killed run"
		sleep 0.05
	done
	(run --cache "$cache" -o res.json --json > summary.json) ||
		fail "the resumed run failed"
	grep -E '"(visited|evaluated|from_cache)"' summary.json || true
	"$check" same ref.json res.json
	;;
faults)
	tune "$here/faults.cl" --strategy brute_force --budget 0 --timeout 3 \
		--runs 3 --no-cache -o res.json -q || fail "ktc tune: $(cat err.txt)"
	cat out.txt
	"$check" status res.json MODE=0 correct ""
	"$check" status res.json MODE=1 runtime "signal 11"
	"$check" status res.json MODE=2 timeout "timeout"
	"$check" status res.json MODE=3 correctness "output 'z'"
	"$check" status res.json MODE=4 compile "undeclared identifier 'this'"
	"$check" status res.json MODE=5 correctness "output 'z'"
	"$check" status res.json MODE=6 runtime "signal 11"
	"$check" status res.json MODE=7 runtime "wrote after the end of argument 'z'"
	;;
timed_runs_not_gamed)
	tune "$here/cheat.cl" --strategy brute_force --budget 0 --runs 5 \
		--no-cache -o res.json -q || fail "ktc tune: $(cat err.txt)"
	cat out.txt
	"$check" status res.json CHEAT=1 correct ""
	# an honest run of the hack takes as long as the default; skipping
	# its work made it thousands of times faster
	ratio=$(sed -n 's/^best .*(\([0-9.]*\)x the default.*/\1/p' out.txt)
	[ -n "$ratio" ] || fail "no speed-up in the summary"
	awk "BEGIN { exit !($ratio < 3) }" ||
		fail "the hack was reported ${ratio}x the default's speed"
	;;
writes_input_flagged)
	tune "$here/cheat.cl" --strategy brute_force --budget 0 --runs 3 \
		--no-cache -o res.json -q || fail "ktc tune: $(cat err.txt)"
	cat out.txt
	"$check" status res.json CHEAT=0 correct ""
	"$check" status res.json CHEAT=2 correctness "writes its input 'x'"
	;;
specials)
	tune "$here/specials.cl" --strategy brute_force --budget 0 --runs 3 \
		--no-cache -o plain.json -q || fail "ktc tune: $(cat err.txt)"
	for f in 0 1 2 3; do
		"$check" status plain.json FORM=$f correct ""
	done
	tune "$here/specials.cl" --strategy brute_force --budget 0 --runs 3 \
		--no-cache --specials -o res.json -q ||
		fail "ktc tune --specials: $(cat err.txt)"
	cat out.txt
	"$check" status res.json FORM=0 correct ""
	"$check" status res.json FORM=1 correctness "with NaN, Inf, subnormals"
	"$check" status res.json FORM=2 correct ""
	"$check" status res.json FORM=3 correctness "with NaN, Inf, subnormals"
	tune "$here/specials.cl" --strategy brute_force --budget 0 --runs 3 \
		--cache c.jsonl -o x.json -q || fail "ktc tune: $(cat err.txt)"
	rc=0
	"$ktc" tune --backend opencl "$here/specials.cl" --specials \
		--cache c.jsonl -o y.json -q 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 1 ] || fail "a cache without special inputs answered (rc $rc)"
	grep -qF "checked without special input values" err.txt ||
		fail "no reason given"
	;;
worker_killed_retried)
	cache=$work/cache.jsonl
	"$ktc" tune --backend opencl "$here/cheat.cl" --strategy brute_force \
		--budget 0 --batch 1 --runs 30 --cache "$cache" -o res.json -q \
		> out.txt 2> err.txt &
	pid=$!
	lines() { [ -f "$cache" ] && wc -l < "$cache" || echo 0; }
	while [ "$(lines)" -lt 2 ]; do # the header and the default's result
		kill -0 "$pid" 2>/dev/null ||
			{ skip_without_platform; fail "ended early: $(cat err.txt)"; }
		sleep 0.05
	done
	sleep 0.5 # CHEAT=1 builds and runs (30 timed runs of ~80 ms)
	# a worker may end between the look and the kill (one configuration
	# done, the next one's worker not yet there): look again
	n=0
	until worker=$(awk -v p="$pid" '$4 == p { print $1 }' \
		/proc/[0-9]*/stat 2>/dev/null) && [ -n "$worker" ] &&
		kill -KILL $worker 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 200 ] || fail "no worker process of $pid to kill"
		kill -0 "$pid" 2>/dev/null || fail "ended before the kill"
		sleep 0.01
	done
	wait "$pid" || fail "ktc tune: $(cat err.txt)"
	cat out.txt err.txt
	"$check" status res.json CHEAT=0 correct ""
	"$check" status res.json CHEAT=1 correct ""
	"$check" status res.json CHEAT=2 correctness "writes its input 'x'"
	! grep -q '"status":"\(runtime\|compile\|timeout\)"' "$cache" ||
		fail "the kill was recorded: $(grep -o '"key":"[^"]*"\|"status":"[a-z]*"\|"message":"[^"]*"' "$cache")"
	;;
no_platform)
	mkdir vendors
	OCL_ICD_VENDORS=$work/vendors expect_error "$samples/saxpy.cl" \
		"no OpenCL platform found"
	;;
build_error)
	expect_error "$here/broken.cl" "does not build" \
		"broken.cl:7:24: use of undeclared identifier 'undeclared_name'"
	;;
unknown_type)
	expect_error "$here/badtype.cl" "badtype.cl:4:18: error: unknown type 'float4'"
	;;
*)
	fail "unknown case '$case_'"
	;;
esac
echo "ok"
