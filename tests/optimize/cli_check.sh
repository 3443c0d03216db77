#!/bin/sh
# cli_check.sh KTC - `ktc optimize`'s refusals: usage errors exit 2 and
# touch nothing, what the code does not say is asked for at its place
# (file:line:col) with the option that gives it, malformed values are
# named. No GPU: every case stops before the tuning starts.
set -u
ktc=$1
here=$(cd "$(dirname "$0")" && pwd)
in=$here/inputs/axpb.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
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
grep -q "usage: ktc optimize" "$work/out" || { echo "FAIL: --help"; fail=1; }
expect 2 "no -o" "$ktc" optimize "$in" --problem n=4096
has "-o OUT is required"
cp "$in" "$work/a.cu"
expect 2 "-o the input" "$ktc" optimize "$work/a.cu" -o "$work/a.cu"
has "is the input"
cmp -s "$in" "$work/a.cu" || { echo "FAIL: the input changed"; fail=1; }
expect 2 "two files" "$ktc" optimize "$in" "$in" -o "$work/o.cu"
expect 2 "--rounds out of range" "$ktc" optimize "$in" -o "$work/o.cu" --rounds 99
expect 1 "a scalar not given" "$ktc" optimize "$in" -o "$work/o.cu" \
	--problem n=4096 --arg a=2
has "axpb.cu:12:46:"
has "give --arg b=VALUE"
expect 1 "a malformed problem value" "$ktc" optimize "$in" -o "$work/o.cu" \
	--problem n=40x6
has "'40x6' is not a non-negative integer"
expect 1 "a misspelt problem" "$ktc" optimize "$in" -o "$work/o.cu" \
	--problem n=4096 --problem nn=3 --arg a=2 --arg b=1
has "--problem nn: kernel 'axpb_kernel' has no problem size of that name"
expect 1 "a malformed init" "$ktc" optimize "$in" -o "$work/o.cu" \
	--problem n=4096 --arg a=2 --arg b=1 --init 'x=random(0,1'
has "--init 'x=random(0,1': expected NAME=INIT"
expect 1 "an init of an output" "$ktc" optimize "$in" -o "$work/o.cu" \
	--problem n=4096 --arg a=2 --arg b=1 --init 'y=zeros'
has "axpb.cu:4:1: error: --init y: kernel 'axpb_kernel' writes it"
expect 0 "--init in --help" "$ktc" optimize --help
grep -q -- "--init NAME=INIT" "$work/out" || { echo "FAIL: --init not in --help"; fail=1; }
[ -e "$work/o.cu" ] && { echo "FAIL: an output was written"; fail=1; }
# annotate's notes (why literals stayed literals) are counted, not
# printed, unless --notes; a run with no GPU stops after the templating
ptg=$here/../../samples/cuda/per_token_group_quant_fp8/per_token_group_quant_fp8.cu
"$ktc" optimize "$ptg" -o "$work/p.cu" --problem tokens=4 --problem d=7168 --budget 2 --rounds 1 \
	-q >"$work/out" 2>"$work/err"
grep -q "note:" "$work/err" && { echo "FAIL: notes printed without --notes"; fail=1; }
has "notes (why literals stayed literals"
"$ktc" optimize "$ptg" -o "$work/p.cu" --problem tokens=4 --problem d=7168 --budget 2 --rounds 1 \
	-q --notes >"$work/out" 2>"$work/err"
has "note: '448.f' stays a literal"
exit $fail
