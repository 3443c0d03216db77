#!/bin/sh
# hostile.sh KTC CASE - one hostile use of `ktc tune` / `ktc apply` (docs/
# tuning.md, "Hostile input"), in a scratch folder with scale.kt.cu and the
# synthetic landscape bowl.json: outputs that are symlinks, fifos, read-only
# files, the cache or the recording, a missing output folder, a full
# standard output, inputs that never end (/dev/zero), a space too large to
# build, signals while building it and while tuning. Each case exits 0 when
# ktc behaved, 1 with a reason.
set -u
ktc=$1
case=$2
inputs="$(cd "$(dirname "$0")/inputs" && pwd)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cp "$inputs/scale.kt.cu" .
"$ktc" landscape --kind bowl --seed 1 -o bowl.json scale.kt.cu 2>/dev/null ||
	{ echo "setup: landscape failed"; exit 1; }

fail() { echo "$case: $*"; cat err 2>/dev/null; exit 1; }
tune() { "$ktc" tune scale.kt.cu --from bowl.json --budget 5 -q "$@" >out 2>err; }
refused() { # the last command failed with $1 in its message
	[ "$status" -ne 0 ] || fail "exit 0, expected a refusal"
	grep -q -- "$1" err || fail "no '$1' in the message"
}
# 45 parameters with the values $1, tied by one constraint that only all
# zeros (the default) meet
many_params() {
	echo '#pragma kt problem N values(1024)'
	i=0 sum=P0
	while [ $i -lt 45 ]; do
		echo "#pragma kt param P$i values($1) default(0)"
		[ $i -gt 0 ] && sum="$sum + P$i"
		i=$((i + 1))
	done
	echo "#pragma kt constraint $sum == 0"
	echo '#pragma kt launch grid(div_ceil(N, 256)) block(256)'
	echo '#pragma kt arg out float[N] out'
	echo '__global__ void huge(float *out) { out[0] = 0.0f; }'
}
# huge.kt.cu: 2^45 bindings to enumerate; one.json: a recording of its
# one valid configuration
huge() {
	many_params "0, 1" >huge.kt.cu
	many_params 0 >one.kt.cu
	"$ktc" landscape --kind bowl -o one.json one.kt.cu 2>/dev/null ||
		fail "setup: landscape of one.kt.cu failed"
}
# Starts "$@" in the background, sends it signal $1 (2 or 15) once its
# handler is there (SigCgt, up to 20 s), and waits for its exit status; a
# watchdog kills it 40 s after the signal.
signal_when_caught() {
	sig=$1
	shift
	"$@" >out 2>err &
	pid=$!
	bit=$((1 << (sig - 1)))
	n=0
	while [ $n -lt 200 ]; do
		# ktc itself, not the shell that forked it: comm first, since the
		# shell's SigCgt read just before its exec would count otherwise
		# (and a background job's SIGINT is ignored until ktc catches it)
		if [ "$(cat /proc/$pid/comm 2>/dev/null)" = ktc ]; then
			cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
			[ -n "$cgt" ] && [ $((0x$cgt & bit)) -ne 0 ] && break
		fi
		sleep 0.1
		n=$((n + 1))
	done
	[ $n -lt 200 ] || echo "$case: no handler of signal $sig after 20 s"
	kill -"$sig" $pid
	(sleep 40 && kill -9 $pid) >/dev/null 2>&1 &
	watchdog=$!
	wait $pid
	status=$?
	kill $watchdog 2>/dev/null
	[ $status -ne 137 ] || fail "$*: still running 40 s after signal $sig"
}

case $case in
symlink_written_through)
	echo old >real.json
	chmod 600 real.json
	ln -s real.json link.json
	tune --no-cache -o link.json || fail "exit $?"
	[ -L link.json ] || fail "the symlink was replaced"
	grep -q '"results"' real.json || fail "the target was not written"
	[ "$(stat -c %a real.json)" = 600 ] || fail "mode $(stat -c %a real.json)"
	;;
fifo_refused)
	mkfifo t4.json
	tune --no-cache -o t4.json
	status=$?
	refused "it is a fifo"
	[ -p t4.json ] || fail "the fifo was replaced"
	;;
folder_refused)
	mkdir t4.json
	tune --no-cache -o t4.json
	status=$?
	refused "it is a folder"
	[ -d t4.json ] || fail "the folder was replaced"
	;;
missing_folder_before_the_run)
	tune --no-cache -o nothere/t4.json --sim-delay 2000
	status=$?
	refused "nothere"
	# the check comes first: no configuration was run (2 s each)
	grep -q "visited" out && fail "the run went ahead"
	;;
output_is_the_cache)
	tune --cache c.jsonl >/dev/null || fail "setup run: exit $?"
	cp c.jsonl c.before
	tune --cache c.jsonl -o c.jsonl
	status=$?
	refused "is the cache"
	cmp -s c.jsonl c.before || fail "the cache changed"
	ln -s c.jsonl alias.jsonl
	tune --cache c.jsonl -o alias.jsonl
	status=$?
	refused "is the cache"
	;;
output_is_the_recording)
	cp bowl.json bowl.before
	tune --no-cache -o bowl.json
	status=$?
	refused "is the recording"
	cmp -s bowl.json bowl.before || fail "the recording changed"
	;;
apply_output_is_the_results)
	tune --no-cache -o r.json || fail "setup run: exit $?"
	cp r.json r.before
	"$ktc" apply scale.kt.cu r.json -o r.json >out 2>err
	status=$?
	refused "is the results file"
	cmp -s r.json r.before || fail "the results changed"
	;;
apply_value_outside_domain)
	# the best value of BLOCK in bowl.json is 512; the template no longer
	# allows it
	sed 's/pow2(32, 1024)/values(32, 64, 128, 256, 1024)/' scale.kt.cu > s2.kt.cu
	"$ktc" apply s2.kt.cu bowl.json -o out.cu >out 2>err
	status=$?
	refused "s2.kt.cu:7:[0-9]*: the value 512 of 'BLOCK' is not in its domain"
	[ ! -e out.cu ] || fail "out.cu was written"
	;;
stdout_full)
	"$ktc" tune scale.kt.cu --from bowl.json --budget 5 -q --no-cache \
		>/dev/full 2>err
	status=$?
	refused "cannot write standard output"
	"$ktc" space scale.kt.cu >/dev/full 2>err
	status=$?
	refused "cannot write standard output"
	;;
inputs_without_end)
	"$ktc" space /dev/zero >out 2>err
	status=$?
	refused "larger than the limit of 256 MiB"
	tune --cache /dev/zero
	status=$?
	refused "is not a regular file"
	"$ktc" tune scale.kt.cu --from /dev/zero -q --no-cache >out 2>err
	status=$?
	refused "larger than the limit"
	;;
space_too_large_to_build)
	huge
	"$ktc" space huge.kt.cu --space-limit 1000000 >out 2>err
	status=$?
	refused "stopped building the space of 'huge' after binding 1000000 values"
	refused "1 valid found so far"
	refused "space-limit 0 removes it"
	"$ktc" tune huge.kt.cu --from one.json --space-limit 1000000 \
		--no-cache -q >out 2>err
	status=$?
	refused "stopped building the space of 'huge'"
	;;
space_build_interrupted)
	huge
	signal_when_caught 2 "$ktc" space huge.kt.cu --space-limit 0
	refused "interrupted while building the space of 'huge'"
	[ "$status" -eq 1 ] || fail "ktc space: exit $status"
	signal_when_caught 15 "$ktc" tune huge.kt.cu --from one.json \
		--space-limit 0 --cache c.jsonl -o t4.json -q
	refused "interrupted while building the space of 'huge'"
	[ "$status" -eq 1 ] || fail "ktc tune: exit $status"
	grep -q "space-limit" err && fail "a signal is not the limit"
	[ -e c.jsonl ] || [ -e t4.json ] && fail "an output was written"
	;;
tune_interrupted_by_sigterm)
	# SIGTERM mid-run: the batch in flight ends, the cache and the T4
	# file hold what was done, and the same command resumes
	"$ktc" tune scale.kt.cu --from bowl.json --cache c.jsonl -o t4.json \
		--budget 40 --batch 1 --sim-delay 100 -q >out 2>err &
	pid=$!
	n=0
	while [ "$(cat c.jsonl 2>/dev/null | wc -l)" -lt 4 ] && [ $n -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -TERM $pid
	wait $pid
	status=$?
	refused "interrupted after"
	"$ktc" tune scale.kt.cu --from t4.json --budget 3 -q --no-cache \
		>out 2>err || fail "the T4 file does not read back: exit $?"
	tune --cache c.jsonl -o t4.json --budget 40 || fail "resume: exit $?"
	grep -q "from the cache" out || fail "no resume from the cache"
	grep -Eq '\(0 evaluated|, 0 from the cache' out && fail "$(cat out)"
	;;
cache_with_repeated_records)
	# 300000 copies of one record: opening the cache was quadratic
	# (minutes); the test's timeout is 60 s
	tune --cache c.jsonl --budget 2 || fail "setup run: exit $?"
	{
		head -n 1 c.jsonl
		line=$(sed -n 2p c.jsonl)
		yes "$line" | head -n 300000
	} >big.jsonl
	tune --cache big.jsonl --budget 2 || fail "exit $?"
	grep -q "1 from the cache" out || fail "$(cat out)"
	;;
*)
	echo "unknown case '$case'"
	exit 1
	;;
esac
exit 0
