#!/bin/sh
# tests/gpu/verify_run.sh KTC [OUT] - issue 18's wrong edits caught on a GPU
# (docs/annotate.md, "What is verified"). Each case applies a plan that
# makes one of the edits that pass every static check (compiles, PTX at
# the defaults equal to the original's, every value compiles) and are
# wrong at other values:
#   template_arg  the block of `rowsum<1024><<<n, dim3(1024, 1, 1)>>>` made
#                 a parameter without the template argument it must equal
#   header_macro  a header macro's block size followed by the launch's
#                 block but not by the grid's `(n + K - 1) / K` (refused by
#                 the static check of rewriter/ties.c before any run)
#   warp_macro    a one-warp block (WARP_SIZE, shuffles in the header) made
#                 wider
#   halving       a tree reduction over blockDim.x given 96 and 192
# For each: `ktc check` on the template with the wrong edit reports the
# wrong values (exit 1), and, where this ktc has `annotate` (libclang),
# `ktc annotate --verify-run` drops them, or the parameter when no other
# value is right. Then the templates the built-in planner writes for two
# of the same files, their `ktc: complete` lines filled in, check clean.
# Every log goes to OUT (default: a temporary folder). Exit 0 when every
# expectation holds. A ktc without annotate reads the templates with the
# wrong edits from TEMPLATES (the OUT/*.wrong.cu of a run with annotate).
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
ann=$here/../annotate
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
has() { grep -qF -- "$1" "$2" || no "no '$1' in $(basename "$2")"; }
has_annotate=0
"$ktc" annotate --help >/dev/null 2>&1 && has_annotate=1

# run CASE INPUT PLAN [ARGS...]: the template with the wrong edit (static
# checks only), `ktc check` on it, and `ktc annotate --verify-run`.
run() {
	c=$1 input=$2 plan=$3
	shift 3
	mkdir -p "$work/$c"
	cp "$ann/inputs/$input" "$work/$c/"
	for h in "$ann"/inputs/*.h; do cp "$h" "$work/$c/"; done
	cd "$work/$c" || exit 1
	if [ $has_annotate = 1 ]; then
		"$ktc" annotate --no-verify-run --apply-plan "$ann/plans/$plan" \
			"$@" -o wrong.cu "$input" 2>"$out/$c.static.log"
	else # made by a ktc with annotate, in TEMPLATES
		cp "${TEMPLATES:?no annotate in this ktc: set TEMPLATES}/$c.wrong.cu" wrong.cu
	fi
	if [ -f wrong.cu ]; then
		cp wrong.cu "$out/$c.wrong.cu"
		"$ktc" check -q wrong.cu >"$out/$c.check.log" 2>&1
		echo "$c: ktc check exit $?" | tee -a "$out/summary.txt"
	else
		echo "$c: the static checks refuse the plan" |
			tee -a "$out/summary.txt" "$out/$c.check.log"
	fi
	if [ $has_annotate = 1 ]; then
		"$ktc" annotate --verify-run --apply-plan "$ann/plans/$plan" \
			"$@" -o run.cu "$input" 2>"$out/$c.run.log"
		echo "$c: ktc annotate --verify-run exit $?" |
			tee -a "$out/summary.txt"
		[ -f run.cu ] && cp run.cu "$out/$c.run.cu"
	fi
	cd - >/dev/null || exit 1
}

run template_arg template_block_dim3.cu wrong_template_arg.plan.json
has "128 FAILS" "$out/template_arg.check.log"
has "256 FAILS" "$out/template_arg.check.log"
has "512 FAILS" "$out/template_arg.check.log"
run header_macro header_block_macro.cu wrong_header_macro.plan.json --kernel scale
# the grid's `(n + SCALE_BLOCK_SIZE - 1) / SCALE_BLOCK_SIZE` keeps the name
# the plan replaces in the block: the static check drops it (rewriter/ties.c)
has "parameter 'SCALE_BLOCK' dropped: it replaces a name only in part" \
	"$out/header_macro.static.log"
run warp_macro warp_macro.cu wrong_warp_macro.plan.json
has "64 FAILS (correctness)" "$out/warp_macro.check.log"
has "128 FAILS (correctness)" "$out/warp_macro.check.log"
run halving row_sums_halving.cu wrong_halving.plan.json
has "96 FAILS (correctness)" "$out/halving.check.log"
has "192 FAILS (correctness)" "$out/halving.check.log"
has "correct: 64 128 512" "$out/halving.check.log"

if [ $has_annotate = 1 ]; then
	has "parameter 'BLOCK_DIM' dropped: no value but its default is right on the GPU" \
		"$out/template_arg.run.log"
	has "no parameter of the plan survived verification" "$out/template_arg.run.log"
	has "no parameter of the plan survived verification" "$out/header_macro.run.log"
	has "parameter 'WARP' dropped: no value but its default is right on the GPU" \
		"$out/warp_macro.run.log"
	has "value 96 of 'BLOCK' dropped from its domain: it is wrong on the GPU" \
		"$out/halving.run.log"
	has "value 192 of 'BLOCK' dropped from its domain: it is wrong on the GPU" \
		"$out/halving.run.log"
	has "#pragma kt param BLOCK values(64, 128, 256, 512) default(256)" \
		"$out/halving.run.cu"
	has "run on " "$out/halving.run.log"
fi

# The built-in planner's templates for two of these files, completed.
fill() { # fill GOLDEN SED-SCRIPT -> OUT/GOLDEN.right.cu
	sed "$2" "$ann/golden/$1/out.cu" >"$out/$1.right.cu"
	for h in "$ann"/inputs/*.h; do cp "$h" "$out/"; done
}
fill template_block_dim3 's|// ktc: complete and uncomment: #pragma kt problem n values(?)|#pragma kt problem n values(96)|; s|// ktc: complete and uncomment: #pragma kt problem d values(?)|#pragma kt problem d values(3000)|'
fill header_block_macro 's|// ktc: complete and uncomment: #pragma kt problem n values(?)|#pragma kt problem n values(65536)|; s|// ktc: complete and uncomment: #pragma kt arg a float = ?|#pragma kt arg a float = 1.5|; s|// ktc: complete and uncomment: #pragma kt arg x float\[?\] in|#pragma kt arg x float[n] in|'
"$ktc" check -q "$out/template_block_dim3.right.cu" >"$out/template_block_dim3.right.log" 2>&1
echo "template_block_dim3 (built-in): ktc check exit $?" | tee -a "$out/summary.txt"
has "0 of 5 values fail" "$out/template_block_dim3.right.log"
"$ktc" check -q --kernel scale "$out/header_block_macro.right.cu" >"$out/header_block_macro.right.log" 2>&1
echo "header_block_macro (built-in): ktc check exit $?" | tee -a "$out/summary.txt"
has "0 of 34 values fail" "$out/header_block_macro.right.log"
[ $fail = 0 ] && echo "verify_run: all expectations hold"
exit $fail
