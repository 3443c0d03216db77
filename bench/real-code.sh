#!/bin/sh
# real-code.sh - issue 12's measure in one run: the sampled files of public
# serving-stack code (bench/real-code/<project>.txt), taken from their
# repositories at the commits named below, each given the command its
# project's build would give it (bench/real-code/mkdb.py), annotated by
# scripts/annotate-all.sh one file at a time; one table per project and
# the totals (bench/real-code/report.py). Nothing fetched is committed:
# it all goes to OUT.
#
#   bench/real-code.sh [-k KTC] [--timeout S] [-o OUT] [PROJECT...]
#
# PROJECT: samples ggml jit sglk vllm (default: all whose sources are
# there). Sources, each a git repository (a clone or a bare mirror) read
# at the commit below with `git archive`, or cloned from GitHub when the
# variable is unset (needs network):
#   CUDA_SAMPLES  NVIDIA/cuda-samples
#   GGML          ggml-org/ggml (llama.cpp's ggml-cuda)
#   SGLANG        sgl-project/sglang (sgl-kernel and the JIT kernels)
#   FLASHINFER    flashinfer-ai/flashinfer, at the commit sgl-kernel's
#                 CMakeLists.txt pins (its headers are sgl-kernel's)
#   VLLM          vllm-project/vllm; or a folder holding csrc/ as it is at
#                 a commit (vLLM's repository is too large for some
#                 mirrors); unset and no network: vLLM is left out
#   DEPS          a folder with the headers of the torch, pybind11,
#                 nvidia-cutlass and apache-tvm-ffi wheels as they unpack
#                 (DEPS/torch/torch/include, DEPS/pybind11/pybind11/include,
#                 DEPS/nvidia_cutlass/cutlass_library/source/include,
#                 DEPS/apache_tvm_ffi/tvm_ffi/include); this script does
#                 not download wheels: without DEPS, sglk and vllm are left
#                 out
# OUT (default real-code-out) receives src/ (the sources), <project>.txt
# (annotate-all's table), kept/<project>/ (each annotated file and ktc's
# messages), COMMITS and report.md.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ktc=$root/build/ktc
tmo=60
out=real-code-out
while [ $# -gt 0 ]; do
	case $1 in
	-k | --ktc) ktc=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-h | --help) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "real-code: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
want=${*:-samples ggml jit sglk vllm}
for p in $want; do
	case $p in samples | ggml | jit | sglk | vllm) ;;
	*) echo "real-code: unknown project '$p' (samples ggml jit sglk vllm)" >&2
		exit 2 ;;
	esac
done
[ -x "$ktc" ] || { echo "real-code: no ktc at '$ktc' (-k KTC)" >&2; exit 2; }
mkdir -p "$out/src"
out=$(cd "$out" && pwd)
src=$out/src
: >"$out/COMMITS"

# The commits measured (docs/real-code.md).
c_samples=c94ff366aed18c797b8a85dfaac7817b0228b420
c_ggml=d99724f2b141fed9e1a9f402213506c081433465
c_sglang=65d3b47f630f86262781702109b56d3290af39cf
c_vllm=c66917853995af6fb7c37c5f11501eb3f32ef4cf

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# repo VALUE URL: a git directory (VALUE, or URL cloned), or nothing.
repo() {
	if [ -n "$1" ]; then
		if git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
			echo "$1"
		fi
		return 0
	fi
	d=$tmp/$(basename "$2")
	if git clone -q --filter=blob:none --no-checkout "$2" "$d" 2>/dev/null; then
		echo "$d"
	fi
}

# take NAME GITDIR COMMIT INTO PATH...: PATHs of GITDIR at COMMIT under
# src/INTO, the commit recorded.
take() {
	name=$1 g=$2 c=$3 into=$4
	shift 4
	git -C "$g" cat-file -e "$c^{commit}" 2>/dev/null || {
		echo "real-code: $name: commit $c not in $g" >&2
		return 1
	}
	rm -rf "${src:?}/$into"
	mkdir -p "$src/$into"
	git -C "$g" archive "$c" "$@" | tar -x -C "$src/$into"
	echo "$name $c $g" >>"$out/COMMITS"
}

has() { case " $want " in *" $1 "*) return 0 ;; esac; return 1; }

if has samples; then
	g=$(repo "${CUDA_SAMPLES:-}" https://github.com/NVIDIA/cuda-samples)
	# the listed samples' folders only (Samples/CATEGORY/SAMPLE): a
	# mirror may lack the large files (documents, data) of the others
	dirs=$(sed -n 's|^cuda-samples/\(Samples/[^/]*/[^/]*\)/.*|\1|p' \
		"$root/bench/real-code/samples.txt" | sort -u)
	# shellcheck disable=SC2086
	[ -n "$g" ] && take cuda-samples "$g" $c_samples cuda-samples $dirs Common
fi
if has ggml; then
	g=$(repo "${GGML:-}" https://github.com/ggml-org/ggml)
	[ -n "$g" ] && take ggml "$g" $c_ggml ggml-cuda src include
fi
if has jit || has sglk; then
	g=$(repo "${SGLANG:-}" https://github.com/sgl-project/sglang)
	if [ -n "$g" ] && take sglang "$g" $c_sglang sglang \
		python/sglang/jit_kernel sgl-kernel/csrc sgl-kernel/include \
		sgl-kernel/CMakeLists.txt; then
		# FlashInfer at the commit sgl-kernel's build fetches
		fi_c=$(sed -n '/repo-flashinfer/,/GIT_TAG/s/.*GIT_TAG *\([0-9a-f]\{40\}\).*/\1/p' \
			"$src/sglang/sgl-kernel/CMakeLists.txt" | head -1)
		f=$(repo "${FLASHINFER:-}" https://github.com/flashinfer-ai/flashinfer)
		[ -n "$f" ] && [ -n "$fi_c" ] &&
			take flashinfer "$f" "$fi_c" _deps/flashinfer include csrc
	fi
fi
if has vllm; then
	if [ -n "${VLLM:-}" ] && [ -d "$VLLM/csrc" ] &&
		! git -C "$VLLM" rev-parse --git-dir >/dev/null 2>&1; then
		rm -rf "$src/vllm"
		mkdir -p "$src/vllm"
		cp -R "$VLLM/csrc" "$src/vllm/"
		echo "vllm (a folder: commit not checked) $VLLM" >>"$out/COMMITS"
	else
		g=$(repo "${VLLM:-}" https://github.com/vllm-project/vllm)
		[ -n "$g" ] && take vllm "$g" $c_vllm vllm csrc
	fi
fi
if [ -n "${DEPS:-}" ]; then
	for d in torch pybind11 nvidia_cutlass apache_tvm_ffi; do
		[ -d "$DEPS/$d" ] || { echo "real-code: no $DEPS/$d" >&2; exit 1; }
		rm -rf "$src/_deps/$d"
		mkdir -p "$src/_deps"
		ln -s "$(cd "$DEPS/$d" && pwd)" "$src/_deps/$d"
	done
	echo "wheels' headers $DEPS" >>"$out/COMMITS"
fi

python3 "$root/bench/real-code/mkdb.py" "$src"

# project list-name source-folder: what each table measures
ran=
for spec in samples:cuda-samples ggml:ggml-cuda \
	jit:sglang/python/sglang/jit_kernel sglk:sglang/sgl-kernel vllm:vllm; do
	p=${spec%%:*} dir=$src/${spec#*:}
	has "$p" || continue
	if [ ! -f "$dir/build/compile_commands.json" ]; then
		echo "real-code: $p: no sources, left out" >&2
		continue
	fi
	case $p in sglk | vllm)
		[ -d "$src/_deps/torch" ] || {
			echo "real-code: $p: no DEPS (torch's headers), left out" >&2
			continue
		}
		;;
	esac
	files=$(sed "s|^|$src/|" "$root/bench/real-code/$p.txt")
	mkdir -p "$out/kept/$p"
	echo "== $p $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
	# a failed file is a result here, not an error of the run
	# shellcheck disable=SC2086
	sh "$root/scripts/annotate-all.sh" -k "$ktc" --timeout "$tmo" \
		-p "$dir/build" -o "$out/kept/$p" $files >"$out/$p.txt" || true
	ran="$ran $p"
done
[ -n "$ran" ] || { echo "real-code: nothing measured" >&2; exit 1; }
# shellcheck disable=SC2086 # the projects, one word each
python3 "$root/bench/real-code/report.py" "$out" $ran >"$out/report.md"
cat "$out/report.md"
