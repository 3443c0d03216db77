#!/bin/sh
# cli_check.sh KTC - `ktc optimize --planner llm` from the command line: its
# usage errors, the errors of its configuration, and a run with an API key
# in the environment after which no file ktc wrote (the output, the work
# folder, the transcript) and nothing it printed holds the key. No GPU
# needed: without one the run stops at its backend, after the LLM client
# and its transcript were set up; with one it runs against a server that is
# not there and ends cleanly with round 0.
set -u
ktc=$1
here=$(cd "$(dirname "$0")" && pwd)
in=$here/../optimize/inputs/axpb.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
key=sk-cli-9e8d7c6b5a4f3e2d1c0b
unset OPENAI_BASE_URL OPENAI_MODEL OPENAI_API_KEY KTC_LLM_CONFIG
expect() { # expected-rc description command...
	want=$1 what=$2
	shift 2
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $what: exit $rc, expected $want"
		cat "$work/err"
		fail=1
	fi
}
has() {
	grep -qF -- "$1" "$work/err" || {
		echo "FAIL: no '$1' in:"
		cat "$work/err"
		fail=1
	}
}

expect 0 "--help" "$ktc" optimize --help
for w in "--planner NAME" "builtin" "--replay TRANSCRIPT" "--llm-config FILE"; do
	grep -qF -- "$w" "$work/out" || { echo "FAIL: --help lacks '$w'"; fail=1; }
done
expect 2 "an unknown planner" "$ktc" optimize "$in" -o "$work/o.cu" --planner gpt
has "--planner expects builtin or llm"
expect 2 "--replay without --planner llm" "$ktc" optimize "$in" -o "$work/o.cu" \
	--replay x.jsonl
has "--replay and --llm-config need --planner llm"
expect 1 "no server configured" env -u KTC_LLM_BASE_URL -u KTC_LLM_MODEL \
	"$ktc" optimize "$in" -o "$work/o.cu" --planner llm --problem n=4096
has "no LLM server configured: set KTC_LLM_BASE_URL"
printf 'base_url = http://127.0.0.1:9/v1\nmodel = m\napi_key = %s\n' "$key" >"$work/llm.conf"
chmod 644 "$work/llm.conf"
expect 1 "a key in a file others can read" "$ktc" optimize "$in" -o "$work/o.cu" \
	--planner llm --llm-config "$work/llm.conf" --problem n=4096
has "holds an API key and is readable by others: chmod 600 it"
printf 'colour = blue\n' >"$work/bad.conf"
expect 1 "an unknown setting" "$ktc" optimize "$in" -o "$work/o.cu" \
	--planner llm --llm-config "$work/bad.conf" --problem n=4096
has "bad.conf:1: unknown setting 'colour'"

# a run with the key in the environment: nothing written or printed has it
mkdir -p "$work/run"
KTC_LLM_BASE_URL=http://127.0.0.1:9/v1 KTC_LLM_MODEL=m KTC_LLM_API_KEY=$key \
	KTC_LLM_TIMEOUT=2 "$ktc" optimize "$in" -o "$work/run/o.kt.cu" \
	--work "$work/run/w" --planner llm --problem n=4096 --arg a=2 --arg b=0.5 \
	--budget 2 --rounds 1 >"$work/run.out" 2>"$work/run.err"
[ -f "$work/run/w/llm-transcript.jsonl" ] ||
	{ echo "FAIL: no transcript in the work folder"; cat "$work/run.err"; fail=1; }
if grep -rlF -- "$key" "$work/run" "$work/run.out" "$work/run.err"; then
	echo "FAIL: the key is in the files above"
	fail=1
fi
if grep -rliF -- "authorization" "$work/run"; then
	echo "FAIL: an Authorization header was written"
	fail=1
fi
exit $fail
