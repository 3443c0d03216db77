#!/bin/sh
# cli_check.sh KTC - `ktc annotate`'s answers to bad usage and bad input:
# the exit status and the first words of the message.
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-cli-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$here/inputs/scale_bias.cu" "$tmp/k.cu"
fail=0
expect() { # expect RC PATTERN ARGS...
	want=$1 pat=$2
	shift 2
	(cd "$tmp" && "$ktc" annotate "$@" >"$tmp/out" 2>"$tmp/err")
	rc=$?
	if [ $rc != "$want" ] || ! grep -q "$pat" "$tmp/err"; then
		echo "FAIL ktc annotate $*: exit $rc (want $want), stderr:"
		cat "$tmp/err"
		fail=1
	fi
}
expect 1 "cannot open 'missing.cu'" missing.cu
expect 2 "usage: ktc annotate" 
expect 2 "usage: ktc annotate" k.cu k.cu
expect 2 "choose one of -i, -o, --diff and --plan" -i --diff k.cu
expect 2 "only after verification" -i --no-verify k.cu
expect 2 "unknown option" --frobnicate k.cu
expect 1 "no kernel 'nope' in" --kernel nope k.cu
expect 1 "cannot open 'nothere.json'" --apply-plan nothere.json k.cu
printf '{"ktc_plan": 1}' >"$tmp/bad.json"
expect 1 "does not fit 'k.cu'" --apply-plan bad.json k.cu
# the output is the plan (by another name too): refused, the plan kept
cp "$tmp/bad.json" "$tmp/plan.json"
ln -s plan.json "$tmp/alias.json"
expect 1 "is the plan 'plan.json'; refusing" --apply-plan plan.json -o alias.json k.cu
expect 1 "is the plan 'plan.json'; refusing" --apply-plan plan.json -o plan.json k.cu
if ! cmp -s "$tmp/bad.json" "$tmp/plan.json"; then
	echo "FAIL the plan was replaced"
	fail=1
fi
if ! cmp -s "$here/inputs/scale_bias.cu" "$tmp/k.cu"; then
	echo "FAIL a failing run changed the input"
	fail=1
fi
# --no-verify says that it did not verify
expect 0 "NOT verified" --no-verify -o out.cu k.cu
# the run on a GPU: each way it does not run is said, and --verify-run
# makes that an error that writes nothing
expect 2 "conflicts with" --verify-run --no-verify -o out.cu k.cu
expect 2 "conflicts with" --verify-run --no-verify-run -o out.cu k.cu
expect 0 "not run on a GPU: --no-verify-run)" --no-verify-run -o out.cu k.cu
expect 0 "not run on a GPU: lines marked 'ktc: complete' are left)" -o out.cu k.cu
expect 1 "verify-run: the check on a GPU did not run: lines marked" \
	--verify-run -o out2.cu k.cu
# a complete template: where no CUDA device answers, the reason is given
plan=$here/plans/scale_bias_grid_stride.plan.json
if ! (cd "$tmp" && "$ktc" annotate --apply-plan "$plan" -o out.cu k.cu \
	>/dev/null 2>"$tmp/err" && "$ktc" check -q -b cuda out.cu >/dev/null 2>&1)
then
	expect 0 "not run on a GPU: kernel 'scale_bias_kernel': " \
		--apply-plan "$plan" -o out.cu k.cu
	expect 1 "verify-run: the check on a GPU did not run: kernel" \
		--verify-run --apply-plan "$plan" -o out2.cu k.cu
fi
if [ -e "$tmp/out2.cu" ]; then
	echo "FAIL --verify-run wrote a file it could not run"
	fail=1
fi
exit $fail
