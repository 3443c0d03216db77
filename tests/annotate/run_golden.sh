#!/bin/sh
# run_golden.sh KTC CASE_DIR - one golden-file test of `ktc annotate`.
#
# CASE_DIR/case.conf names the input (`input=inputs/k.cu`, relative to
# tests/annotate), optionally a plan (`plan=plans/k.plan.json`, applied with
# --apply-plan instead of the built-in planner) and extra arguments
# (`args=--kernel k`). The expected results beside it:
#   out.cu    the annotated file (`ktc annotate -i` on a copy of the input;
#             out.cl for an OpenCL C input)
#   out.diff  `ktc annotate --diff`
#   out.diag  what ktc printed on stderr
#   rc        the exit status
# `extra=inputs/a.h ...` names headers copied beside the input wherever it
# is copied (the file's own `"..."` includes).
# On success the test also proves, without ktc's own checks, that the diff
# applies with `patch -p1` and `git apply`, that nvcc compiles out.cu and
# that its default PTX is the original's (not for OpenCL C, `.cl`); on
# failure, that the input file was left as it was. UPDATE=1 rewrites the
# expected files.
set -u
ktc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
case_dir=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
conf="$case_dir/case.conf"
get() { sed -n "s/^$1=//p" "$conf"; }
input="$here/$(get input)"
plan=$(get plan)
args=$(get args)
extra=$(get extra)
name=$(basename "$input")
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
# OpenCL C (`.cl`) has no nvcc step: ktc verifies it on the OpenCL backend
opencl=0 out=out.cu
case $name in *.cl) opencl=1 out=out.cl ;; esac
if [ $opencl = 0 ] && [ ! -x "$nvcc" ]; then
	echo "no CUDA toolkit at ${CUDA_HOME:-/usr/local/cuda}: skipped"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-golden-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work" "$tmp/diff" "$tmp/p" "$tmp/o"
for d in work diff p o; do
	for h in $extra; do cp "$here/$h" "$tmp/$d/"; done
done
cp "$input" "$tmp/work/$name"
cp "$input" "$tmp/diff/$name"
planarg=""
[ -n "$plan" ] && planarg="--apply-plan $here/$plan"

fail=0
check() { # check WHAT EXPECTED GOT
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$3" "$case_dir/$2"
	elif ! diff -u "$case_dir/$2" "$3" >"$tmp/d" 2>&1; then
		echo "FAIL $1 differs from $2:"
		head -60 "$tmp/d"
		fail=1
	fi
}

# The plan path in messages is the one given: make it the same everywhere.
# The run on a GPU is off: what is expected here must not depend on
# whether the machine has one (tests/gpu tests the run).
(cd "$tmp/work" &&
	"$ktc" annotate -i --no-verify-run $planarg $args "$name" 2>"$tmp/diag.raw")
echo $? >"$tmp/rc"
# the OpenCL device's name is the machine's (PoCL names the CPU)
sed -e "s|$here/||g" \
	-e 's|built on .* (Portable Computing Language)|built on DEVICE (Portable Computing Language)|' \
	"$tmp/diag.raw" >"$tmp/diag"
check "exit status" rc "$tmp/rc"
check "diagnostics" out.diag "$tmp/diag"
rc=$(cat "$tmp/rc")

if [ "$rc" != 0 ]; then
	if ! cmp -s "$input" "$tmp/work/$name"; then
		echo "FAIL the input was changed by a failing run"
		fail=1
	fi
	exit $fail
fi

check "annotated file" $out "$tmp/work/$name"
(cd "$tmp/diff" && "$ktc" annotate --diff --no-verify-run $planarg $args "$name" \
	>"$tmp/out.diff" 2>/dev/null)
check "diff" out.diff "$tmp/out.diff"
if ! cmp -s "$input" "$tmp/diff/$name"; then
	echo "FAIL --diff changed the input"
	fail=1
fi

# The diff is accepted by patch and git apply and gives the annotated file.
cp "$input" "$tmp/p/$name"
if ! (cd "$tmp/p" && patch -s -p1 <"$tmp/out.diff") ||
	! cmp -s "$tmp/p/$name" "$tmp/work/$name"; then
	echo "FAIL patch -p1 does not turn the input into the annotated file"
	fail=1
fi
if command -v git >/dev/null &&
	! (cd "$tmp/diff" && git apply --check "$tmp/out.diff"); then
	echo "FAIL git apply rejects the diff"
	fail=1
fi

[ $opencl = 1 ] && exit $fail

# nvcc compiles the annotated file; at its defaults it is the original:
# PTX equal once comments, header version and line information are gone,
# and the per-file prefix nvcc gives names of internal linkage
# (_INTERNAL_<hash>_<len>_<file>_cu_<hash>: the hashes follow the text).
{
	norm() {
		sed -e 's|//.*||' -e '/^[[:space:]]*\.version/d' \
			-e 's/_INTERNAL_[0-9a-f]*_[0-9]*_[A-Za-z0-9_]*_cu_[0-9a-f]*/_INTERNAL_/g' \
			-e '/^[[:space:]]*\.loc/d' -e '/^[[:space:]]*\.file/d' \
			-e 's/[[:space:]]\{1,\}/ /g' -e 's/^ //' -e 's/ $//' \
			-e '/^$/d' "$1" |
			# assert's line (__assertfail's third argument) moves
			# with the lines added above a kernel
			awk '{ l[NR] = $0 }
			/__assertfail/ && !/^\.extern/ {
				for (i = NR - 1; i > 0 && i > NR - 16; i--)
					if (sub(/^st\.param\.b32 \[param2(\+0)?\], [0-9]+;$/,
					    "st.param.b32 [param2], LINE;", l[i]))
						break
			}
			END { for (i = 1; i <= NR; i++) print l[i] }'
	}
	dir=$(dirname "$input")
	cp "$input" "$tmp/o/$name"
	if ! (cd "$tmp/o" && "$nvcc" -ptx -arch=sm_90a -I"$dir" -x cu "$name" \
		-o orig.ptx) ||
		! (cd "$tmp/work" && "$nvcc" -ptx -arch=sm_90a -I"$dir" \
			-x cu "$name" -o ann.ptx); then
		echo "FAIL nvcc does not compile the original or the annotated file"
		fail=1
	elif ! norm "$tmp/o/orig.ptx" >"$tmp/a.ptx" ||
		! norm "$tmp/work/ann.ptx" >"$tmp/b.ptx" ||
		! diff "$tmp/a.ptx" "$tmp/b.ptx" >"$tmp/d"; then
		echo "FAIL the default instantiation's PTX is not the original's:"
		head -20 "$tmp/d"
		fail=1
	fi
}
exit $fail
