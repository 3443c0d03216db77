#!/bin/sh
# kill_resume.sh KTC T4_SAME TEMPLATE - the durability test of `ktc tune`:
# a simulated run is killed with SIGKILL twice in the middle, and once with
# SIGINT, and each time the same command is run again; the final T4 results
# must equal, in order, those of a run that was never interrupted.
# docs/tuning.md shows a run of it.
set -eu
ktc=$1; same=$2; template=$3
work=$(mktemp -d /tmp/ktc-kill-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$ktc" landscape --kind rugged --seed 11 -o land.json "$template"
run() { # the one command, with the cache and output given; exec, so that
	# a run started with & has the pid the signals are sent to
	exec "$ktc" tune "$template" --backend sim --from land.json \
		--strategy simulated_annealing --seed 5 --budget 300 --batch 4 \
		--quiet "$@"
}

echo "== uninterrupted run"
(run --no-cache -o ref.json)

lines() { [ -f cache.jsonl ] && wc -l < cache.jsonl || echo 0; }
# starts the slow run in the background, waits until the cache holds $1
# lines, then sends signal $2
interrupt_at() {
	run --cache cache.jsonl -o res.json --sim-delay 5 > /dev/null 2>&1 &
	pid=$!
	while [ "$(lines)" -lt "$1" ]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "FAIL: the run ended before it could be interrupted"; exit 1
		fi
		sleep 0.02
	done
	kill "-$2" "$pid"
	rc=0
	wait "$pid" || rc=$?
	echo "== $2 at $(lines) cache lines (header + results), exit status $rc"
}

interrupt_at 60 KILL
interrupt_at 150 KILL
rm -f res.json
interrupt_at 220 INT
# SIGINT finishes the batch in flight, keeps the cache, writes the T4 file
# of what is done, and exits 1
done_results=$(grep -c '"invalidity"' res.json)
echo "== after SIGINT: res.json holds $done_results results"
if [ "$rc" -ne 1 ] || [ "$done_results" -ne $(($(lines) - 1)) ]; then
	echo "FAIL: SIGINT did not stop cleanly"; exit 1
fi
n=$(lines)
if [ "$n" -ge 301 ]; then
	echo "FAIL: the runs were not interrupted before the end ($n lines)"; exit 1
fi

echo "== the same command again"
(run --cache cache.jsonl -o res.json --json > summary.json)
grep -E '"(visited|evaluated|from_cache)"' summary.json
"$same" ref.json res.json
# and the comparison can fail: another seed gives other results
(run --no-cache -o other.json --seed 6 > /dev/null)
if "$same" ref.json other.json 2>/dev/null; then
	echo "FAIL: t4_same cannot tell two different runs apart"; exit 1
fi
