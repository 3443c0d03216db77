#!/bin/sh
# optimize_cli.sh CASE KTC - `ktc optimize` and `ktc annotate` on OpenCL C
# files, end to end on the machine's OpenCL platform (PoCL in CI, no GPU),
# one behaviour per CASE:
#   elementwise      optimize/scale.cl (no --backend: OpenCL C's is the
#                    OpenCL backend): round 0 and an items_per_thread
#                    round run, verified on the OpenCL backend against the
#                    original, tuned and kept or rejected; the round's
#                    template is OpenCL C and tunes with `ktc tune`
#   rows             optimize/rows.cl: a hoist_loads round and a row_split
#                    round, the split's grid a second dimension of the
#                    user's `#pragma kt launch` line
#   vectorize        optimize/vecadd.cl: a vectorize round, its moves
#                    vloadN / vstoreN, the original loop kept under #if
#   wrong_value      optimize/wrong.plan.json: a parameter wrong at a value
#                    other than its default is caught by the run on the
#                    OpenCL backend, the value and then the parameter dropped
#   wrong_launch     optimize/wrong_launch.plan.json: a parameter that changes
#                    the launch at its default (the outputs stay right) is
#                    caught by comparing the launch with the original's
#   cuda_refused     an OpenCL C file is not optimized on the CUDA backend
#   annotate_needs   a .cl file whose arguments the code does not say is
#                    not verified, and says why
# Exits 77 (skipped) where the ICD loader finds no OpenCL platform.
set -eu
case_=$1; ktc=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ktc-clopt-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$here"/optimize/* .

fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qF -- "$1" "$2" || fail "no '$1' in $2: $(cat "$2")"; }

run() { # run EXPECTED_RC ARGS...
	want=$1; shift
	rc=0
	"$ktc" "$@" >out.txt 2>err.txt || rc=$?
	if grep -q "no OpenCL platform" out.txt err.txt; then
		echo "no OpenCL platform: skipped"; exit 77
	fi
	[ "$rc" -eq "$want" ] ||
		fail "exit status $rc, not $want: $(cat out.txt err.txt)"
}

case $case_ in
elementwise)
	run 0 optimize scale.cl --problem N=100000,1000000 \
		--arg y=N --arg x=N --arg a=2 --arg n=N --budget 8 \
		--rounds 1 --past-light -o scale.kt.cl
	cat out.txt err.txt
	has "round 0: run on" err.txt
	has "round 1: trying items_per_thread (ITEMS_PER_THREAD)" err.txt
	has "1 items_per_thread ITEMS_PER_THREAD:" out.txt
	grep -qE "1 items_per_thread ITEMS_PER_THREAD: (kept|rejected)" out.txt ||
		fail "round 1 neither kept nor rejected"
	t=scale.kt.cl.optimize/round-1.kt.cl
	has "kt_item * get_global_size(0)" $t
	has "#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)" $t
	has "ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD)) block(BLOCK_SIZE)" $t
	grep -qE '"verified":[[:space:]]+"built on .* no PTX for OpenCL C"' scale.kt.cl.optimize/summary.json ||
		fail "summary.json does not say what verified the rounds"
	# the launch floor was measured, with a kernel in OpenCL C
	! grep -qE '"launch_floor_ms":[[:space:]]+0,' \
		scale.kt.cl.optimize/summary.json || fail "no launch floor"
	# the output and the round's template tune as they are
	run 0 tune --backend opencl --budget 4 scale.kt.cl
	run 0 tune --backend opencl --budget 4 $t
	has "ITEMS_PER_THREAD=" out.txt
	;;
rows)
	run 0 optimize rows.cl --backend opencl --problem R=4,64 \
		--arg y=R*D --arg x=R*D --arg w=D --arg d=D --budget 6 \
		--rounds 2 --past-light -o rows.kt.cl
	cat out.txt err.txt
	has "round 1: trying hoist_loads (ITEMS)" err.txt
	has "round 2: trying row_split (SPLIT)" err.txt
	t=rows.kt.cl.optimize/round-1.kt.cl
	has "float kt_ld0[ITEMS];" $t
	has "kt_ld0[kt_j] = x[(row * d) + j];" $t
	run 0 tune --backend opencl --budget 4 $t
	has "ITEMS=" out.txt
	t=rows.kt.cl.optimize/round-2.kt.cl
	has "#pragma kt launch grid(R, SPLIT) block(BLOCK_SIZE)" $t
	has "get_group_id(1) * get_local_size(0)" $t
	has "get_num_groups(1)" $t
	run 0 tune --backend opencl --budget 4 $t
	;;
vectorize)
	run 0 optimize vecadd.cl --arg c=N --arg a=N --arg b=N --arg n=N \
		--budget 4 --rounds 1 --past-light -o vecadd.kt.cl
	cat out.txt err.txt
	has "round 1: trying vectorize (VEC)" err.txt
	# no --problem: the shape is named as the file's problem lines
	has "the file's problem values" out.txt
	t=vecadd.kt.cl.optimize/round-1.kt.cl
	has "#pragma kt param VEC values(1, 2, 4) default(1)" $t
	has "#if VEC == 1" $t
	has "KT_VSTORE(VEC)(KT_VLOAD(VEC)(0, &a[(0) + kt_v * VEC]), 0, kt_a);" $t
	has "KT_VSTORE(VEC)(KT_VLOAD(VEC)(0, kt_c), 0, &c[(0) + kt_v * VEC]);" $t
	run 0 tune --backend opencl --budget 4 $t
	has "VEC=" out.txt
	;;
wrong_value)
	run 1 annotate twice.cl --apply-plan wrong.plan.json -o twice.kt.cl
	cat err.txt
	has "value 3 of 'FACTOR' dropped from its domain" err.txt
	has "in KT_VERIFY_ORIGINAL=1,FACTOR=3: output 'y'" err.txt
	has "parameter 'FACTOR' dropped: no value but its default is right" err.txt
	[ ! -e twice.kt.cl ] || fail "an unverified template was written"
	;;
wrong_launch)
	run 1 annotate twice.cl --apply-plan wrong_launch.plan.json -o twice.kt.cl
	cat err.txt
	has "the launch of 'twice' at its defaults is not the original's: block x is 256, not 128" err.txt
	[ ! -e twice.kt.cl ] || fail "an unverified template was written"
	;;
cuda_refused)
	run 1 optimize scale.cl --backend cuda --problem N=1000 --arg y=N \
		--arg x=N --arg a=2 --arg n=N -o scale.kt.cl
	has "'scale.cl' is OpenCL C: it runs on the opencl backend, not 'cuda'" err.txt
	;;
annotate_needs)
	run 0 annotate scale.cl -o scale.kt.cl
	has "NOT verified (not run on the OpenCL backend: lines marked 'ktc: complete' are left)" err.txt
	has "complete '#pragma kt arg y float[?] out'" err.txt
	has "'N' is a problem size" err.txt
	;;
*) fail "unknown case '$case_'" ;;
esac
echo ok
