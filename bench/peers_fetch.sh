#!/bin/sh
# peers_fetch.sh - prepares .sgl/, the SGLang sources bench/peers.sh builds
# on the GPU machine (which has no network): SGLang's kernel files at a
# named commit and the FlashInfer headers they include, at the FlashInfer
# commit that SGLang's sgl-kernel/CMakeLists.txt pins. Nothing of it is
# committed to this repository (.sgl/ is ignored: .git/info/exclude).
#
#   bench/peers_fetch.sh [OUT]
#
# SGLANG a git repository of SGLang (a clone or a bare mirror) or, when
#        unset, https://github.com/sgl-project/sglang cloned into a
#        temporary folder (needs network);
# SGLANG_COMMIT the commit (default: the HEAD of SGLANG);
# FLASHINFER likewise for FlashInfer (default: cloned from GitHub); its
#        commit is read from SGLang's CMakeLists.txt.
# SGLANG_ORIGIN, FLASHINFER_ORIGIN where the repositories came from, for
#        the record in OUT/COMMITS (default: their paths or URLs).
# OUT (default .sgl) receives sgl-kernel/csrc/... and flashinfer/include/...
# as they are at those commits, and COMMITS (what came from where).
# The files are copied unchanged; bench/peers_cut.py takes the device code
# out of them when the bench builds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/.sgl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The files whose kernels the bench runs: SGLang's entry points of
# silu_and_mul, fused_add_rmsnorm, merge_state_v2 and
# sgl_per_token_group_quant_8bit (v1 and v2, the one SGLang's Python calls
# for group sizes 16 to 128); the launch code they hold is restated in
# bench/peers_sgl.cu.
sgl_files='sgl-kernel/csrc/elementwise/activation.cu
sgl-kernel/csrc/elementwise/fused_add_rms_norm_kernel.cu
sgl-kernel/csrc/attention/merge_attn_states.cu
sgl-kernel/csrc/gemm/per_token_group_quant_8bit.cu
sgl-kernel/csrc/gemm/per_token_group_quant_8bit_v2.cu
sgl-kernel/python/sgl_kernel/elementwise.py
sgl-kernel/python/sgl_kernel/gemm.py
sgl-kernel/python/sgl_kernel/attention.py'
# The FlashInfer headers those files include; their own includes are
# followed below.
fi_roots='include/flashinfer/activation.cuh
include/flashinfer/norm.cuh
include/flashinfer/vec_dtypes.cuh'

repo() { # repo VAR URL: a git directory for VAR, cloned when VAR is unset
	if [ -n "$1" ]; then
		git -C "$1" rev-parse --git-dir >/dev/null 2>&1 ||
			{ echo "peers_fetch: '$1' is not a git repository" >&2; exit 1; }
		echo "$1"
	else
		git clone -q --filter=blob:none --no-checkout "$2" "$tmp/$(basename "$2")" >&2 ||
			{ echo "peers_fetch: cannot clone $2 (no network? set SGLANG and FLASHINFER to local repositories)" >&2; exit 1; }
		echo "$tmp/$(basename "$2")"
	fi
}

sgl=$(repo "${SGLANG:-}" https://github.com/sgl-project/sglang)
sgl_commit=$(git -C "$sgl" rev-parse "${SGLANG_COMMIT:-HEAD}^{commit}")
fi_commit=$(git -C "$sgl" show "$sgl_commit:sgl-kernel/CMakeLists.txt" |
	awk '/repo-flashinfer/ {f = 1} f && /GIT_TAG/ {print $2; exit}')
[ -n "$fi_commit" ] || { echo "peers_fetch: no FlashInfer GIT_TAG in sgl-kernel/CMakeLists.txt at $sgl_commit" >&2; exit 1; }
fi=$(repo "${FLASHINFER:-}" https://github.com/flashinfer-ai/flashinfer)
fi_commit=$(git -C "$fi" rev-parse "$fi_commit^{commit}")

rm -rf "$out"
mkdir -p "$out"
for f in $sgl_files; do
	mkdir -p "$out/$(dirname "$f")"
	git -C "$sgl" show "$sgl_commit:$f" >"$out/$f"
done

# The FlashInfer headers and, transitively, the quoted includes they name
# (relative to the including file, else to include/).
todo=$fi_roots
seen=
while [ -n "$todo" ]; do
	# shellcheck disable=SC2086 # a list of paths without blanks
	set -- $todo
	f=$1
	shift
	todo="$*"
	case " $seen " in *" $f "*) continue ;; esac
	seen="$seen $f"
	mkdir -p "$out/flashinfer/$(dirname "$f")"
	git -C "$fi" show "$fi_commit:$f" >"$out/flashinfer/$f"
	# shellcheck disable=SC2013 # include names have no blanks
	for inc in $(sed -n 's/^#include "\(.*\)"/\1/p' "$out/flashinfer/$f"); do
		rel=$(python3 -c 'import os, sys; print(os.path.normpath(sys.argv[1]))' "$(dirname "$f")/$inc")
		if git -C "$fi" cat-file -e "$fi_commit:$rel" 2>/dev/null; then
			todo="$todo $rel"
		elif git -C "$fi" cat-file -e "$fi_commit:include/$inc" 2>/dev/null; then
			todo="$todo include/$inc"
		else
			echo "peers_fetch: $f includes '$inc', found in neither place" >&2
			exit 1
		fi
	done
done

{
	echo "sglang $sgl_commit $(git -C "$sgl" log -1 --format=%cI "$sgl_commit")"
	echo "sglang-origin ${SGLANG_ORIGIN:-${SGLANG:-https://github.com/sgl-project/sglang}}"
	echo "flashinfer $fi_commit $(git -C "$fi" log -1 --format=%cI "$fi_commit")"
	echo "flashinfer-origin ${FLASHINFER_ORIGIN:-${FLASHINFER:-https://github.com/flashinfer-ai/flashinfer}}"
} >"$out/COMMITS"
cat "$out/COMMITS"
echo "peers_fetch: wrote $out ($(du -sh "$out" | cut -f1))"
