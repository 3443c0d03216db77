#!/bin/sh
# hostile.sh KTC CASE - one hostile use of `ktc tune` / `ktc apply` (docs/
# tuning.md, "Hostile input"), in a scratch folder with scale.kt.cu and the
# synthetic landscape bowl.json: outputs that are symlinks, fifos, read-only
# files, the cache or the recording, a missing output folder, a full
# standard output, inputs that never end (/dev/zero). Each case exits 0
# when ktc behaved, 1 with a reason.
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
*)
	echo "unknown case '$case'"
	exit 1
	;;
esac
exit 0
