#!/bin/sh
# rt_check.sh SRC BUILD - installs the build into a temporary prefix and
# checks the runtime library there: libktcrt.so, its header, pkg-config
# file and ktc::rt in the CMake package; it exports kt_rt_* alone and
# links no libclang. Then tests/install/rt_offline.c is built against it
# twice, by a separate CMake project (find_package(ktc), ktc::rt) and with
# pkg-config, and each compiles a shape of tests/deploy/inputs/scale.kt.cu
# with NVRTC (no GPU needed); so does the installed Python package.
set -u
src=$1 build=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-rt-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "rt_check: $*"; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "cmake --install failed"; }
p=$tmp/prefix
for f in include/ktc/rt.h lib/libktcrt.so lib/pkgconfig/ktcrt.pc \
	lib/cmake/ktc/ktcConfig.cmake; do
	[ -e "$p/$f" ] || fail "'$f' not installed"
done
others=$(nm -D --defined-only "$p/lib/libktcrt.so" | awk 'NF==3{print $3}' |
	grep -v '^kt_rt_')
[ -z "$others" ] || fail "libktcrt.so exports more than kt_rt_*: $others"
if ldd "$p/lib/libktcrt.so" | grep -qi 'clang'; then
	fail "libktcrt.so links libclang"
fi
grep -q 'ktc::rt' "$p/lib/cmake/ktc/ktcConfig.cmake" ||
	fail "ktcConfig.cmake has no ktc::rt"

cmake -S "$src/tests/install/rt_project" -B "$tmp/cmake" \
	-DCMAKE_PREFIX_PATH="$p" >"$tmp/log" 2>&1 &&
	cmake --build "$tmp/cmake" >>"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "the find_package project did not build"; }
cc $(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --cflags ktcrt) \
	-o "$tmp/rt_pc" "$src/tests/install/rt_offline.c" \
	$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --libs ktcrt) \
	-Wl,-rpath,"$p/lib" 2>"$tmp/log" ||
	{ cat "$tmp/log"; fail "the pkg-config build failed"; }

tpl=$src/tests/deploy/inputs/scale.kt.cu
for prog in "$tmp/cmake/rt_offline" "$tmp/rt_pc"; do
	out=$("$prog" "$tpl" "$tmp/cache" 1024) || fail "$prog failed: $out"
	echo "$out"
	[ "$out" = "NVIDIA H100 80GB HBM3: BLOCK=128,ITEMS=1 (default) for sm_90a" ] ||
		fail "unexpected output of $prog"
done
ls "$tmp/cache"/*.cubin >/dev/null 2>&1 || fail "no cubin in the cache"
# the Python package finds the installed library by itself
if command -v python3 >/dev/null; then
	out=$(env -u KTC_RT_LIB PYTHONPATH="$p/share/ktc/python" python3 -c '
import ktc, sys
rt = ktc.Runtime(cache_dir=sys.argv[2], offline=("GPU", "sm_90a", 1))
print(ktc.Kernel(sys.argv[1], runtime=rt).choice(N=1024))' "$tpl" "$tmp/cache") ||
		fail "the installed Python package: $out"
	[ "$out" = "('BLOCK=128,ITEMS=1', 'default')" ] ||
		fail "the installed Python package printed '$out'"
fi
echo "rt_check: installed runtime builds, links and compiles"
