#!/bin/sh
# export_cli.sh CASE KTC - `ktc export` end to end, one behaviour per CASE:
#   compiles   the C it writes for tests/deploy/inputs/scale.kt.cu and a
#              wisdom of two shapes compiles with -Wall -Wextra -Werror,
#              links against libcuda (the toolkit's stub) and dispatches
#              as the wisdom says (export_main.c)
#   runs       the same C linked against the machine's libcuda, run on
#              its GPU (export_run.c): the outputs of a launch at each
#              kind of shape are right; 77 (skipped) without a CUDA device
#   pdl        a template whose launch has pdl(PDL): the C launches through
#              cuLaunchKernelEx with programmatic stream serialisation
#              where the configuration's PDL is 1, and compiles as above;
#              where a driver and a GPU answer, it also runs as `runs`
#              does (on an H100, the wisdom's device, the shape tuned with
#              PDL 1 launches so)
#   refusals   --help, missing arguments (2), a wisdom for another kernel
#              or another version of the template (1)
# Needs nvcc (KTC_NVCC, else /usr/local/cuda/bin/nvcc): exits 77 (skipped)
# without it, saying so.
set -eu
case_=$1; ktc=$2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${KTC_NVCC:-$cuda/bin/nvcc}
work=$(mktemp -d /tmp/ktc-export-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
cp "$here/inputs/scale.kt.cu" .

# wisdom KERNEL [PDL]: a wisdom for scale.kt.cu as it is now (its FNV-1a
# hash); with PDL, for a template with that third parameter, 1 at the
# second shape
wisdom() {
	python3 - "$@" <<'PY'
import json, sys
h = 0xcbf29ce484222325
for c in open("scale.kt.cu", "rb").read():
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
pdl = sys.argv[2:]
def shape(n, b, i, p):
    best = {"BLOCK": b, "ITEMS": i}
    if pdl:
        best[pdl[0]] = p
    return {"problem": {"N": n}, "best": best, "time_ms": 0.002,
            "default_ms": 0.003}
json.dump({"ktc_wisdom": 1, "template": "scale.kt.cu",
           "template_hash": "%016x" % h, "kernel": sys.argv[1],
           "objective": "cold",
           "device": {"name": "NVIDIA H100 80GB HBM3", "arch": "sm_90a",
                      "compute_capability": "9.0", "driver": "13000"},
           "params": ["BLOCK", "ITEMS"] + pdl, "problem": ["N"],
           "shapes": [shape(1024, 64, 1, 0), shape(65536, 256, 4, 1)]},
          open("w.json", "w"))
PY
}

# compile_main: the exported C, with export_main.c, against the toolkit's
# stub libcuda (no driver needed to build)
compile_main() {
	cc -std=c11 -Wall -Wextra -Werror -I"$cuda/include" -I. \
		-o main "$here/export_main.c" scale_tuned.c \
		-L"$cuda/lib64/stubs" -lcuda -lpthread -lm ||
		fail "the exported C does not compile"
}

# run_on_gpu: the exported C with export_run.c against the driver's
# libcuda, run; exit status 77 where there is no driver or no device
run_on_gpu() {
	cc -std=c11 -Wall -Wextra -Werror -I"$cuda/include" -I. \
		-o run "$here/export_run.c" scale_tuned.c -lcuda -lpthread -lm \
		2> link.txt || { cat link.txt; echo "no libcuda"; return 77; }
	if ldd ./run | grep -q 'libcuda.so.1 => not found'; then
		echo "no driver (libcuda.so.1) on this machine"; return 77
	fi
	rc=0; ./run || rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 77 ] ||
		fail "the exported kernel ran wrong (exit $rc)"
	return $rc
}

case $case_ in
compiles)
	if ! [ -x "$nvcc" ]; then
		echo "no nvcc at $nvcc (set KTC_NVCC): skipped"; exit 77
	fi
	wisdom scale
	"$ktc" export --nvcc "$nvcc" scale.kt.cu w.json -o scale_tuned ||
		fail "ktc export failed"
	grep -q 'CUresult scale(int64_t N, void \*\*args, CUstream stream);' \
		scale_tuned.h || fail "no entry point in the header"
	compile_main
	# the stub libcuda answers no call, but loads: the dispatch needs none
	ln -s "$cuda/lib64/stubs/libcuda.so" libcuda.so.1
	LD_LIBRARY_PATH=$work ./main || fail "dispatch"
	;;
runs)
	if ! [ -x "$nvcc" ]; then
		echo "no nvcc at $nvcc (set KTC_NVCC): skipped"; exit 77
	fi
	wisdom scale
	"$ktc" export --nvcc "$nvcc" scale.kt.cu w.json -o scale_tuned ||
		fail "ktc export failed"
	# the driver's libcuda, not the toolkit's stub: without one, no GPU
	rc=0; run_on_gpu || rc=$?
	[ $rc -eq 77 ] && { echo "skipped"; exit 77; }
	;;
pdl)
	if ! [ -x "$nvcc" ]; then
		echo "no nvcc at $nvcc (set KTC_NVCC): skipped"; exit 77
	fi
	python3 - <<'PY'
t = open("scale.kt.cu").read()
t = t.replace("#pragma kt param ITEMS values(1, 2, 4) default(1)\n",
              "#pragma kt param ITEMS values(1, 2, 4) default(1)\n"
              "#pragma kt param PDL values(0, 1) default(0)\n")
t = t.replace("block(BLOCK)\n", "block(BLOCK) pdl(PDL)\n")
t = t.replace("{\n\tint base",
              "{\n#if PDL\n\tasm volatile(\"griddepcontrol.wait;\" ::: "
              "\"memory\");\n#endif\n\tint base")
open("scale.kt.cu", "w").write(t)
PY
	grep -q 'pdl(PDL)' scale.kt.cu || fail "the test's template lacks pdl()"
	wisdom scale PDL
	"$ktc" export --nvcc "$nvcc" scale.kt.cu w.json -o scale_tuned ||
		fail "ktc export failed"
	grep -q 'CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION' \
		scale_tuned.c || fail "no programmatic launch in the C"
	grep -q 'l->pdl = (uint32_t)kx_dim(PDL);' scale_tuned.c ||
		fail "the launch's pdl is not the configuration's PDL"
	grep -q 'const int64_t PDL = INT64_C(1);' scale_tuned.c ||
		fail "no configuration with PDL 1"
	grep -q 'const int64_t PDL = INT64_C(0);' scale_tuned.c ||
		fail "no configuration with PDL 0"
	compile_main
	rc=0; run_on_gpu || rc=$?
	[ $rc -eq 77 ] && echo "not run on a GPU"
	;;
refusals)
	"$ktc" export --help > out.txt || fail "--help: exit $?"
	grep -q '^usage: ktc export \[options\] TEMPLATE WISDOM -o PREFIX' \
		out.txt || fail "--help: no usage line"
	rc=0; "$ktc" export scale.kt.cu 2> err.txt || rc=$?
	[ $rc -eq 2 ] || fail "one argument: exit $rc, not 2"
	wisdom other
	rc=0; "$ktc" export scale.kt.cu w.json -o x 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 1 ] || fail "other kernel: exit $rc, not 1"
	grep -q "is for kernel 'other', not 'scale'" err.txt ||
		fail "other kernel: no reason"
	wisdom scale
	echo "// changed" >> scale.kt.cu
	rc=0; "$ktc" export scale.kt.cu w.json -o x 2> err.txt || rc=$?
	cat err.txt
	[ $rc -eq 1 ] || fail "changed template: exit $rc, not 1"
	grep -q "another version of 'scale.kt.cu'" err.txt ||
		fail "changed template: no reason"
	[ ! -e x.c ] && [ ! -e x.h ] || fail "files written after a refusal"
	;;
*) fail "unknown case '$case_'" ;;
esac
echo "ok: $case_"
