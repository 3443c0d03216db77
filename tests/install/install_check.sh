#!/bin/sh
# install_check.sh SRC BUILD - installs the build into a temporary prefix,
# then builds tests/install/tune_pocl.c against it twice, as a separate CMake
# project (find_package(ktc)) and as a Makefile project (pkg-config), and
# runs each: both tune a template through the C API on PoCL. Exits 77 (as
# the programs do) where there is no OpenCL platform.
set -u
src=$1 build=$2
here=$src/tests/install
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_check: $*"; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "cmake --install failed"; }
for f in bin/ktc include/ktc/tune.h lib/libktc.a lib/pkgconfig/ktc.pc \
	lib/cmake/ktc/ktcConfig.cmake; do
	[ -e "$tmp/prefix/$f" ] || fail "'$f' not installed"
done
sh "$src/tests/layers/exports_check.sh" "$tmp/prefix/lib/libktc.a" || exit 1

cmake -S "$here/cmake_project" -B "$tmp/cmake" \
	-DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/log" 2>&1 &&
	cmake --build "$tmp/cmake" >>"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "the find_package project did not build"; }
PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig \
	make -s -C "$here/make_project" OUT="$tmp" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "the pkg-config project did not build"; }

"$tmp/cmake/tune_pocl"
rc=$?
[ $rc = 0 ] || { [ $rc = 77 ] && exit 77; fail "find_package build: exit $rc"; }
"$tmp/tune_pocl" || fail "pkg-config build: exit $?"
